import { type ByteRange, coalesceRanges, LruCache } from "@zarrkit/util";
import {
  coalesceGapHint,
  CorruptDataError,
  InvalidOptionError,
  NotFoundError,
  type RequestOptions,
  renamedOption,
  type Store,
  showValue,
  UnsupportedError,
} from "@zarrkit/registry";
import { decodeBytes } from "./encoding.js";
import { type FileSource, fileSource } from "./file-source.js";
import { shardLocation } from "./location.js";
import { checkRangeSize, type ShardLimitOptions, type ShardLimits, shardLimits, storedIndexLimit } from "./limits.js";
import { decodeMinishardIndex } from "./minishard-index.js";
import { decodeShardIndex, decodeShardIndexEntry } from "./shard-index.js";
import { type ShardingSpec, shardIndexSize } from "./spec.js";
import { joinKey } from "./store-key.js";
import { checkU64, compareU64 } from "./uint64.js";

/** Where a `ShardReader` finds shards and how much it caches. */
export interface ShardReaderOptions extends ShardLimitOptions {
  /** Directory of the shard files in the store, e.g. "mesh" for "mesh/0a.shard". Default "". */
  prefix?: string;
  /** Shard index entries kept (one 16-byte entry per shard and minishard). Default 16384. */
  shardIndexCacheSize?: number;
  /** Decoded minishard indexes kept. Default 128, as cloud-volume. */
  minishardIndexCacheSize?: number;
  /**
   * Ranges of one file at most this many bytes apart are fetched in one request: a non-negative integer. Default: the
   * store's `coalesceGapBytes` hint (4 MiB over HTTP and S3), else 32 KiB.
   */
  coalesceGapBytes?: number;
  /** @deprecated Use coalesceGapBytes (where -1, which never merges even adjacent ranges, has no equivalent). */
  coalesceGap?: number;
}

export interface GetChunksOptions extends RequestOptions {
  /** Refuse (CorruptDataError) a chunk that decodes to more bytes than this; at most the reader's maxChunkBytes. */
  maxDecodedBytes?: number;
}

/** Where a chunk's stored (still encoded) bytes are: `length` bytes at `offset` of store key `key`. */
export interface StoredChunk extends ByteRange {
  /** The shard file's store key. */
  key: string;
}

type MinishardIndex = Map<bigint, ByteRange>;

/** The gap up to which ranges are merged when neither the options nor the store say. */
const DEFAULT_COALESCE_GAP_BYTES = 32 * 1024;

/**
 * The `coalesceGapBytes` option (a non-negative integer), else the deprecated `coalesceGap` as it was (-1 never
 * merges), else undefined; an InvalidOptionError names a bad one, or both when both are given.
 */
function coalesceGapOption(options: ShardReaderOptions): number | undefined {
  const gap = renamedOption(options, "coalesceGapBytes", "coalesceGap");
  if (gap === undefined) return undefined;
  const legacy = options.coalesceGapBytes === undefined;
  if (Number.isSafeInteger(gap) && ((gap as number) >= 0 || (legacy && gap === -1))) return gap as number;
  const name = legacy ? "coalesceGap" : "coalesceGapBytes";
  throw new InvalidOptionError(`${name} must be a non-negative integer, got ${showValue(gap, 80)}`, { field: name });
}

/**
 * Reads chunks out of `neuroglancer_uint64_sharded_v1` shard files in a store.
 * A cold lookup costs three ranged reads (shard index entry, minishard index,
 * data); with the minishard index cached, one. Caches can go stale if the
 * shard files are rewritten: call `clearCache()` then.
 */
export class ShardReader {
  /** The store holding the shard files. */
  readonly store: Store;
  /** The sharding parameters. */
  readonly spec: ShardingSpec;
  /** Directory of the shard files in the store. */
  readonly prefix: string;
  readonly #coalesceGapBytes: number;
  readonly #indexEnd: number;
  readonly #limits: ShardLimits;
  /** `${key}\n${minishard}` -> absolute range of the minishard index, or null when empty or the file is missing. */
  readonly #shardIndexCache: LruCache<string, ByteRange | null>;
  readonly #minishardIndexCache: LruCache<string, MinishardIndex>;

