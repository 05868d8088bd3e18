import {
  type ArrayRegion,
  type ArrayToArrayCodec,
  type ArrayToBytesCodec,
  type BytesToBytesCodec,
  type Chunk,
  type ChunkSpec,
  type Codec,
  type CodecContext,
  type CodecMetadata,
  type CodecOptions,
  type DimSlice,
  InvalidMetadataError,
  type PipelineContext,
  resolveCodec,
  showValue,
} from "@zarrkit/registry";
import { blockSlices, copySelection, fillSelection } from "./copy.js";
import { type DataType, dataType } from "./data-types.js";
import { product } from "./selection.js";
import type { CodecWorkerSetting } from "./workers/settings.js";

/**
 * Default cap on the bytes a chunk's array->bytes form may decode to when the
 * array->bytes codec has no fixed encoded size (variable-length types such as
 * `string` with vlen-utf8, sharding): see `ArrayOptions.maxDecodedChunkBytes`.
 */
export const DEFAULT_MAX_DECODED_CHUNK_BYTES = 256 * 2 ** 20;

/**
 * The context an array builds its pipelines in: the codec options, and the
 * array's own settings for the engine. Nested pipelines (sharding's inner
 * chunks) receive it whole through `CodecCreateContext.pipeline`.
 */
export interface ArrayPipelineContext extends PipelineContext {
  /** Codec workers for this array's pipelines (see `ArrayOptions.workers`). */
  readonly workers?: CodecWorkerSetting;
  /** Bound on decoded bytes where sizes are not fixed (see `ArrayOptions.maxDecodedChunkBytes`). */
  readonly maxDecodedChunkBytes?: number;
}

/**
 * What a bytes->bytes codec may add to its input when encoding, when it does
 * not declare a fixed `encodedSize`: a bound on the size of the data a
 * compressor nested inside another one decodes to. Every compressor shipped
 * for Zarr stays far inside it: zstd adds at most n/256 + 64 bytes
 * (ZSTD_compressBound), deflate (gzip, zlib) 5 bytes per stored 16-64 KiB
 * block plus an 18-byte header and trailer (deflateBound: about n/4096 + 24),
 * LZ4 n/255 + 16, Blosc 16 bytes (a chunk that would grow is stored raw
 * behind its header). n/8 + 64 KiB leaves room for codecs with coarser
 * framing; a codec that may expand data more must declare `encodedSize`.
 */
export function expansionBound(decodedBytes: number): number {
  return decodedBytes + Math.ceil(decodedBytes / 8) + 64 * 1024;
}

/** A codec entry of zarr.json in its object form (v3.1 also allows a bare name string). */
export function normalizeCodecMetadata(entry: unknown, field: string): CodecMetadata {
  if (typeof entry === "string") return { name: entry };
  if (typeof entry !== "object" || entry === null || typeof (entry as CodecMetadata).name !== "string") {
    throw new InvalidMetadataError(`${field} must be a codec object with a "name", got ${showValue(entry)}`, { field });
  }
  const { configuration } = entry as CodecMetadata;
  if (
    configuration !== undefined &&
    (typeof configuration !== "object" || configuration === null || Array.isArray(configuration))
  ) {
    throw new InvalidMetadataError(`${field}.configuration must be an object`, { field: `${field}.configuration` });
  }
  return entry as CodecMetadata;
}

/** An array->array codec of a chain and the spec of the chunks it encodes. */
export interface ArrayToArrayStep {
  /** The codec. */
  codec: ArrayToArrayCodec;
  /** The spec of the chunks it sees when encoding. */
  spec: ChunkSpec;
}

