/**
 * kerchunk's Parquet reference layout (fsspec's LazyReferenceMapper): a
 * folder holding `.zmetadata` (`{"metadata": {key: document}, "record_size": N}`)
 * and, per array `<var>`, record files `<var>/refs.<n>.parq` of N rows each:
 * chunk number c (its index raveled in C order over the chunk grid) is row
 * c % N of record c / N. Record files load on first use into a bounded LRU
 * cache, so millions of chunks cost only the records being read.
 */
import { CorruptDataError, InvalidMetadataError, type RequestOptions, showValue, type Store } from "@zarrkit/registry";
import { LruCache } from "@zarrkit/util";
import type { Compressors } from "hyparquet";
import { readCapped } from "./read-capped.js";
import type { Reference, ReferenceTable } from "./reference.js";
import { type RecordColumns, readRecordColumns } from "./parquet-record.js";

const textEncoder = new TextEncoder();

/** Limits and decoders of the Parquet layout. */
export interface ParquetTableOptions {
  /** Largest `.zmetadata` or record file read. */
  maxFileBytes: number;
  /** Bytes of record files kept decoded (costed by their file size). */
  recordCacheBytes: number;
  /** hyparquet decompressors beyond the built-in snappy, zstd and gzip. */
  compressors: Compressors;
}

/** An array of the layout: its chunk grid and key separator. */
interface ArrayGrid {
  chunksPerDimension: number[];
  separator: string;
  chunkCount: number;
}

export class ParquetReferenceTable implements ReferenceTable {
  readonly #records: LruCache<string, { columns?: RecordColumns; cost: number }>;
  readonly #grids = new Map<string, ArrayGrid | undefined>();

  private constructor(
    private readonly store: Store,
    /** The layout's folder in `store`: "" or ending in "/". */
    private readonly folder: string,
    private readonly metadata: Record<string, unknown>,
    private readonly recordSize: number,
    private readonly options: ParquetTableOptions,
  ) {
    this.#records = new LruCache(options.recordCacheBytes, (entry) => entry.cost);
  }