  constructor(store: Store, spec: ShardingSpec, options: ShardReaderOptions = {}) {
    this.store = store;
    this.spec = spec;
    this.prefix = options.prefix ?? "";
    this.#coalesceGapBytes = coalesceGapOption(options) ?? coalesceGapHint(store) ?? DEFAULT_COALESCE_GAP_BYTES;
    this.#indexEnd = shardIndexSize(spec);
    this.#limits = shardLimits(options);
    this.#shardIndexCache = new LruCache(options.shardIndexCacheSize ?? 16384);
    this.#minishardIndexCache = new LruCache(options.minishardIndexCacheSize ?? 128);
  }

  /** The store key of a shard file name such as "0a.shard". */
  fileKey(fileName: string): string {
    return joinKey(this.prefix, fileName);
  }

  /** The chunk's bytes, decoded per `data_encoding`, or undefined when absent. */
  async get(id: bigint, options?: GetChunksOptions): Promise<Uint8Array | undefined> {
    return (await this.getMany([id], options)).get(id);
  }

  /** Where the chunk's stored bytes are, without reading them, or undefined when absent. */
  async exists(id: bigint, options?: RequestOptions): Promise<StoredChunk | undefined> {
    checkU64(id, "chunk id");
    return (await this.#locate([id], fileSource(this.store, options))).get(id);
  }

  /**
   * The chunks present among `ids`, decoded. Lookups are grouped per shard
   * file and nearby byte ranges are fetched together.
   */
  async getMany(ids: Iterable<bigint>, options: GetChunksOptions = {}): Promise<Map<bigint, Uint8Array>> {
    const unique = [...new Set(ids)];
    for (const id of unique) checkU64(id, "chunk id");
    const maxChunkBytes = this.#limits.maxChunkBytes;
    const maxDecoded = Math.min(maxChunkBytes, options.maxDecodedBytes ?? maxChunkBytes);
    const source = fileSource(this.store, options);
    const located = await this.#locate(unique, source);
    const byFile = new Map<string, (StoredChunk & { id: bigint })[]>();
    for (const [id, chunk] of located) {
      checkRangeSize(chunk, maxChunkBytes, `chunk ${id}`, chunk.key, "maxChunkBytes");
      const list = byFile.get(chunk.key) ?? [];
      list.push({ ...chunk, id });
      byFile.set(chunk.key, list);
    }
    const result = new Map<bigint, Uint8Array>();
    await Promise.all(
      [...byFile].map(([key, chunks]) =>
        this.#readGroups(key, chunks, source, "chunk data", (chunk, stored) => {
          result.set(chunk.id, this.#decodeData(present(stored, key, "chunk data"), key, chunk.id, maxDecoded));
        }),
      ),
    );
    return result;
  }

