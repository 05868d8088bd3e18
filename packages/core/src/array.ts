import {
  type ArrayData,
  type Chunk,
  type NumericArray,
  type ChunkGrid,
  type ChunkSpec,
  type CodecOptions,
  type DimSlice,
  InvalidOptionError,
  InvalidSelectionError,
  isWritable,
  type RequestOptions,
  type Scalar,
  type Store,
  StoreError,
  type WritableStore,
  showValue,
  type WriteSource,
  ZarrkitError,
} from "@zarrkit/registry";
import { forEachConcurrent } from "./concurrency.js";
import type { DataTypeArrays, DataTypeName } from "./data-type-arrays.js";
import { dataClassName, isDataOfType } from "./data-types.js";
import { parseScalar } from "./fill-value.js";
import { withKeyLock } from "./keyed-lock.js";
import { encodeJson } from "./metadata/json.js";
import type { ArrayMetadata, ArrayMetadataV2 } from "./metadata/documents.js";
import { type ParsedArrayMetadata, parseArrayMetadata } from "./metadata/node-metadata.js";
import { parseArrayMetadataV2 } from "./metadata/v2.js";
import { childPath } from "./node-path.js";
import type { ArrayPipelineContext } from "./codec-chain.js";
import { arrayPipelineContext, CodecPipeline } from "./pipeline.js";
import { sharedMemory } from "./read-buffers.js";
import { resultMemory } from "./result-memory.js";
import { copiedOut } from "./workers/copy-out.js";
import {
  cartesian,
  type DimChunkPart,
  dimensionPartsOf,
  normalizeSelection,
  product,
  range,
  type Selection,
  type Slice,
  slice,
} from "./selection.js";
import { storedValue } from "./store/stored-value.js";
import type { CodecWorkerSetting } from "./workers/settings.js";

/** How an array is opened or created: runtime options, never stored. */
export interface ArrayOptions {
  /** Runtime options per codec name, e.g. `{ sharding_indexed: { writeStrategy: "append" } }`. */
  codecOptions?: CodecOptions;
  /** Store chunks that are all fill value instead of deleting them (default false). */
  writeEmptyChunks?: boolean;
  /**
   * Chunks (or shards) read or written at once. Default: as many as keep about
   * 32 MiB of decoded chunks in flight, between 2 and 16 (16 chunks of 2 MiB,
   * 2 shards of 32 MiB), so a whole read needs little beyond its result.
   */
  concurrency?: number;
  /**
   * Codec work on worker threads for this array: `false`, `true`, or
   * `{ threshold, size }`; default: the process setting (`configureCodecWorkers`).
   */
  workers?: CodecWorkerSetting;
  /**
   * The most bytes a chunk's (inner chunk's) array->bytes form may decode to
   * when its size is not fixed by the data type: variable-length types
   * (`string`) and array->bytes codecs without a fixed encoded size. A
   * compressor asked to inflate more stops there with `CorruptDataError`.
   * Default 256 MiB. Fixed-size types need no bound: their chunks' exact
   * size is the cap.
   */
  maxDecodedChunkBytes?: number;
}

/** Options of `ZarrArray.get`. */
export interface GetOptions extends RequestOptions {
  /**
   * Return the result over a SharedArrayBuffer (true) or an ordinary
   * ArrayBuffer (false). Codec workers decode chunks straight into a result
   * over shared memory, so the calling thread only plans the reads and waits.
   * Default: true in Node, false in browsers. With false, where workers are
   * on and the runtime has shared memory (Node; cross-origin isolated pages),
   * the workers still write into shared memory and the result is copied once
   * into an ordinary array at the end. A result over shared memory behaves
   * differently: its buffer cannot be transferred (postMessage with a
   * transfer list throws), posting it shares it rather than copying it, and
   * some browser APIs (TextDecoder, Blob, ImageData) refuse views of it.
   * Where there is no shared memory (pages that are not cross-origin
   * isolated) and for strings, the result is always an ordinary array.
   */
  shared?: boolean;
}

