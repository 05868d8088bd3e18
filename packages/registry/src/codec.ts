/**
 * The codec interface, in the three kinds Zarr v3 defines. A chunk flows
 * array->array codecs (any number), then exactly one array->bytes codec,
 * then bytes->bytes codecs (any number); decoding runs the chain backwards.
 * Array->bytes codecs may also read or write part of a stored value
 * (`decodeInto` / `encodeInto`): that is how sharding reads one inner chunk
 * with a ranged request without the pipeline knowing about shards.
 */
import type {
  LentRange,
  RangeQuery,
  ReadOptions,
  RequestOptions,
  SetOptions,
  SizedValue,
  VersionedValue,
  WindowQuery,
} from "./store.js";

/** The typed arrays element data lives in. */
export type NumericArray =
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

/**
 * The JS arrays of the types typed arrays cannot hold: `string[]` for the
 * string types, `Uint8Array[]` for `variable_length_bytes`. Typed as one array
 * type, not `string[] | Uint8Array[]`: TypeScript cannot call the overloaded
 * methods (`every`, `filter`, ...) of a union holding two array types, and
 * callers do call them on `ArrayData` without narrowing it first.
 */
export type ObjectArray = (string | Uint8Array)[];

/**
 * In-memory element storage. Complex numbers interleave re, im; `r<N>` uses
 * N/8 bytes per element; `bool` is 0/1 bytes; float16 is a Float16Array where
 * the runtime has one, else Float32Array; `string` is a JS array of strings,
 * `variable_length_bytes` a JS array of Uint8Arrays (see ObjectArray).
 */
export type ArrayData = NumericArray | ObjectArray;

/** A dense array in C order. `data` may hold `lanes` slots per element (see DataTypeInfo). */
export interface Chunk<D extends ArrayData = ArrayData> {
  /** The elements, in C order. */
  data: D;
  /** The array's shape. */
  shape: number[];
}

/**
 * A decoded fill value or scalar: numbers, bigints for 64-bit integers, [re, im] for complex, bytes for r<N> and
 * variable_length_bytes.
 */
export type Scalar = number | bigint | boolean | string | Uint8Array | readonly [number, number];

/** "bytes": variable-length byte strings (`Uint8Array[]`). */
export type DataTypeKind = "bool" | "int" | "uint" | "float" | "complex" | "raw" | "string" | "bytes";

/** What a codec needs to know about the element type, without depending on core. */
export interface DataTypeInfo {
  /** The name as in zarr.json: "int16", "float16", "r24", "string", "variable_length_bytes", ... */
  readonly name: string;
  /** The family of the type. */
  readonly kind: DataTypeKind;
  /** Bytes per element when stored with the `bytes` codec; undefined for variable-length types. */
  readonly byteSize: number | undefined;
  /** Slots of `data` per element: 2 for complex, N/8 for r<N>, otherwise 1. */
  readonly lanes: number;
  /** Zero-initialised storage for `elements` elements. */
  allocate(elements: number): ArrayData;
}

/** The logical array a codec sees at its position in the chain. */
export interface ChunkSpec {
  /** The chunk's shape. */
  shape: readonly number[];
  /** The element type. */
  dataType: DataTypeInfo;
  /** The array's fill value, decoded. */
  fillValue: Scalar;
}

/** What a codec gets with each encode or decode call. */
export interface CodecContext extends RequestOptions {
  /** The store key being encoded or decoded, for error messages and caches. */
  key: string;
  /**
   * When decoding bytes: the most bytes the decoded output may hold (the
   * chunk's expected size, or a bound on it). A decoder stops there and throws
   * `CorruptDataError` rather than inflating a decompression bomb.
   */
  maxDecodedBytes?: number;
}

/** The JSON form of a codec in zarr.json. */
export interface CodecMetadata {
  /** The registered codec name, e.g. "zstd". */
  name: string;
  /** The codec's parameters (snake_case, as stored). */
  configuration?: Record<string, unknown>;
  /** false: readers that do not know the codec may skip it (Zarr v3 extension rule). */
  must_understand?: boolean;
}

interface CodecBase {
  /** The codec's metadata name. */
  readonly name: string;
  /** The metadata to store for this codec (snake_case, as in zarr.json). */
  toJSON(): CodecMetadata;
}