/** How `CodecChain.create` reads a codec list. */
export interface CodecChainOptions {
  /**
   * Zarr v2 arrays: bytes->bytes codecs listed before the array->bytes codec
   * (v2 filters such as shuffle, which see the chunk's raw bytes) run right
   * after it, in their order, ahead of the later bytes->bytes codecs; an
   * array->array codec may not follow them.
   */
  filtersFirst?: boolean;
  /**
   * Each codec's name in errors where the document has other names for them (a v2 .zarray's `compressor`,
   * `filters[1]`), instead of `field[i]`.
   */
  entryFields?: readonly string[] | undefined;
}

/**
 * A validated codec chain: array->array codecs, one array->bytes codec,
 * bytes->bytes codecs, and what it takes to encode or decode one chunk with
 * them on this thread. It knows nothing of stores, threads or buffers: a
 * `CodecPipeline` runs it (here or on codec workers), and a codec worker
 * rebuilds it from its description.
 */
export class CodecChain {
  /**
   * `decodedCaps[i]`: the most bytes `bytesToBytes[i]` may decode to (its
   * input when encoding), handed to it as `CodecContext.maxDecodedBytes`.
   */
  readonly decodedCaps: readonly number[];
  /**
   * The most bytes a stored chunk may hold: the array->bytes codec's output mapped through every bytes->bytes codec.
   */
  readonly maxStoredBytes: number;
  /**
   * Whether chunks decode through the innermost compressor's `decodeLent` into core's `bytes` codec (see `decodeThen`).
   */
  private lends = false;

  private constructor(
    /** The spec of the chunks the chain encodes. */
    readonly spec: ChunkSpec,
    /** The chain's array->array codecs, in order, each with the spec of the chunks it sees. */
    readonly arrayToArray: readonly ArrayToArrayStep[],
    /** The chain's array->bytes codec. */
    readonly arrayToBytes: ArrayToBytesCodec,
    /** The spec the array->bytes codec sees (after the array->array codecs). */
    readonly bytesSpec: ChunkSpec,
    /** The chain's bytes->bytes codecs, in the order they encode. */
    readonly bytesToBytes: readonly BytesToBytesCodec[],
    /** The bound used when the array->bytes codec's output has no fixed size; undefined: the default. */
    readonly maxDecodedChunkBytes: number | undefined,
  ) {
    // The array->bytes codec's exact output size when fixed (bytes: elements * byteSize), else the configured bound.
    let cap = arrayToBytes.encodedSize?.(bytesSpec) ?? maxDecodedChunkBytes ?? DEFAULT_MAX_DECODED_CHUNK_BYTES;
    const caps: number[] = [];
    for (const codec of bytesToBytes) {
      caps.push(cap);
      // Mapped forward through each codec: exactly where its size is fixed (crc32c adds 4), else by the compressor
      // bound.
      cap = codec.encodedSize?.(cap) ?? expansionBound(cap);
    }
    this.decodedCaps = caps;
    this.maxStoredBytes = cap;
  }