/** One cell of an array's chunk grid (a shard, for sharded arrays): see `ZarrArray.chunkRegions`. */
export interface ChunkRegion {
  /** Grid coordinates of the chunk (shard). */
  coords: number[];
  /** Its store key. */
  key: string;
  /** The part of the array it covers, clipped to the array's shape: pass it to `get` or `set`. */
  selection: Slice[];
  /** The clipped shape: what `get(selection)` returns and `set(selection, data)` takes. */
  shape: number[];
}

interface DimRegion {
  index: number;
  start: number;
  stop: number;
}

/** What `get` returns and `set` accepts: C-order data and the selection's shape. */
export type NdArray = Chunk;

/** Decoded bytes of chunks a read or write keeps in flight by default (see `ArrayOptions.concurrency`). */
const BYTES_IN_FLIGHT = 32 * 2 ** 20;

/** Largest selection `get` will allocate, in typed-array slots (portable across engines); beyond it, read in parts. */
const MAX_SELECTION_SLOTS = 2 ** 31 - 1;
/** ... and in bytes: the largest ArrayBuffer Node 20 (V8) allocates. */
const MAX_SELECTION_BYTES = 2 ** 32;
/**
 * ... and in elements of a `string` or `variable_length_bytes` selection, a JS array of references the heap must hold
 * (8 bytes each).
 */
const MAX_STRING_SELECTION = 2 ** 27;

/** A Zarr array; `D` is what `get()` returns, narrowed by `is(name)` or `openArray(..., { dataType })`. */
export class ZarrArray<D extends ArrayData = ArrayData> {
  private readonly pipelines = new Map<string, Promise<CodecPipeline>>();
  /** What every pipeline of the array (nested ones too) is built with. */
  private context: ArrayPipelineContext | undefined;
  /** What the array->bytes codec divides each chunk into (a shard's inner chunks), from the first chunk's pipeline. */
  private subChunkShape: readonly number[] | undefined;

  private constructor(
    /** The store the array lives in. */
    readonly store: Store,
    /** Path of the array in the store ("" for the root). */
    readonly path: string,
    /** Replaced, never mutated, by `resize`; reads and writes take it once so they see one shape throughout. */
    private parsed: ParsedArrayMetadata,
    private readonly options: ArrayOptions,
  ) {}

  /**
   * An array from its parsed zarr.json; validates the whole codec chain, for every chunk shape of the grid, before
   * returning.
   */
  static async create(
    store: Store,
    path: string,
    parsed: ParsedArrayMetadata,
    options: ArrayOptions = {},
  ): Promise<ZarrArray> {
    const array = new ZarrArray(store, path, parsed, options);
    await array.checkChunkShapes(parsed.grid);
    return array;
  }

  /** The parsed zarr.json (v3) or .zarray (v2), as stored. */
  get metadata(): ArrayMetadata | ArrayMetadataV2 {
    return this.parsed.metadata;
  }
  /** The Zarr format the array is stored in. */
  get format(): 2 | 3 {
    return this.parsed.format;
  }
  /** The array's shape (a copy). */
  get shape(): number[] {
    return [...this.parsed.shape];
  }
  /** The data type name, e.g. "uint16". */
  get dataType(): string {
    return this.parsed.dataType.name;
  }
  /**
   * Whether the array's data type is `name`, narrowing what `get()` returns:
   * `if (arr.is("uint16")) (await arr.get()).data` is a Uint16Array.
   */
  is<N extends DataTypeName>(name: N): this is ZarrArray<DataTypeArrays[N]> {
    return this.parsed.dataType.name === name;
  }
  /** The fill value, decoded: what unwritten chunks read as. */
  get fillValue(): Scalar {
    return this.parsed.fillValue;
  }
  /** The user attributes. */
  get attributes(): Record<string, unknown> {
    return this.parsed.attributes;
  }
  /** The dimension names, when stored. */
  get dimensionNames(): (string | null)[] | undefined {
    return this.parsed.dimensionNames;
  }
  /**
   * Shape of the unit of reading: the sub-chunk when the codecs divide chunks
   * (the inner chunk of a sharded array), otherwise the chunk (the first
   * chunk, on a rectilinear grid).
   */
  get chunkShape(): number[] {
    return this.subChunkShape ? [...this.subChunkShape] : this.parsed.grid.chunkShape(this.shape.map(() => 0));
  }
  /**
   * Shape of a shard (the grid's chunk; the first one, on a rectilinear grid) when the codecs divide chunks into
   * sub-chunks, else undefined.
   */
  get shardShape(): number[] | undefined {
    return this.subChunkShape ? this.parsed.grid.chunkShape(this.shape.map(() => 0)) : undefined;
  }
  /** Number of chunks (shards, for sharded arrays) along each dimension. */
  get gridShape(): number[] {
    return this.parsed.grid.gridShape();
  }