  /** Every chunk id stored in one shard file (a name such as "0a.shard"), ascending; [] when the file is absent. */
  async listIds(fileName: string, options?: RequestOptions): Promise<bigint[]> {
    const key = this.fileKey(fileName);
    if (this.#indexEnd > this.#limits.maxChunkBytes) {
      throw new UnsupportedError(
        `listIds reads the whole ${this.#indexEnd}-byte shard index of ${key}, more than maxChunkBytes ` +
          `(${this.#limits.maxChunkBytes})`,
        { key },
      );
    }
    const source = fileSource(this.store, options);
    const indexBytes = await source.read(key, { offset: 0, length: this.#indexEnd }, "shard index");
    if (indexBytes === undefined) return [];
    const entries = new Map(decodeShardIndex(indexBytes, key).map((range, m) => [BigInt(m), range]));
    const indexes = await this.#loadMinishardIndexes(key, entries, source);
    const ids: bigint[] = [];
    for (const index of indexes.values()) ids.push(...index.keys());
    return ids.sort(compareU64);
  }

  /** Forget cached shard and minishard indexes (after shard files were rewritten). */
  clearCache(): void {
    this.#shardIndexCache.clear();
    this.#minishardIndexCache.clear();
  }

  async #locate(ids: readonly bigint[], source: FileSource): Promise<Map<bigint, StoredChunk>> {
    const byFile = new Map<string, Map<bigint, bigint[]>>();
    for (const id of ids) {
      const location = shardLocation(this.spec, id);
      const key = this.fileKey(location.key);
      const minishards = byFile.get(key) ?? new Map<bigint, bigint[]>();
      byFile.set(key, minishards);
      const list = minishards.get(location.minishard) ?? [];
      minishards.set(location.minishard, list);
      list.push(id);
    }
    const found = new Map<bigint, StoredChunk>();
    await Promise.all(
      [...byFile].map(async ([key, minishards]) => {
        const entries = await this.#shardIndexEntries(key, [...minishards.keys()], source);
        const indexes = await this.#loadMinishardIndexes(key, entries, source);
        for (const [minishard, minishardIds] of minishards) {
          const index = indexes.get(minishard);
          for (const id of minishardIds) {
            const range = index?.get(id);
            if (range) found.set(id, { key, offset: range.offset, length: range.length });
          }
        }
      }),
    );
    return found;
  }

  /** Shard index entries of some minishards of one file, reading only the uncached 16-byte entries. */
  async #shardIndexEntries(
    key: string,
    minishards: readonly bigint[],
    source: FileSource,
  ): Promise<Map<bigint, ByteRange | undefined>> {
    const entries = new Map<bigint, ByteRange | undefined>();
    const missing: (ByteRange & { minishard: bigint })[] = [];
    for (const minishard of minishards) {
      const cacheKey = `${key}\n${minishard}`;
      const cached = this.#shardIndexCache.get(cacheKey);
      if (cached !== undefined) {
        entries.set(minishard, cached ?? undefined);
      } else {
        missing.push({ offset: Number(minishard) * 16, length: 16, minishard });
      }
    }
    await this.#readGroups(key, missing, source, "shard index entry", (item, bytes) => {
      // A missing file means no chunks: cache that like an empty minishard.
      const entry = bytes && decodeShardIndexEntry(bytes, 0, this.#indexEnd, key, item.minishard);
      this.#shardIndexCache.set(`${key}\n${item.minishard}`, entry ?? null);
      entries.set(item.minishard, entry);
    });
    return entries;
  }

  async #loadMinishardIndexes(
    key: string,
    entries: Map<bigint, ByteRange | undefined>,
    source: FileSource,
  ): Promise<Map<bigint, MinishardIndex>> {
    const indexes = new Map<bigint, MinishardIndex>();
    const pending: (ByteRange & { minishard: bigint })[] = [];
    const encoding = this.spec.minishard_index_encoding;
    for (const [minishard, range] of entries) {
      if (!range) continue;
      const cached = this.#minishardIndexCache.get(`${key}\n${minishard}`);
      if (cached) {
        indexes.set(minishard, cached);
      } else {
        const what = `minishard ${minishard} index`;
        checkRangeSize(range, storedIndexLimit(this.#limits, encoding), what, key, "maxMinishardIndexEntries");
        pending.push({ ...range, minishard });
      }
    }
    await this.#readGroups(key, pending, source, "minishard index", (item, bytes) => {
      const what = `minishard ${item.minishard} index`;
      const decoded = decodeBytes(present(bytes, key, what), encoding, what, key, this.#limits.maxIndexBytes);
      const index = decodeMinishardIndex(decoded, this.#indexEnd, key);
      this.#minishardIndexCache.set(`${key}\n${item.minishard}`, index);
      indexes.set(item.minishard, index);
    });
    return indexes;
  }

  /** Fetch `items` of one file in coalesced requests and hand each its own bytes (undefined: no such file). */
  async #readGroups<T extends ByteRange>(
    key: string,
    items: readonly T[],
    source: FileSource,
    what: string,
    use: (item: T, bytes: Uint8Array | undefined) => void,
  ): Promise<void> {
    await Promise.all(
      coalesceRanges(items, this.#coalesceGapBytes, this.#limits.maxChunkBytes).map(async (group) => {
        const bytes = await source.read(key, group, what);
        for (const item of group.members) {
          const start = item.offset - group.offset;
          use(item, bytes?.subarray(start, start + item.length));
        }
      }),
    );
  }

  #decodeData(stored: Uint8Array, key: string, id: bigint, maxBytes: number): Uint8Array {
    if (this.spec.data_encoding === "gzip") return decodeBytes(stored, "gzip", `chunk ${id}`, key, maxBytes);
    if (stored.length > maxBytes) {
      throw new CorruptDataError(
        `chunk ${id} in ${key} has ${stored.length} bytes, more than the ${maxBytes} expected`,
        { key },
      );
    }
    // Copy so one small chunk does not keep a large coalesced read alive.
    return stored.byteLength === stored.buffer.byteLength ? stored : stored.slice();
  }
}

/** After an index pointed into `key`, the file must still be there. */
function present(bytes: Uint8Array | undefined, key: string, what: string): Uint8Array {
  if (bytes === undefined) {
    throw new NotFoundError(`${key} disappeared while reading its ${what}; call clearCache() after rewriting shards`, {
      key,
    });
  }
  return bytes;
}