  /** Resolve and validate `codecs` (zarr.json's list) for chunks of `spec`. */
  static async create(
    codecs: unknown,
    spec: ChunkSpec,
    context: ArrayPipelineContext = { codecOptions: {} },
    field = "codecs",
    options: CodecChainOptions = {},
  ): Promise<CodecChain> {
    const codecOptions: CodecOptions = context.codecOptions;
    if (!Array.isArray(codecs) || codecs.length === 0) {
      throw new InvalidMetadataError(`${field} must be a non-empty list of codecs`, { field });
    }
    const arrayToArray: { codec: ArrayToArrayCodec; spec: ChunkSpec }[] = [];
    let arrayToBytes: { codec: ArrayToBytesCodec; spec: ChunkSpec } | undefined;
    const bytesToBytes: BytesToBytesCodec[] = [];
    /** Bytes->bytes filters met before the array->bytes codec (`filtersFirst`), with where they were listed. */
    const early: { codec: BytesToBytesCodec; field: string }[] = [];
    let current = spec;
    for (const [i, raw] of codecs.entries()) {
      const entryField = options.entryFields?.[i] ?? `${field}[${i}]`;
      const meta = normalizeCodecMetadata(raw, entryField);
      const factory = await resolveCodec(meta.name, entryField);
      const codec: Codec = await factory(meta.configuration ?? {}, {
        spec: current,
        field: entryField,
        // Own properties only: a codec named "toString" must not pick up Object.prototype.toString as its options.
        options: (Object.hasOwn(codecOptions, meta.name) ? codecOptions[meta.name] : undefined) ?? {},
        pipeline: context,
      });
      const misplaced = (why: string) =>
        new InvalidMetadataError(`${entryField} (${meta.name}) ${why}`, { field: entryField });
      if (codec.kind === "array_to_array") {
        if (arrayToBytes) throw misplaced("is an array->array codec and must come before the array->bytes codec");
        if (early.length > 0)
          throw misplaced(`is an array->array codec and cannot follow the bytes->bytes codec at ${early[0]!.field}`);
        arrayToArray.push({ codec, spec: current });
        current = codec.encodedSpec(current);
      } else if (codec.kind === "array_to_bytes") {
        if (arrayToBytes) {
          throw misplaced(`is a second array->bytes codec (after ${arrayToBytes.codec.name}); exactly one is allowed`);
        }
        arrayToBytes = { codec, spec: current };
        bytesToBytes.push(...early.map((e) => e.codec));
      } else if (!arrayToBytes && options.filtersFirst) {
        early.push({ codec, field: entryField });
      } else {
        if (!arrayToBytes) throw misplaced("is a bytes->bytes codec and must come after the array->bytes codec");
        bytesToBytes.push(codec);
      }
    }
    if (!arrayToBytes) {
      throw new InvalidMetadataError(`${field} has no array->bytes codec (e.g. "bytes"); exactly one is required`, {
        field,
      });
    }
    const chain = new CodecChain(
      spec,
      arrayToArray,
      arrayToBytes.codec,
      arrayToBytes.spec,
      bytesToBytes,
      context.maxDecodedChunkBytes,
    );
    if (chain.partialCapable && bytesToBytes[0]?.decodeLent && arrayToBytes.codec.name === "bytes") {
      // Loaded already (it is the codec "bytes" resolved to), yet kept out of the static imports: readers that never
      // meet it stay smaller.
      const { isBytesCodec } = await import("./codecs/bytes.js");
      chain.lends = isBytesCodec(arrayToBytes.codec);
    }
    return chain;
  }

  /** The chunks' data type. */
  get dataType(): DataType {
    return dataType(this.spec.dataType.name);
  }

  /** The chain's metadata, as in zarr.json's `codecs`. */
  toJSON(): CodecMetadata[] {
    return [...this.arrayToArray.map((a) => a.codec), this.arrayToBytes, ...this.bytesToBytes].map((c) => c.toJSON());
  }

  /**
   * Whether coding a chunk computes anything: every chain but the `bytes` codec alone, which only lays elements out
   * (one copy, so not worth a trip to a worker, nor a copy of its input into shared memory).
   */
  get computes(): boolean {
    return this.arrayToArray.length > 0 || this.bytesToBytes.length > 0 || this.arrayToBytes.name !== "bytes";
  }

  /** Whether decoding detects any change to a stored chunk: its outermost bytes->bytes codec is a checksum. */
  get checksummed(): boolean {
    return this.bytesToBytes.at(-1)?.checksummed === true;
  }

  /** Encoded size of every chunk, when the chain makes it fixed. */
  encodedSize(): number | undefined {
    let size = this.arrayToBytes.encodedSize?.(this.bytesSpec);
    for (const codec of this.bytesToBytes) {
      if (size === undefined) return undefined;
      size = codec.encodedSize?.(size);
    }
    return size;
  }

  /** Whether the array->bytes codec sees the stored value itself (no array->array codecs in front of it). */
  get partialCapable(): boolean {
    return this.arrayToArray.length === 0;
  }