  /** The store key of the chunk (or shard) at grid coordinates `coords`. */
  chunkKey(coords: readonly number[]): string {
    return childPath(this.path, this.parsed.keyEncoding.encode(coords));
  }

  /** The spec chunks at `coords` are encoded with. */
  chunkSpec(coords: readonly number[]): ChunkSpec {
    return {
      shape: this.parsed.grid.chunkShape(coords),
      dataType: this.parsed.dataType,
      fillValue: this.parsed.fillValue,
    };
  }

  /**
   * The codec pipeline for chunks of `shape` (one per distinct shape, so rectilinear grids work).
   * @internal zarrkit's own packages only: not part of the kept API.
   */
  pipelineFor(shape: readonly number[]): Promise<CodecPipeline> {
    const id = shape.join(",");
    let pipeline = this.pipelines.get(id);
    if (!pipeline) {
      const spec: ChunkSpec = { shape: [...shape], dataType: this.parsed.dataType, fillValue: this.parsed.fillValue };
      this.context ??= arrayPipelineContext(this.options);
      const filtersFirst = this.parsed.format === 2;
      const entryFields = this.parsed.codecFields;
      pipeline = CodecPipeline.create(this.parsed.codecs, spec, this.context, "codecs", {
        filtersFirst,
        entryFields,
      }).catch((error: unknown) => {
        throw inDocument(error, this.parsed);
      });
      this.pipelines.set(id, pipeline);
      pipeline.catch(() => this.pipelines.delete(id));
    }
    return pipeline;
  }

  /**
   * The pipeline for the chunk at `coords`, with codec errors naming the chunk:
   * on a rectilinear grid shapes vary, so "shape not divisible" alone would
   * not say which shard is at fault. Chunk 0 is always built first (see
   * `checkChunkShapes`), so its errors concern the codecs as a whole and stay
   * as they are. `dimension` is the one the shape is known to be wrong in,
   * when the caller knows it.
   */
  private async pipelineAt(grid: ChunkGrid, coords: readonly number[], dimension?: number): Promise<CodecPipeline> {
    const shape = grid.chunkShape(coords);
    try {
      return await this.pipelineFor(shape);
    } catch (error) {
      if (!(error instanceof ZarrkitError) || coords.every((c) => c === 0)) throw error;
      const what = this.subChunkShape ? "shard" : "chunk";
      const where = dimension === undefined ? "" : ` along dimension ${dimension}`;
      const Ctor = error.constructor as new (message: string, context: object) => ZarrkitError;
      const message =
        `The ${what} at grid coordinates [${coords.join(", ")}] has shape [${shape.join(", ")}], ` +
        `which the codecs reject${where}`;
      throw new Ctor(`${message}: ${error.message}`, { key: error.key, field: error.field, cause: error });
    }
  }