  /** Open the layout whose `.zmetadata` is `metadataKey` of `store`. */
  static async open(
    store: Store,
    metadataKey: string,
    bytes: Uint8Array,
    options: ParquetTableOptions,
  ): Promise<ParquetReferenceTable> {
    let document: unknown;
    try {
      document = JSON.parse(new TextDecoder().decode(bytes));
    } catch (error) {
      throw new InvalidMetadataError(`${JSON.stringify(metadataKey)} is not JSON: ${(error as Error).message}`, {
        key: metadataKey,
        cause: error,
      });
    }
    const fail = (field: string, problem: string): never => {
      throw new InvalidMetadataError(`${JSON.stringify(metadataKey)}: ${field} ${problem}`, {
        key: metadataKey,
        field,
      });
    };
    if (typeof document !== "object" || document === null || Array.isArray(document))
      return fail("the document", "is not a JSON object");
    const { metadata, record_size: recordSize } = document as Record<string, unknown>;
    if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata))
      fail("metadata", `is ${showValue(metadata, 80)}, not an object`);
    if (!Number.isSafeInteger(recordSize) || (recordSize as number) < 1)
      fail("record_size", `is ${showValue(recordSize, 80)}, not a positive integer`);
    const folder = metadataKey.slice(0, metadataKey.length - ".zmetadata".length);
    return new ParquetReferenceTable(store, folder, metadata as Record<string, unknown>, recordSize as number, options);
  }

  async lookup(key: string, options: RequestOptions = {}): Promise<Reference | undefined> {
    if (Object.hasOwn(this.metadata, key)) {
      const document = this.metadata[key];
      return {
        kind: "inline",
        bytes: textEncoder.encode(typeof document === "string" ? document : JSON.stringify(document)),
      };
    }
    const chunk = this.#locate(key);
    if (!chunk) return undefined;
    const { field, number } = chunk;
    const record = Math.floor(number / this.recordSize);
    const columns = await this.#record(field, record, options);
    return columns && this.#reference(columns, number % this.recordSize, key, this.#recordKey(field, record));
  }

  async *keys(prefix: string, options: RequestOptions = {}): AsyncGenerator<string> {
    for (const key of Object.keys(this.metadata)) if (key.startsWith(prefix)) yield key;
    for (const key of Object.keys(this.metadata)) {
      if (!key.endsWith("/.zarray")) continue;
      const field = key.slice(0, -"/.zarray".length);
      if (!(`${field}/`.startsWith(prefix) || prefix.startsWith(`${field}/`))) continue;
      const grid = this.#grid(field);
      if (!grid) continue;
      const records = Math.ceil(grid.chunkCount / this.recordSize);
      for (let record = 0; record < records; record++) {
        const columns = await this.#record(field, record, options);
        if (!columns) continue;
        for (let row = 0; row < columns.rows; row++) {
          if (columns.raw[row] == null && columns.path[row] == null) continue;
          const index = unravel(record * this.recordSize + row, grid.chunksPerDimension);
          const chunkKey = `${field}/${index.join(grid.separator)}`;
          if (chunkKey.startsWith(prefix)) yield chunkKey;
        }
      }
    }
  }

  /** The array and chunk number of a chunk key, or undefined when `key` is none. */
  #locate(key: string): { field: string; number: number } | undefined {
    for (let slash = key.lastIndexOf("/"); slash > 0; slash = key.lastIndexOf("/", slash - 1)) {
      const field = key.slice(0, slash);
      const grid = this.#grid(field);
      if (!grid) continue;
      const parts = key.slice(slash + 1).split(grid.separator);
      if (parts.length !== grid.chunksPerDimension.length || !parts.every((p) => /^\d+$/.test(p))) return undefined;
      let number = 0;
      for (const [i, part] of parts.entries()) {
        const index = Number(part);
        const count = grid.chunksPerDimension[i]!;
        if (index >= count) return undefined;
        number = number * count + index;
      }
      return { field, number };
    }
    return undefined;
  }

  #grid(field: string): ArrayGrid | undefined {
    if (this.#grids.has(field)) return this.#grids.get(field);
    const zarrayKey = `${field}/.zarray`;
    let grid: ArrayGrid | undefined;
    if (Object.hasOwn(this.metadata, zarrayKey)) {
      let zarray = this.metadata[zarrayKey];
      if (typeof zarray === "string") zarray = parseJson(zarray);
      const { shape, chunks, dimension_separator: separator = "." } = (zarray ?? {}) as Record<string, unknown>;
      const valid = (list: unknown): list is number[] =>
        Array.isArray(list) && list.every((n) => Number.isSafeInteger(n) && n >= 0);
      if (
        !valid(shape) ||
        !valid(chunks) ||
        shape.length !== chunks.length ||
        chunks.some((c) => c === 0) ||
        (separator !== "." && separator !== "/")
      ) {
        throw new InvalidMetadataError(
          `${JSON.stringify(this.folder + ".zmetadata")}: metadata[${JSON.stringify(zarrayKey)}] ` +
            "has no valid shape, chunks and dimension_separator",
          {
            key: this.folder + ".zmetadata",
            field: `metadata[${JSON.stringify(zarrayKey)}]`,
          },
        );
      }
      // A 0-d array has one chunk, as in fsspec.
      const chunksPerDimension = shape.length === 0 ? [1] : shape.map((s, i) => Math.ceil(s / chunks[i]!));
      const chunkCount = chunksPerDimension.reduce((a, b) => a * b, 1);
      if (!Number.isSafeInteger(chunkCount)) {
        throw new InvalidMetadataError(
          `${JSON.stringify(this.folder + ".zmetadata")}: ${zarrayKey} has more chunks than can be numbered`,
          {
            key: this.folder + ".zmetadata",
            field: `metadata[${JSON.stringify(zarrayKey)}]`,
          },
        );
      }
      grid = { chunksPerDimension, separator, chunkCount };
    }
    this.#grids.set(field, grid);
    return grid;
  }

  async #record(field: string, record: number, options: RequestOptions): Promise<RecordColumns | undefined> {
    const key = this.#recordKey(field, record);
    const entry = await this.#records.getOrLoad(key, async () => {
      const bytes = await readCapped(this.store, key, this.options.maxFileBytes, "record file", options);
      // A missing record file holds no chunks (fsspec reads its keys as missing).
      if (bytes === undefined) return { cost: 1 };
      return {
        columns: await readRecordColumns(bytes, key, this.options.compressors, this.options.maxFileBytes),
        cost: Math.max(1, bytes.length),
      };
    });
    return entry?.columns;
  }

  #recordKey(field: string, record: number): string {
    return `${this.folder}${field}/refs.${record}.parq`;
  }

  #reference(columns: RecordColumns, row: number, key: string, recordKey: string): Reference | undefined {
    if (row >= columns.rows) {
      throw new CorruptDataError(
        `Parquet record file ${JSON.stringify(recordKey)} has ${columns.rows} rows; ` +
          `the reference of ${JSON.stringify(key)} is row ${row}`,
        {
          key,
          field: recordKey,
        },
      );
    }
    const raw = columns.raw[row];
    if (raw != null) return { kind: "inline", bytes: typeof raw === "string" ? textEncoder.encode(raw) : raw.slice() };
    const path = columns.path[row];
    if (path == null) return undefined;
    const field = `${recordKey} row ${row}`;
    const offset = count(columns.offset[row]);
    const size = count(columns.size[row]);
    if (offset === undefined || size === undefined) {
      throw new CorruptDataError(
        `Parquet record file ${JSON.stringify(recordKey)}, row ${row} (key ${JSON.stringify(key)}): ` +
          "offset and size must be non-negative integers",
        {
          key,
          field,
        },
      );
    }
    // As in fsspec: offset and size both 0 mean the whole target.
    if (offset === 0 && size === 0) return { kind: "target", url: path, field };
    return { kind: "target", url: path, window: { offset, length: size }, field };
  }
}

function count(value: number | bigint | null | undefined): number | undefined {
  const n = typeof value === "bigint" ? Number(value) : (value ?? 0);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function unravel(number: number, counts: readonly number[]): number[] {
  const index = new Array<number>(counts.length);
  for (let i = counts.length - 1; i >= 0; i--) {
    index[i] = number % counts[i]!;
    number = Math.floor(number / counts[i]!);
  }
  return index;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