/** A codec that turns an array into another array (e.g. transpose). */
export interface ArrayToArrayCodec extends CodecBase {
  /** The codec kind. */
  readonly kind: "array_to_array";
  /** The spec of the array this codec produces from `spec`. */
  encodedSpec(spec: ChunkSpec): ChunkSpec;
  /** The encoded array of `chunk`, whose spec is `spec`. */
  encode(chunk: Chunk, spec: ChunkSpec, ctx: CodecContext): Promise<Chunk> | Chunk;
  /** `spec` is the decoded (input) spec. */
  decode(chunk: Chunk, spec: ChunkSpec, ctx: CodecContext): Promise<Chunk> | Chunk;
}

/** One dimension of a selection inside a chunk: indices start, start+step, ... below stop. */
export interface DimSlice {
  /** First index. */
  start: number;
  /** Indices stay below this. */
  stop: number;
  /** Distance between indices (>= 1). */
  step: number;
}

/** Where a chunk selection lands in (or comes from) a larger array: element 0 of the selection is at `offset`. */
export interface ArrayRegion {
  /** The larger array. */
  chunk: Chunk;
  /** Where the selection's first element is in it, per dimension. */
  offset: number[];
}

/** New values for a selection: a region of a caller's array, or one scalar broadcast over it. */
export type WriteSource =
  | ArrayRegion
  | {
      /** The value every selected element gets. */
      fill: Scalar;
    };

/** One stored value seen through the capabilities of its store. */
export interface StoredValue {
  /** The value's store key. */
  readonly key: string;
  /**
   * The `coalesceGapBytes` hint of the store holding the value (see `Store`): ranges at most this many bytes apart
   * are cheaper read as one request.
   */
  readonly coalesceGapBytes?: number;
  /** `Store.get` of this key. */
  get(options?: RequestOptions): Promise<Uint8Array | undefined>;
  /** `Store.getRange` of this key. */
  getRange?(range: RangeQuery, options?: ReadOptions): Promise<Uint8Array | undefined>;
  /** `Store.getRangeWithSize` of this key. */
  getRangeWithSize?(range: RangeQuery, options?: ReadOptions): Promise<SizedValue | undefined>;
  /** `Store.getRangeInto` of this key. */
  getRangeInto?(range: WindowQuery, target: Uint8Array, options?: ReadOptions): Promise<number | undefined>;
  /** `Store.lendRange` of this key. */
  lendRange?<T>(
    range: WindowQuery,
    options: ReadOptions | undefined,
    use: (lent: LentRange | undefined) => Promise<T>,
  ): Promise<T>;
  /** `Store.getVersioned` of this key. */
  getVersioned?(options?: RequestOptions): Promise<VersionedValue | undefined>;
  /** `Store.size` of this key. */
  size?(options?: RequestOptions): Promise<number | undefined>;
  /** `Store.set` of this key. */
  set?(value: Uint8Array, options?: SetOptions): Promise<void>;
  /** `Store.setParts` of this key. */
  setParts?(parts: readonly Uint8Array[], options?: SetOptions): Promise<void>;
  /** `Store.delete` of this key. */
  delete?(options?: RequestOptions): Promise<void>;
  /** `Store.append` to this key. */
  append?(value: Uint8Array, options?: SetOptions): Promise<number>;
  /** `Store.setRange` of this key. */
  // biome-ignore lint/suspicious/noConfusingVoidType: stores that keep no versions return nothing
  setRange?(offset: number, value: Uint8Array, options?: SetOptions): Promise<string | void>;
  /** `Store.truncate` of this key. */
  truncate?(length: number, options?: RequestOptions): Promise<void>;
  /** `Store.recover` of this key. */
  recover?(options?: RequestOptions): Promise<boolean>;
}