  /** Build the pipeline of every distinct edge length along every dimension (see `representativeChunks`). */
  private async checkChunkShapes(grid: ChunkGrid): Promise<void> {
    const [first, ...others] = grid.representativeChunks();
    this.subChunkShape = (await this.pipelineAt(grid, first!)).arrayToBytes.subChunkShape;
    // Each other chunk differs from chunk 0 in one dimension only, so that dimension is the one at fault.
    await Promise.all(
      others.map((coords) =>
        this.pipelineAt(
          grid,
          coords,
          coords.findIndex((c) => c !== 0),
        ),
      ),
    );
  }

  /** Chunks a read or write works on at once (see `ArrayOptions.concurrency`). */
  private chunksInFlight(): number {
    if (this.options.concurrency !== undefined) return this.options.concurrency;
    const { grid, dataType } = this.parsed;
    const chunkBytes = product(grid.chunkShape(grid.dims.map(() => 0))) * (dataType.byteSize ?? 16);
    return Math.min(16, Math.max(2, Math.floor(BYTES_IN_FLIGHT / chunkBytes)));
  }

  /**
   * For each chunk a selection touches: its coordinates and the per-dimension
   * parts, computed as they are consumed (nothing per chunk is held up front).
   * @internal zarrkit's own packages only: not part of the kept API.
   */
  chunksOf(selection?: Selection | null): {
    /** Per chunk, the part of the selection in it along each dimension. */
    parts: Generator<DimChunkPart[]>;
    /** The selection's extent along each dimension. */
    counts: number[];
    /** The dimensions an integer index drops from the result. */
    dropped: boolean[];
  } {
    const { shape, grid } = this.parsed;
    const sel = normalizeSelection(selection, shape);
    const perDim = sel.slices.map((s, d) => dimensionPartsOf(s, grid.dims[d]!));
    return { parts: cartesian(perDim), counts: sel.counts, dropped: sel.dropped };
  }

  /**
   * Every cell of the chunk grid (every shard, for a sharded array), in C
   * order and lazily: its grid coordinates, store key, and the selection of
   * the array it covers, clipped to the array's shape (`shape` is that
   * selection's shape). Reading or writing one region at a time bounds memory
   * by one chunk (shard): `set(selection, data)` on a whole region encodes it
   * in memory and stores it with one store write. Rectilinear grids give
   * each cell's own extent. Cells lying wholly outside the array are skipped.
   */
  *chunkRegions(): Generator<ChunkRegion> {
    const { shape, grid } = this.parsed;
    const dims = grid.dims;
    // Re-iterables (cartesian walks the later dimensions once per cell of the earlier ones), never arrays.
    const perDim = grid.gridShape().map(
      (n, d): Iterable<DimRegion> => ({
        [Symbol.iterator]: () =>
          mapIterable(range(0, n), (index) => {
            const start = dims[d]!.chunkStart(index);
            return { index, start, stop: Math.min(shape[d]!, start + dims[d]!.chunkLength(index)) };
          }),
      }),
    );
    for (const cell of cartesian(perDim)) {
      if (cell.some((r) => r.stop <= r.start)) continue;
      const coords = cell.map((r) => r.index);
      yield {
        coords,
        key: this.chunkKey(coords),
        selection: cell.map((r) => slice(r.start, r.stop)),
        shape: cell.map((r) => r.stop - r.start),
      };
    }
  }