  /**
   * Whether the array->bytes codec reads the stored value through ranged reads of its own (sharding): no bytes->bytes
   * codec in between.
   */
  get decodesPartially(): boolean {
    return this.partialCapable && this.bytesToBytes.length === 0 && this.arrayToBytes.decodeInto !== undefined;
  }

  /** Encode a whole chunk. */
  async encode(chunk: Chunk, ctx: CodecContext): Promise<Uint8Array> {
    for (const { codec, spec } of this.arrayToArray) chunk = await codec.encode(chunk, spec, ctx);
    let bytes = await this.arrayToBytes.encode(chunk, this.bytesSpec, ctx);
    for (const codec of this.bytesToBytes) bytes = await codec.encode(bytes, ctx);
    return bytes;
  }

  /** Decode a whole chunk. */
  async decode(bytes: Uint8Array, ctx: CodecContext): Promise<Chunk> {
    bytes = await this.decodeBytes(bytes, ctx);
    let chunk = await this.arrayToBytes.decode(bytes, this.bytesSpec, ctx);
    for (let i = this.arrayToArray.length - 1; i >= 0; i--) {
      const { codec, spec } = this.arrayToArray[i]!;
      chunk = await codec.decode(chunk, spec, ctx);
    }
    return chunk;
  }

  /** Undo the bytes->bytes codecs, each told the most bytes it may decode to (see `decodedCaps`). */
  async decodeBytes(bytes: Uint8Array, ctx: CodecContext): Promise<Uint8Array> {
    for (let i = this.bytesToBytes.length - 1; i >= 0; i--) {
      bytes = await this.bytesToBytes[i]!.decode(bytes, { ...ctx, maxDecodedBytes: this.decodedCaps[i]! });
    }
    return bytes;
  }

  /** Apply the bytes->bytes codecs. */
  async encodeBytes(bytes: Uint8Array, ctx: CodecContext): Promise<Uint8Array> {
    for (const codec of this.bytesToBytes) bytes = await codec.encode(bytes, ctx);
    return bytes;
  }

  /** A chunk holding the fill value everywhere. */
  fillChunk(): Chunk {
    const shape = [...this.spec.shape];
    const chunk = { data: this.dataType.allocate(product(shape)), shape };
    fillSelection(
      chunk,
      blockSlices(
        shape.map(() => 0),
        shape,
      ),
      this.spec.fillValue,
      this.dataType,
    );
    return chunk;
  }

  /** Decode the stored chunk and copy `selection` of it into `out`. */
  decodeRegion(stored: Uint8Array, ctx: CodecContext, selection: readonly DimSlice[], out: ArrayRegion): Promise<void> {
    return this.decodeThen(stored, ctx, (chunk) => copySelection(chunk, selection, out, this.dataType));
  }

  /**
   * `use` of the decoded chunk. When the innermost compressor can lend its
   * output and the `bytes` codec reads it (views need no copy), `use` sees
   * the chunk in the decoder's own memory: one copy, from there into the
   * result, and no buffer per chunk.
   */
  async decodeThen(stored: Uint8Array, ctx: CodecContext, use: (chunk: Chunk) => void): Promise<void> {
    const innermost = this.bytesToBytes[0];
    if (!this.lends || !innermost?.decodeLent) {
      use(await this.decode(stored, ctx));
      return;
    }
    let bytes = stored;
    for (let i = this.bytesToBytes.length - 1; i >= 1; i--) {
      bytes = await this.bytesToBytes[i]!.decode(bytes, { ...ctx, maxDecodedBytes: this.decodedCaps[i]! });
    }
    // Core's bytes codec decodes synchronously: the chunk is used before the lent bytes are given back.
    const bytesCodec = this.arrayToBytes;
    await innermost.decodeLent(bytes, { ...ctx, maxDecodedBytes: this.decodedCaps[0]! }, (decoded) =>
      use(bytesCodec.decode(decoded, this.bytesSpec, ctx) as Chunk),
    );
  }
}