/** The one codec of a chain that turns an array into bytes (bytes, sharding_indexed, vlen-utf8...). */
export interface ArrayToBytesCodec extends CodecBase {
  /** The codec kind. */
  readonly kind: "array_to_bytes";
  /**
   * The shape of the sub-chunks this codec divides each chunk into, each
   * readable on its own (sharding: its inner chunks); undefined when a chunk
   * is read whole. Readers take it as the array's unit of reading.
   */
  readonly subChunkShape?: readonly number[];
  /** The bytes of `chunk`. */
  encode(chunk: Chunk, spec: ChunkSpec, ctx: CodecContext): Promise<Uint8Array> | Uint8Array;
  /**
   * The chunk stored as `bytes`. Readers may lend `bytes` from a buffer they
   * reuse (core's pooled read buffers) until the call settles and copy the
   * chunk out before then: the chunk may view `bytes`, but nothing may keep
   * a reference to them after (a cache keeps a copy).
   */
  decode(bytes: Uint8Array, spec: ChunkSpec, ctx: CodecContext): Promise<Chunk> | Chunk;
  /** Encoded size for chunks of `spec`, when it is fixed. */
  encodedSize?(spec: ChunkSpec): number | undefined;
  /**
   * Decode only `selection` of the stored value into `out`, reading as little
   * as the codec can. A missing value (get returns undefined) means fill value.
   * Bytes `value` returns may be lent as `decode`'s are: valid until the call settles.
   */
  decodeInto?(
    value: StoredValue,
    selection: DimSlice[],
    spec: ChunkSpec,
    out: ArrayRegion,
    ctx: CodecContext,
  ): Promise<void>;
  /**
   * Write `source` into `selection` of the stored value, re-encoding as
   * little as the codec can, and store the result through `value`.
   */
  encodeInto?(
    value: StoredValue,
    selection: DimSlice[],
    source: WriteSource,
    spec: ChunkSpec,
    ctx: CodecContext,
  ): Promise<void>;
}

/** A codec that turns bytes into bytes (compressors, checksums). */
export interface BytesToBytesCodec extends CodecBase {
  /** The codec kind. */
  readonly kind: "bytes_to_bytes";
  /** The encoded bytes. */
  encode(bytes: Uint8Array, ctx: CodecContext): Promise<Uint8Array> | Uint8Array;
  /**
   * The decoded bytes; stops at `ctx.maxDecodedBytes` with a CorruptDataError.
   * `bytes` may be lent from a reused read buffer, as for `ArrayToBytesCodec.decode`:
   * the result may view them, but nothing may keep them past the read.
   */
  decode(bytes: Uint8Array, ctx: CodecContext): Promise<Uint8Array> | Uint8Array;
  /**
   * Decode as `decode` does (same checks, same cap), then call `use` with the
   * decoded bytes and return what it returns. The bytes are lent: they may be
   * a view of the decoder's own memory (a WebAssembly decoder's), valid only
   * until `use` returns, so `use` must be synchronous and keep no reference.
   * Readers copying the bytes on anyway (into a read's result) use it to skip
   * the fresh buffer `decode` returns. Errors thrown by `use` pass unchanged.
   */
  decodeLent?<R>(bytes: Uint8Array, ctx: CodecContext, use: (decoded: Uint8Array) => R): Promise<R> | R;
  /** Encoded size for a decoded size, when it is fixed (a checksum adds 4; compressors return undefined). */
  encodedSize?(decodedSize: number): number | undefined;
  /**
   * True when decoding detects any change to the encoded bytes (a checksum):
   * writers that overwrite bytes in place rely on it to tell a torn write.
   */
  readonly checksummed?: boolean;
}

/** A codec of any kind. */
export type Codec = ArrayToArrayCodec | ArrayToBytesCodec | BytesToBytesCodec;

/**
 * Runtime options per codec name, e.g. `{ sharding_indexed: { writeStrategy: "append" } }`. Never stored in metadata.
 */
export type CodecOptions = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/**
 * What a pipeline is built with. Codecs that build pipelines of their own
 * (sharding's inner chunks) pass it on unchanged, so nested pipelines run
 * with their array's options; the engine running pipelines may keep its own
 * per-array settings (codec workers, decode caps) in it beside them.
 */
export interface PipelineContext {
  /** Runtime options per codec name. */
  readonly codecOptions: CodecOptions;
}

/** What a `CodecFactory` gets beside the configuration. */
export interface CodecCreateContext {
  /** The spec of the array this codec receives when encoding, for validation. */
  spec: ChunkSpec;
  /** Where the codec sits in the metadata, e.g. "codecs[1]", for error messages. */
  field: string;
  /** Runtime options for codecs of this name (never stored in metadata). */
  options: Readonly<Record<string, unknown>>;
  /** To hand on unchanged to the pipelines this codec builds itself. */
  pipeline: PipelineContext;
}

/** Builds a codec from the `configuration` object of its metadata, validating it. */
export type CodecFactory = (configuration: Record<string, unknown>, ctx: CodecCreateContext) => Codec | Promise<Codec>;
