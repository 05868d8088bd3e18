import { showValue } from "@zarrkit/registry";
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
  type StoredValue,
  type WriteSource,
} from "@zarrkit/registry";
import { blockSlices, copyIntoSelection, copySelection, fillSelection } from "./copy.js";
import { type DataType, dataType } from "./data-types.js";
import { isAllFill } from "./fill-value.js";
import { isSharedRegion, lendSharedBuffer, sharedReadsFor, withRangeRead } from "./read-buffers.js";
import { product, sliceCount } from "./selection.js";
import { bytesValue } from "./store/stored-value.js";
import { PipelineOffload } from "./workers/pipeline-offload.js";
import { type CodecWorkerSetting, checkWorkerOptions } from "./workers/settings.js";

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

/** A checked pipeline context from an array's options. */
export function arrayPipelineContext(options: { codecOptions?: CodecOptions; workers?: CodecWorkerSetting; maxDecodedChunkBytes?: number }): ArrayPipelineContext {
  const { maxDecodedChunkBytes: bytes, workers } = options;
  if (bytes !== undefined && !(Number.isSafeInteger(bytes) && bytes > 0)) {
    throw new InvalidMetadataError(`maxDecodedChunkBytes must be a positive integer, got ${String(bytes)}`, {
      field: "maxDecodedChunkBytes",
    });
  }
  if (typeof workers === "object") checkWorkerOptions(workers, "workers");
  return {
    codecOptions: options.codecOptions ?? {},
    ...(workers !== undefined && { workers }),
    ...(bytes !== undefined && { maxDecodedChunkBytes: bytes }),
  };
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

/** Chunks whose stored size may exceed this are read into buffers of their own, not pooled ones (see `withStored`). */
const MAX_POOLED_READ_BYTES = 64 * 2 ** 20;

/** How chunks are written. */
export interface ChunkWriteOptions {
  /** Store chunks that equal the fill value everywhere instead of deleting them. */
  writeEmptyChunks?: boolean;
}

/** A codec entry of zarr.json in its object form (v3.1 also allows a bare name string). */
export function normalizeCodecMetadata(entry: unknown, field: string): CodecMetadata {
  if (typeof entry === "string") return { name: entry };
  if (typeof entry !== "object" || entry === null || typeof (entry as CodecMetadata).name !== "string") {
    throw new InvalidMetadataError(`${field} must be a codec object with a "name", got ${showValue(entry)}`, { field });
  }
  const { configuration } = entry as CodecMetadata;
  if (configuration !== undefined && (typeof configuration !== "object" || configuration === null || Array.isArray(configuration))) {
    throw new InvalidMetadataError(`${field}.configuration must be an object`, { field: `${field}.configuration` });
  }
  return entry as CodecMetadata;
}

/**
 * A validated codec chain: array->array codecs, one array->bytes codec,
 * bytes->bytes codecs. Reads and writes of part of a chunk go to the
 * array->bytes codec's partial hooks when the chain allows it.
 */
export class CodecPipeline {
  /** Whole-chunk work sent to codec workers; undefined for pipelines with nothing worth sending. */
  private offload: PipelineOffload | undefined;
  /** Whether chunks decode through the innermost compressor's `decodeLent` into core's `bytes` codec (see `decodeHere`). */
  private lends = false;
  /**
   * `decodedCaps[i]`: the most bytes `bytesToBytes[i]` may decode to (its
   * input when encoding), handed to it as `CodecContext.maxDecodedBytes`.
   */
  readonly decodedCaps: readonly number[];
  /** The most bytes a stored chunk may hold: the array->bytes codec's output mapped through every bytes->bytes codec. */
  private readonly maxStoredBytes: number;

  private constructor(
    /** The spec of the chunks the pipeline encodes. */
    readonly spec: ChunkSpec,
    private readonly arrayToArray: { codec: ArrayToArrayCodec; spec: ChunkSpec }[],
    /** The chain's array->bytes codec. */
    readonly arrayToBytes: ArrayToBytesCodec,
    private readonly bytesSpec: ChunkSpec,
    private readonly bytesToBytes: BytesToBytesCodec[],
    /** The bound used when the array->bytes codec's output has no fixed size; undefined: the default. */
    readonly maxDecodedChunkBytes: number | undefined,
  ) {
    // The array->bytes codec's exact output size when fixed (bytes: elements * byteSize), else the configured bound.
    let cap = arrayToBytes.encodedSize?.(bytesSpec) ?? maxDecodedChunkBytes ?? DEFAULT_MAX_DECODED_CHUNK_BYTES;
    const caps: number[] = [];
    for (const codec of bytesToBytes) {
      caps.push(cap);
      // Mapped forward through each codec: exactly where its size is fixed (crc32c adds 4), else by the compressor bound.
      cap = codec.encodedSize?.(cap) ?? expansionBound(cap);
    }
    this.decodedCaps = caps;
    this.maxStoredBytes = cap;
  }

  /**
   * `options.filtersFirst` (Zarr v2 arrays): bytes->bytes codecs listed
   * before the array->bytes codec (v2 filters such as shuffle, which see the
   * chunk's raw bytes) run right after it, in their order, ahead of the
   * later bytes->bytes codecs; an array->array codec may not follow them.
   * `options.entryFields` names each codec in errors where the document has
   * other names for them (a v2 .zarray's `compressor`, `filters[1]`), instead
   * of `field[i]`.
   */
  static async create(
    codecs: unknown,
    spec: ChunkSpec,
    context: ArrayPipelineContext = { codecOptions: {} },
    field = "codecs",
    options: { filtersFirst?: boolean; entryFields?: readonly string[] | undefined } = {},
  ): Promise<CodecPipeline> {
    const codecOptions = context.codecOptions;
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
        if (early.length > 0) throw misplaced(`is an array->array codec and cannot follow the bytes->bytes codec at ${early[0]!.field}`);
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
      throw new InvalidMetadataError(`${field} has no array->bytes codec (e.g. "bytes"); exactly one is required`, { field });
    }
    const pipeline = new CodecPipeline(spec, arrayToArray, arrayToBytes.codec, arrayToBytes.spec, bytesToBytes, context.maxDecodedChunkBytes);
    if (pipeline.computes) pipeline.offload = new PipelineOffload(pipeline, codecOptions, context.workers);
    if (pipeline.partialCapable && bytesToBytes[0]?.decodeLent && arrayToBytes.codec.name === "bytes") {
      // Loaded already (it is the codec "bytes" resolved to), yet kept out of the static imports: readers that never meet it stay smaller.
      const { isBytesCodec } = await import("./codecs/bytes.js");
      pipeline.lends = isBytesCodec(arrayToBytes.codec);
    }
    return pipeline;
  }

  /**
   * Whether decoding or encoding a whole chunk is work a worker can take: not
   * the bare `bytes` view, not a codec that runs pipelines of its own (sharding:
   * its inner chunks go to workers one by one), and fixed-size elements, which
   * travel as one transferable buffer.
   */
  private get computes(): boolean {
    const a2b = this.arrayToBytes;
    // Strings (fixed-width ones too) are JS arrays, which cannot travel as one transferable buffer.
    if (a2b.decodeInto || a2b.encodeInto || this.spec.dataType.byteSize === undefined || this.spec.dataType.kind === "string") return false;
    return this.arrayToArray.length > 0 || this.bytesToBytes.length > 0 || a2b.name !== "bytes";
  }

  /** The chunks' data type. */
  get dataType(): DataType {
    return dataType(this.spec.dataType.name);
  }

  /** The chain's metadata, as in zarr.json's `codecs`. */
  toJSON(): CodecMetadata[] {
    return [...this.arrayToArray.map((a) => a.codec), this.arrayToBytes, ...this.bytesToBytes].map((c) => c.toJSON());
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

  /** Encode a whole chunk, on a codec worker when it is large enough (see `configureCodecWorkers`); `chunk` is left as it is. */
  encode(chunk: Chunk, ctx: CodecContext): Promise<Uint8Array> {
    return this.offload?.encode(chunk, ctx, false) ?? this.encodeInline(chunk, ctx);
  }

  /** Decode a whole chunk, on a codec worker when it is large enough (see `configureCodecWorkers`). */
  decode(bytes: Uint8Array, ctx: CodecContext): Promise<Chunk> {
    return this.offload?.decode(bytes, ctx) ?? this.decodeInline(bytes, ctx);
  }

  /** Encode a whole chunk on this thread (what a codec worker runs). */
  async encodeInline(chunk: Chunk, ctx: CodecContext): Promise<Uint8Array> {
    for (const { codec, spec } of this.arrayToArray) chunk = await codec.encode(chunk, spec, ctx);
    let bytes = await this.arrayToBytes.encode(chunk, this.bytesSpec, ctx);
    for (const codec of this.bytesToBytes) bytes = await codec.encode(bytes, ctx);
    return bytes;
  }

  /** Decode a whole chunk on this thread (what a codec worker runs). */
  async decodeInline(bytes: Uint8Array, ctx: CodecContext): Promise<Chunk> {
    bytes = await this.decodeBytes(bytes, ctx);
    let chunk = await this.arrayToBytes.decode(bytes, this.bytesSpec, ctx);
    for (let i = this.arrayToArray.length - 1; i >= 0; i--) {
      const { codec, spec } = this.arrayToArray[i]!;
      chunk = await codec.decode(chunk, spec, ctx);
    }
    return chunk;
  }

  /** Undo the bytes->bytes codecs, each told the most bytes it may decode to (see `decodedCaps`). */
  private async decodeBytes(bytes: Uint8Array, ctx: CodecContext): Promise<Uint8Array> {
    for (let i = this.bytesToBytes.length - 1; i >= 0; i--) {
      bytes = await this.bytesToBytes[i]!.decode(bytes, { ...ctx, maxDecodedBytes: this.decodedCaps[i]! });
    }
    return bytes;
  }

  private async encodeBytes(bytes: Uint8Array, ctx: CodecContext): Promise<Uint8Array> {
    for (const codec of this.bytesToBytes) bytes = await codec.encode(bytes, ctx);
    return bytes;
  }

  private fillChunk(): Chunk {
    const shape = [...this.spec.shape];
    const chunk = { data: this.dataType.allocate(product(shape)), shape };
    fillSelection(chunk, blockSlices(shape.map(() => 0), shape), this.spec.fillValue, this.dataType);
    return chunk;
  }

  /** Whether the array->bytes codec sees the stored value itself (no array->array codecs in front of it). */
  private get partialCapable(): boolean {
    return this.arrayToArray.length === 0;
  }

  /** Whether `decodeInto` reads only what a selection needs (ranged reads) rather than the whole value. */
  get decodesPartially(): boolean {
    return this.partialCapable && this.bytesToBytes.length === 0 && this.arrayToBytes.decodeInto !== undefined;
  }

  /** Decode `selection` of the stored chunk into `out`; a missing chunk reads as the fill value. */
  async decodeInto(value: StoredValue, selection: DimSlice[], out: ArrayRegion, ctx: CodecContext): Promise<void> {
    const a2b = this.arrayToBytes;
    if (this.partialCapable && a2b.decodeInto && this.bytesToBytes.length === 0) {
      return a2b.decodeInto(value, selection, this.bytesSpec, out, ctx);
    }
    const shared = isSharedRegion(out);
    // Chunks a worker may decode are read into shared memory, which the worker reads without a copy.
    const offloading = this.readsShared(out);
    await this.withStored(value, ctx, offloading, async (stored) => {
      if (stored === undefined) {
        fillSelection(out.chunk, blockSlices(out.offset, selection.map(sliceCount)), this.spec.fillValue, this.dataType);
        return;
      }
      if (this.partialCapable && a2b.decodeInto) {
        const bytes = await this.decodeBytes(stored, ctx);
        return a2b.decodeInto(bytesValue(value.key, bytes), selection, this.bytesSpec, out, ctx);
      }
      const here = () => this.decodeRegion(stored, ctx, selection, out);
      if (shared) {
        // A worker writes into a result over shared memory itself.
        await (this.offload?.decodeShared(stored, ctx, selection, () => out, here) ?? here());
        return;
      }
      if (offloading) return this.decodeThroughScratch(stored, ctx, selection, out, here);
      const copy = (chunk: Chunk) => copySelection(chunk, selection, out, this.dataType);
      await (this.offload?.decodeThen(stored, ctx, copy, here) ?? here());
    });
  }

  /**
   * Whether the stored bytes of chunks decoded into `out` are best read into
   * shared memory: when a codec worker may decode them, which then reads them
   * without a copy. Chunks decoded on this thread (the bare `bytes` codec,
   * small chunks) are read into ordinary memory, which is cheaper to allocate
   * and to copy from.
   */
  readsShared(out: ArrayRegion): boolean {
    return this.offload?.offloads() === true && sharedReadsFor(out);
  }

  /**
   * A worker decodes the whole chunk into a pooled buffer of shared memory,
   * copied from there into `out` on this thread: no decoded buffer per chunk
   * comes back from the worker, and the result stays an ordinary array.
   * `here()` when the pool runs the job on this thread.
   */
  private async decodeThroughScratch(stored: Uint8Array, ctx: CodecContext, selection: DimSlice[], out: ArrayRegion, here: () => Promise<void>): Promise<void> {
    const type = this.dataType;
    const ArrayType = type.arrayType!;
    const shape = [...this.spec.shape];
    const origin = shape.map(() => 0);
    const slots = product(shape) * type.lanes;
    // Taken only when a worker takes the job (queued jobs hold none), and kept until its bytes are copied.
    let lent: { region: ArrayRegion; release(reuse: boolean): void } | undefined;
    const scratch = (): ArrayRegion => {
      const { buffer, release } = lendSharedBuffer(slots * ArrayType.BYTES_PER_ELEMENT);
      lent = { region: { chunk: { data: new ArrayType(buffer.buffer as ArrayBuffer, 0, slots), shape }, offset: origin }, release };
      return lent.region;
    };
    let written = false;
    try {
      written = await (this.offload!.decodeShared(stored, ctx, blockSlices(origin, shape), scratch, here) ?? here().then(() => false));
      if (written) copySelection(lent!.region.chunk, selection, out, type);
    } finally {
      lent?.release(written);
    }
  }

  /** Decode the stored chunk on this thread and copy `selection` of it into `out` (what a codec worker runs for a shared result). */
  decodeRegion(stored: Uint8Array, ctx: CodecContext, selection: DimSlice[], out: ArrayRegion): Promise<void> {
    return this.decodeHere(stored, ctx, (chunk) => copySelection(chunk, selection, out, this.dataType));
  }

  /**
   * `use` of the stored chunk (undefined when missing). When the store reads
   * into caller memory and a chunk's stored size is bounded by at most
   * MAX_POOLED_READ_BYTES, the chunk is read into a pooled buffer that `use` must be done with when it settles
   * (every decoder here copies out of its input before returning); otherwise
   * it is a buffer of its own from `get`. A value larger than any encoding of
   * a chunk is read again with `get`, for the decoders to report. `shared`:
   * the pooled buffer is shared memory, which workers read without a copy.
   */
  private async withStored(value: StoredValue, ctx: CodecContext, shared: boolean, use: (stored: Uint8Array | undefined) => Promise<void>): Promise<void> {
    const bound = this.maxStoredBytes;
    if (!value.getRangeInto || bound > MAX_POOLED_READ_BYTES) return use(await value.get(ctx));
    const range = { offset: 0, length: bound + 1 };
    const options = ctx.signal ? { signal: ctx.signal } : {};
    const whole = await withRangeRead(value as StoredValue & Required<Pick<StoredValue, "getRangeInto">>, range, options, async (stored) =>
      stored === undefined || stored.length <= bound ? use(stored).then(() => true) : false, shared,
    );
    if (!whole) await use(await value.get(ctx));
  }

  /**
   * `use` of the chunk decoded on this thread. When the innermost compressor
   * can lend its output and the `bytes` codec reads it (views need no copy),
   * `use` sees the chunk in the decoder's own memory: one copy, from there
   * into the result, and no buffer per chunk.
   */
  private async decodeHere(stored: Uint8Array, ctx: CodecContext, use: (chunk: Chunk) => void): Promise<void> {
    const innermost = this.bytesToBytes[0];
    if (!this.lends || !innermost?.decodeLent) {
      use(await this.decodeInline(stored, ctx));
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

  /**
   * Write `source` into `selection` of the stored chunk: through the
   * array->bytes codec's partial encoder when there is one, otherwise by
   * read-modify-write. A chunk left all fill value is deleted unless
   * `writeEmptyChunks` is set.
   */
  async encodeInto(
    value: StoredValue,
    selection: DimSlice[],
    source: WriteSource,
    ctx: CodecContext,
    options: ChunkWriteOptions = {},
  ): Promise<void> {
    const a2b = this.arrayToBytes;
    if (this.partialCapable && a2b.encodeInto) {
      if (this.bytesToBytes.length === 0) return a2b.encodeInto(value, selection, source, this.bytesSpec, ctx);
      const stored = await value.get(ctx);
      const inner = bytesValue(value.key, stored && (await this.decodeBytes(stored, ctx)));
      await a2b.encodeInto(inner, selection, source, this.bytesSpec, ctx);
      const result = inner.current();
      if (result !== undefined) return value.set!(await this.encodeBytes(result, ctx), ctx);
      return value.delete ? value.delete(ctx) : value.set!(await this.encode(this.fillChunk(), ctx), ctx);
    }
    const type = this.dataType;
    const shape = [...this.spec.shape];
    const whole = selection.every((s, d) => s.start === 0 && s.step === 1 && s.stop === shape[d]);
    let chunk: Chunk;
    const stored = whole ? undefined : await value.get(ctx);
    if (stored !== undefined) {
      chunk = await this.decode(stored, ctx);
    } else {
      chunk = { data: type.allocate(product(shape)), shape };
      if (!whole) fillSelection(chunk, blockSlices(shape.map(() => 0), shape), this.spec.fillValue, type);
    }
    if ("fill" in source) fillSelection(chunk, selection, source.fill, type);
    else copyIntoSelection(source, chunk, selection, type);
    // A store that cannot delete (e.g. a zarrita.js store) keeps the fill-valued chunk.
    if (!options.writeEmptyChunks && value.delete && isAllFill(chunk.data, this.spec.fillValue, type)) {
      await value.delete(ctx);
      return;
    }
    // The chunk is ours (allocated or decoded above), so its buffer may move to a worker.
    await value.set!(await (this.offload?.encode(chunk, ctx, true) ?? this.encodeInline(chunk, ctx)), ctx);
  }
}