  /**
   * Storage for a selection of `counts`, refused before anything is read when
   * it cannot be held in one array; over a SharedArrayBuffer when `shared`
   * asks for it and the runtime has shared memory (see `GetOptions.shared`).
   */
  private allocateSelection(counts: number[], dropped: boolean[], shared: boolean): ArrayData {
    const type = this.parsed.dataType;
    const elements = product(counts);
    const slots = elements * type.lanes;
    const bytes = elements * (type.byteSize ?? 8);
    const shape = counts.filter((_, d) => !dropped[d]);
    const refuse = (why: string, cause?: unknown): never => {
      throw new InvalidSelectionError(
        `Selection of shape [${shape.join(", ")}] (${elements} elements of ${type.name}) is too large to hold in ` +
          `one array: ${why}; read it in parts`,
        { field: "selection", ...(cause !== undefined && { cause }) },
      );
    };
    if (slots > MAX_SELECTION_SLOTS) refuse(`${slots} slots, more than ${MAX_SELECTION_SLOTS}`);
    if (bytes > MAX_SELECTION_BYTES) refuse(`${bytes} bytes, more than ${MAX_SELECTION_BYTES}`);
    if (type.arrayType === undefined && elements > MAX_STRING_SELECTION)
      refuse(`more than ${MAX_STRING_SELECTION} ${type.kind === "bytes" ? "byte strings" : "strings"}`);
    try {
      const ArrayType = type.arrayType;
      // Typed against ArrayBuffer alone by this TypeScript's lib, every typed array constructor takes a
      // SharedArrayBuffer too.
      if (shared && ArrayType && sharedMemory())
        return new ArrayType(new SharedArrayBuffer(slots * ArrayType.BYTES_PER_ELEMENT) as unknown as ArrayBuffer);
      return type.allocate(elements);
    } catch (cause) {
      // The engine could not find the memory (RangeError: Array buffer allocation failed).
      return refuse(`allocating ${bytes} bytes failed`, cause);
    }
  }

  /** Read a selection (default: everything) into a new C-order array. Integer indices drop their dimension. */
  async get(selection?: Selection | null, options: GetOptions = {}): Promise<Chunk<D>> {
    const grid = this.parsed.grid;
    // The result's size is checked before a single chunk is visited: chunks are walked lazily below.
    const { parts, counts, dropped } = this.chunksOf(selection);
    if (options.shared !== undefined && typeof options.shared !== "boolean") {
      throw new InvalidOptionError(`get: options.shared must be a boolean, got ${showValue(options.shared)}`, {
        field: "options.shared",
      });
    }
    const memory = resultMemory(this.parsed.dataType, this.options.workers, options.shared);
    const out: Chunk = { data: this.allocateSelection(counts, dropped, memory.shared), shape: counts };
    await forEachConcurrent(parts, this.chunksInFlight(), async (chunkParts) => {
      const coords = chunkParts.map((p) => p.chunkIndex);
      const key = this.chunkKey(coords);
      const pipeline = await this.pipelineAt(grid, coords);
      await pipeline.decodeInto(
        storedValue(this.store, key),
        chunkParts.map((p) => p.local),
        { chunk: out, offset: chunkParts.map((p) => p.outOffset) },
        { key, signal: options.signal },
      );
    });
    const data = memory.copyOut ? await copiedOut(out.data as NumericArray, this.options.workers) : out.data;
    // D is the data type's array class once is() or openArray's dataType checked it.
    return { data: data as D, shape: counts.filter((_, d) => !dropped[d]) };
  }

  /**
   * Write `value` into a selection: a scalar broadcast over it, or an array in
   * the representation `get` returns (data alone, or `{data, shape}`) with the
   * selection's shape. Chunks partly covered are read, modified and written;
   * writes to one chunk are serialised within this process.
   */
  async set(
    selection: Selection | null | undefined,
    value: NdArray | ArrayData | Scalar,
    options: RequestOptions = {},
  ): Promise<void> {
    const store = this.store;
    if (typeof store.set !== "function") {
      throw new StoreError(`Cannot write array ${JSON.stringify(this.path)}: the store is read-only`);
    }
    const grid = this.parsed.grid;
    const { parts, counts, dropped } = this.chunksOf(selection);
    const source = this.writeSource(value, counts, dropped);
    await forEachConcurrent(parts, this.chunksInFlight(), async (chunkParts) => {
      const coords = chunkParts.map((p) => p.chunkIndex);
      const key = this.chunkKey(coords);
      const pipeline = await this.pipelineAt(grid, coords);
      const local: DimSlice[] = chunkParts.map((p) => p.local);
      const chunkSource: WriteSource =
        "fill" in source ? source : { chunk: source.chunk, offset: chunkParts.map((p) => p.outOffset) };
      await withKeyLock(store, key, () =>
        pipeline.encodeInto(
          storedValue(store, key),
          local,
          chunkSource,
          { key, signal: options.signal },
          {
            writeEmptyChunks: this.options.writeEmptyChunks,
          },
        ),
      );
    });
  }

  /**
   * Change the array's shape (same rank): delete the chunks (shards) that fall
   * wholly outside the new shape, then write the new zarr.json. This object
   * uses the new shape from then on; reads and writes already under way
   * finish with the old one, and other objects opened on the array keep the
   * old shape until reopened.
   *
   * A regular grid keeps its chunk shape. A rectilinear grid keeps the edges
   * that intersect the new shape and, where a dimension grows past its last
   * edge, appends one edge covering exactly the growth (resize once per chunk
   * to append several, e.g. one per month). No stored chunk changes shape.
   *
   * Chunks partly inside the new shape keep all their data, as in zarr-python:
   * values past the new edge cannot be read, but growing the array again shows
   * them rather than the fill value. Write the fill value there before
   * shrinking if that matters.
   *
   * The chunks to delete are found with one `store.list` of the array's keys.
   * Without `list`, every chunk position of the old grid outside the new one
   * is deleted blindly, one request each, stored or not. Nothing is deleted
   * when no dimension loses chunks. Not safe to run concurrently with writes.
   */
  async resize(shape: readonly number[], options: RequestOptions = {}): Promise<void> {
    const store = this.store;
    if (!isWritable(store))
      throw new StoreError(`Cannot resize array ${JSON.stringify(this.path)}: the store is read-only`);
    const old = this.parsed;
    const rank = old.shape.length;
    if (!Array.isArray(shape) || shape.length !== rank || !shape.every((n) => Number.isSafeInteger(n) && n >= 0)) {
      throw new InvalidSelectionError(
        `Cannot resize a ${rank}-dimensional array to ${showValue(shape)}: expected ${rank} non-negative integers`,
      );
    }
    const key = old.key;
    const parsed =
      old.format === 2
        ? parseArrayMetadataV2({ ...old.metadata, shape: [...shape] }, key, old.attributes)
        : parseArrayMetadata({ ...old.metadata, shape: [...shape], chunk_grid: old.grid.resize(shape).toJSON() }, key);
    await this.checkChunkShapes(parsed.grid);
    await this.deleteOutside(store, old.grid.gridShape(), parsed.grid.gridShape(), options);
    await store.set(key, encodeJson(parsed.metadata), options);
    this.parsed = parsed;
  }

  /** Delete the stored chunks at grid coordinates beyond `after` in some dimension. */
  private async deleteOutside(
    store: WritableStore,
    before: number[],
    after: number[],
    options: RequestOptions,
  ): Promise<void> {
    if (before.every((n, d) => n <= after[d]!)) return;
    let keys: Iterable<string>;
    if (typeof store.list === "function") {
      const prefix = this.path === "" ? "" : `${this.path}/`;
      const found: string[] = [];
      for await (const key of store.list(prefix, options)) {
        const coords = this.parsed.keyEncoding.decode(key.slice(prefix.length), before.length);
        if (coords?.some((c, d) => c >= after[d]!)) found.push(key);
      }
      keys = found;
    } else {
      keys = mapIterable(coordsOutside(before, after), (coords) => this.chunkKey(coords));
    }
    await forEachConcurrent(keys, this.options.concurrency ?? 16, (key) =>
      withKeyLock(store, key, () => store.delete(key, options)),
    );
  }

  private writeSource(
    value: NdArray | ArrayData | Scalar,
    counts: number[],
    dropped: boolean[],
  ): WriteSource | { fill: Scalar } {
    const type = this.parsed.dataType;
    const isChunk = typeof value === "object" && value !== null && "data" in value && "shape" in value;
    const data = isChunk ? (value as NdArray).data : value;
    const bytes = type.kind === "bytes";
    // For variable_length_bytes one Uint8Array is one element (a scalar), and values are Uint8Array[].
    const arrayLike = bytes
      ? Array.isArray(data)
      : ArrayBuffer.isView(data) || (Array.isArray(data) && type.kind === "string");
    const looksScalar =
      !arrayLike ||
      (type.kind === "raw" && data instanceof Uint8Array && data.length === type.byteSize && product(counts) !== 1);
    if (!isChunk && looksScalar) {
      if (bytes && !(value instanceof Uint8Array)) {
        throw new InvalidSelectionError(
          `Values for a ${type.name} array must be a Uint8Array (one value for the whole selection) or a ` +
            `Uint8Array[], got ${showValue(value, 80)}`,
          { field: "value" },
        );
      }
      try {
        return { fill: parseScalar(value, type, "value") };
      } catch (error) {
        throw new InvalidSelectionError((error as Error).message, { field: "value", cause: error });
      }
    }
    if (!isDataOfType(data, type)) {
      throw new InvalidSelectionError(
        `Values for a ${type.name} array must be a ${dataClassName(type)}, ` +
          `got ${(data as object)?.constructor?.name ?? typeof data}`,
      );
    }
    if (bytes) {
      // Checked before any chunk is written, so a bad element leaves the array as it was.
      const items = data as unknown[];
      for (let i = 0; i < items.length; i++) {
        if (!(items[i] instanceof Uint8Array)) {
          throw new InvalidSelectionError(
            `Element ${i} of the values for a ${type.name} array is not a Uint8Array: ${showValue(items[i], 80)}`,
            {
              field: "value",
            },
          );
        }
      }
    }
    const expected = counts.filter((_, d) => !dropped[d]);
    if (isChunk) {
      const shape = (value as NdArray).shape;
      if (shape.length !== expected.length || shape.some((n, d) => n !== expected[d])) {
        throw new InvalidSelectionError(
          `Value of shape [${shape.join(", ")}] does not fit a selection of shape [${expected.join(", ")}]`,
        );
      }
    }
    if (data.length !== product(counts) * type.lanes) {
      throw new InvalidSelectionError(
        `Value has ${data.length / type.lanes} elements but the selection of shape [${expected.join(", ")}] ` +
          `has ${product(counts)}`,
      );
    }
    return { chunk: { data, shape: counts }, offset: counts.map(() => 0) };
  }
}

/**
 * Grid coordinates inside `before` but outside `after`, each once: dimension d's slab takes the dimensions before it
 * inside both.
 */
function* coordsOutside(before: readonly number[], after: readonly number[]): Generator<number[]> {
  // Ranges are re-iterables, never arrays: a dimension of 2^27 chunks costs nothing until walked.
  for (let d = 0; d < before.length; d++) {
    if (after[d]! >= before[d]!) continue;
    yield* cartesian(
      before.map((n, e) => (e < d ? range(0, Math.min(n, after[e]!)) : e === d ? range(after[d]!, n) : range(0, n))),
    );
  }
}

function* mapIterable<T, U>(items: Iterable<T>, f: (item: T) => U): Generator<U> {
  for (const item of items) yield f(item);
}

/** A codec error of a v2 array (named by its .zarray field: `compressor`, `filters[1]`) with the document's key. */
function inDocument(error: unknown, parsed: ParsedArrayMetadata): unknown {
  if (!parsed.codecFields || !(error instanceof ZarrkitError) || error.field === undefined) return error;
  const Ctor = error.constructor as new (message: string, context: object) => ZarrkitError;
  return new Ctor(`${parsed.key}: ${error.message}`, {
    key: error.key ?? parsed.key,
    field: error.field,
    cause: error,
  });
}
