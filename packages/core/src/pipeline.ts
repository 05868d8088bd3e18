import {
  type ArrayRegion,
  type ArrayToBytesCodec,
  type Chunk,
  type ChunkSpec,
  type CodecContext,
  type CodecMetadata,
  type CodecOptions,
  type DimSlice,
  InvalidMetadataError,
  type LentRange,
  type NumericArray,
  type StoredValue,
  type WindowQuery,
  type WriteSource,
} from "@zarrkit/registry";
import { type ArrayPipelineContext, CodecChain, type CodecChainOptions } from "./codec-chain.js";
import { forEachConcurrent } from "./concurrency.js";
import { blockSlices, copyIntoSelection, copySelection, fillSelection } from "./copy.js";
import type { DataType } from "./data-types.js";
import { isAllFill } from "./fill-value.js";
import { changedWhileRead, isShared, isSharedRegion, withRangeRead, withScratch } from "./read-buffers.js";
import { product, sliceCount } from "./selection.js";
import { chunkSlot, decodeParts, encodeParts } from "./batch-work.js";
import { copyStrided } from "./copy.js";
import { bytesValue } from "./store/stored-value.js";
import { PipelineOffload, type Span } from "./workers/pipeline-offload.js";
import type { SourcePart, StoredPart } from "./workers/protocol.js";
import { type CodecWorkerSetting, checkWorkerOptions } from "./workers/settings.js";

export type { SourcePart, StoredPart };

/** The box of an array that `parts` (whole chunks of `chain`, at their offsets in it) cover. */
function boxOf(parts: readonly SourcePart[], chain: CodecChain): { low: number[]; shape: number[] } {
  const shape = chain.spec.shape;
  const low = shape.map(() => Number.POSITIVE_INFINITY);
  const high = shape.map(() => 0);
  for (const part of parts) {
    part.offset.forEach((o, d) => {
      low[d] = Math.min(low[d]!, o);
      high[d] = Math.max(high[d]!, o + shape[d]!);
    });
  }
  return { low, shape: low.map((l, d) => high[d]! - l) };
}

/**
 * `use` of `source` in shared memory, which codec workers read without a
 * copy: as it is when it already is, else the box `parts` cover copied into
 * pooled shared memory (lent until `use` settles), with the parts' offsets
 * moved into it.
 */
function withSharedSource<T>(
  source: Chunk,
  parts: readonly SourcePart[],
  chain: CodecChain,
  use: (source: Chunk, parts: readonly SourcePart[]) => Promise<T>,
): Promise<T> {
  const data = source.data as NumericArray;
  if (isShared(data)) return use(source, parts);
  const { low, shape } = boxOf(parts, chain);
  const slots = product(shape) * chain.dataType.lanes;
  return withScratch(slots * data.BYTES_PER_ELEMENT, true, (bytes) => {
    const ArrayType = data.constructor as new (buffer: ArrayBufferLike, offset: number, length: number) => NumericArray;
    const box: Chunk = { data: new ArrayType(bytes.buffer, bytes.byteOffset, slots), shape };
    const origin = shape.map(() => 0);
    copyStrided(source, blockSlices(low, shape), box, blockSlices(origin, shape), chain.dataType);
    return use(
      box,
      parts.map((p) => ({ key: p.key, offset: p.offset.map((o, d) => o - low[d]!) })),
    );
  });
}

/** A checked pipeline context from an array's options. */
export function arrayPipelineContext(options: {
  codecOptions?: CodecOptions;
  workers?: CodecWorkerSetting;
  maxDecodedChunkBytes?: number;
}): ArrayPipelineContext {
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

/** Chunks whose stored size may exceed this are read into buffers of their own, not pooled ones (see `withStored`). */
const MAX_POOLED_READ_BYTES = 64 * 2 ** 20;

/**
 * Stored chunks decoded at once by `decodeMany` on this thread: enough to keep I/O and decoding overlapped, bounded for
 * shards of millions.
 */
const PARTS_IN_FLIGHT = 256;

/** How chunks are written. */
export interface ChunkWriteOptions {
  /** Store chunks that equal the fill value everywhere instead of deleting them. */
  writeEmptyChunks?: boolean;
}

/**
 * The executor of a `CodecChain`: reads stored chunks (into pooled buffers),
 * decodes and encodes them on this thread or on codec workers, and writes
 * the results into the caller's array. The chain says what a chunk's bytes
 * mean; the pipeline decides where and when the work runs.
 */
export class CodecPipeline {
  /** Work sent to codec workers; undefined for chains whose chunks cannot travel (strings, codecs that read stores). */
  private readonly offload: PipelineOffload | undefined;

  private constructor(
    /** The codec chain this pipeline runs. */
    readonly chain: CodecChain,
    context: ArrayPipelineContext,
  ) {
    this.offload = PipelineOffload.forChain(chain, context.codecOptions, context.workers);
  }

  /** A pipeline running the chain `codecs` describes (see `CodecChain.create`). */
  static async create(
    codecs: unknown,
    spec: ChunkSpec,
    context: ArrayPipelineContext = { codecOptions: {} },
    field = "codecs",
    options: CodecChainOptions = {},
  ): Promise<CodecPipeline> {
    return new CodecPipeline(await CodecChain.create(codecs, spec, context, field, options), context);
  }

  /** The spec of the chunks the pipeline encodes. */
  get spec(): ChunkSpec {
    return this.chain.spec;
  }

  /** The chain's array->bytes codec. */
  get arrayToBytes(): ArrayToBytesCodec {
    return this.chain.arrayToBytes;
  }

  /** The chunks' data type. */
  get dataType(): DataType {
    return this.chain.dataType;
  }

  /** The chain's metadata, as in zarr.json's `codecs`. */
  toJSON(): CodecMetadata[] {
    return this.chain.toJSON();
  }

  /** Whether decoding detects any change to a stored chunk (see `CodecChain.checksummed`). */
  get checksummed(): boolean {
    return this.chain.checksummed;
  }

  /** Encoded size of every chunk, when the chain makes it fixed. */
  encodedSize(): number | undefined {
    return this.chain.encodedSize();
  }

  /** Whether `decodeInto` reads only what a selection needs (ranged reads) rather than the whole value. */
  get decodesPartially(): boolean {
    return this.chain.decodesPartially;
  }

  /**
   * Encode a whole chunk, on a codec worker when it is large enough (see `configureCodecWorkers`); `chunk` is left as
   * it is.
   */
  encode(chunk: Chunk, ctx: CodecContext): Promise<Uint8Array> {
    return this.offload?.encode(chunk, ctx, false) ?? this.chain.encode(chunk, ctx);
  }

  /** Decode a whole chunk, on a codec worker when it is large enough (see `configureCodecWorkers`). */
  decode(bytes: Uint8Array, ctx: CodecContext): Promise<Chunk> {
    return this.offload?.decode(bytes, ctx) ?? this.chain.decode(bytes, ctx);
  }

  /** Decode `selection` of the stored chunk into `out`; a missing chunk reads as the fill value. */
  async decodeInto(value: StoredValue, selection: DimSlice[], out: ArrayRegion, ctx: CodecContext): Promise<void> {
    const chain = this.chain;
    const a2b = chain.arrayToBytes;
    if (chain.decodesPartially) return a2b.decodeInto!(value, selection, chain.bytesSpec, out, ctx);
    // Chunks a worker may decode into a shared result are read into shared memory, which the worker reads without a
    // copy.
    const shared = this.readsShared(out);
    await this.withStored(value, ctx, shared, async (stored) => {
      if (stored === undefined) {
        fillSelection(
          out.chunk,
          blockSlices(out.offset, selection.map(sliceCount)),
          chain.spec.fillValue,
          chain.dataType,
        );
        return;
      }
      if (chain.partialCapable && a2b.decodeInto) {
        const bytes = await chain.decodeBytes(stored, ctx);
        return a2b.decodeInto(bytesValue(value.key, bytes), selection, chain.bytesSpec, out, ctx);
      }
      const here = () => chain.decodeRegion(stored, ctx, selection, out);
      // A worker writes into a result over shared memory itself; otherwise its chunk comes back to be copied here.
      if (shared) await (this.offload?.decodeShared(stored, ctx, selection, out, here) ?? here());
      else
        await (this.offload?.decodeThen(
          stored,
          ctx,
          (chunk) => copySelection(chunk, selection, out, chain.dataType),
          here,
        ) ?? here());
    });
  }

  /**
   * Decode stored chunks that lie side by side in `bytes` (a shard's range)
   * into their places in `out`. Into a result over shared memory, the parts
   * go to the codec workers in batches (a shard's worth of small chunks is a
   * handful of tasks, not one round trip each) and the workers write them
   * there themselves; otherwise each is decoded as `decodeInto` would.
   * Settles only once no decode touches `bytes` any more.
   */
  async decodeMany(
    bytes: Uint8Array,
    parts: readonly StoredPart[],
    out: ArrayRegion,
    ctx: CodecContext,
  ): Promise<void> {
    const offload = this.offload;
    if (offload?.takesBatch(parts.length) && isSharedRegion(out)) {
      const decode = (shared: Uint8Array) =>
        offload.decodeBatches(shared, parts, out, ctx, (batch) =>
          decodeParts(this.chain, shared, batch, out.chunk, ctx),
        );
      if (isShared(bytes)) {
        const batched = decode(bytes);
        if (batched) return batched;
      } else {
        // Bytes fetched into ordinary memory (HTTP, S3) are copied into pooled shared memory, for the workers to read.
        const batched = await withScratch(bytes.length, true, async (shared) => {
          shared.set(bytes);
          const batched = decode(shared);
          if (!batched) return false;
          await batched;
          return true;
        });
        if (batched) return;
      }
    }
    await forEachConcurrent(parts, PARTS_IN_FLIGHT, (part) => {
      const key = part.key;
      const stored = bytesValue(key, bytes.subarray(part.offset, part.offset + part.length));
      return this.decodeInto(stored, part.selection, { chunk: out.chunk, offset: part.outOffset }, { ...ctx, key });
    });
  }

  /**
   * Whether `count` stored chunks decoded into `out` are best lent to the
   * codec workers (`decodeLent`): workers on for this chain, enough chunks
   * to send in batches, and `out` a result over shared memory.
   */
  readsLent(out: ArrayRegion, count: number): boolean {
    return this.offload?.takesLent(count) === true && isSharedRegion(out);
  }

  /**
   * Decode stored chunks that lie side by side in a lent window of a value
   * (`StoredValue.lendRange`) into their places in `out`; `partsOf(available)`
   * says which they are (offsets from the window's start) once it is known
   * how many bytes the window holds. The codec workers read the bytes
   * themselves, with the range reader the window names, into pooled shared
   * memory: a splittable window (a file) each worker the span of its batch,
   * then it decodes it; any other (a request) by one worker whole, then the
   * batches decode from there. The bytes never pass through this thread.
   * `readHere(window, target)` reads bytes of the lent window (offsets from
   * its start) on this thread, for work the pool runs here or a worker
   * without the reader. Settles once no worker reads or decodes any more.
   */
  decodeLent(
    lent: LentRange,
    partsOf: (available: number | undefined) => readonly StoredPart[],
    out: ArrayRegion,
    ctx: CodecContext,
    readHere: (window: WindowQuery, target: Uint8Array) => Promise<number | undefined>,
  ): Promise<void> {
    if (!lent.splittable)
      return this.readLent(lent, ctx, readHere, (bytes) => this.decodeMany(bytes!, partsOf(bytes?.length), out, ctx));
    return withScratch(lent.length, true, async (bytes) => {
      const parts = partsOf(lent.length);
      const read = async ({ start, length }: Span) => {
        const got = await readHere({ offset: start, length }, bytes.subarray(start, start + length));
        if (got !== length) throw changedWhileRead(ctx.key, start + (got ?? 0));
      };
      const batched = this.offload?.decodeBatches(
        bytes,
        parts,
        out,
        ctx,
        async (batch, span) => {
          await read(span);
          return decodeParts(this.chain, bytes, batch, out.chunk, ctx);
        },
        lent,
      );
      if (batched) return batched;
      await read({ start: 0, length: lent.length });
      return this.decodeMany(bytes, parts, out, ctx);
    });
  }

  /**
   * `use` of a lent window read whole into pooled shared memory (undefined
   * when the value does not exist): by a codec worker where they are on (one
   * request over HTTP, its body never on this thread), else by `readHere`
   * (offsets from the window's start). The bytes are lent until `use`
   * settles; codec workers decode from them as they are.
   */
  readLent<T>(
    lent: LentRange,
    ctx: CodecContext,
    readHere: (window: WindowQuery, target: Uint8Array) => Promise<number | undefined>,
    use: (bytes: Uint8Array | undefined) => Promise<T>,
  ): Promise<T> {
    return withScratch(lent.length, true, async (bytes) => {
      const here = () => readHere({ offset: 0, length: lent.length }, bytes);
      const got = await (this.offload?.readLent(lent, bytes, ctx, here) ?? here());
      return use(got === undefined ? undefined : bytes.subarray(0, got));
    });
  }

  /**
   * Encode whole chunks taken from `source` (each part's chunk starting at its
   * offset there) on the codec workers, in batches: one output per part,
   * undefined for a chunk all fill value (unless `keepEmpty`). A source in
   * ordinary memory is first copied into pooled shared memory, the box its
   * parts cover, once. Undefined when the work is not worth sending (workers off,
   * little of it, no shared memory, or a chain that only lays elements out,
   * see `laysOutHere`): encode each part as `encodeInto` would. With
   * `room` (as `encodeRoom` describes it: a slot per part), the outputs may
   * view `room`, which must stay lent until the caller is done with them.
   */
  async encodeMany(
    source: Chunk,
    parts: readonly SourcePart[],
    ctx: CodecContext,
    keepEmpty: boolean,
    room?: Uint8Array,
  ): Promise<(Uint8Array | undefined)[] | undefined> {
    if (Array.isArray(source.data)) return undefined;
    if (room && this.laysOutHere(source)) {
      const outputs = await encodeParts(this.chain, source, parts, keepEmpty, ctx, room);
      return outputs.map((bytes) => bytes ?? undefined);
    }
    const offload = this.offload;
    if (!offload?.takesBatch(parts.length) || this.laysOutHere(source)) return undefined;
    const slot = chunkSlot(this.chain)?.bytes ?? 0;
    const outputs = await withSharedSource(source, parts, this.chain, (shared, sharedParts) =>
      Promise.resolve(
        offload.encodeBatches(
          shared,
          sharedParts,
          ctx,
          keepEmpty,
          (batch) => encodeParts(this.chain, shared, batch, keepEmpty, ctx),
          room && { buffer: room, slot },
        ),
      ),
    );
    return outputs?.map((bytes) => bytes ?? undefined);
  }

  /**
   * Whether whole chunks of `source` are encoded on this thread: by the
   * `bytes` codec alone, one copy per chunk. From ordinary memory that is
   * less work than the copy into shared memory workers would need first (a
   * raw 256^3 uint16 write: 77-81 ms against 122-131); from shared memory,
   * less than a fresh chunk per part on a worker and its trip back (170-200
   * ms against 60-80 laid out in pooled memory here).
   */
  private laysOutHere(source: Chunk): boolean {
    return !Array.isArray(source.data) && !this.chain.computes;
  }

  /**
   * The room `encodeMany` takes for `count` whole chunks of `source`: a slot
   * of `slot` bytes (a decoded chunk's) per chunk, in pooled memory the
   * caller lends until it is done with the outputs, which then view it
   * instead of a buffer each. Chunks the `bytes` codec alone encodes are
   * laid out in it here (ordinary memory); codec workers write each output
   * that fits its slot there (`shared`: shared memory). Undefined where the
   * chunks are encoded otherwise.
   */
  encodeRoom(source: Chunk, count: number): { slot: number; shared: boolean } | undefined {
    const slot = chunkSlot(this.chain)?.bytes;
    if (slot === undefined || Array.isArray(source.data)) return undefined;
    if (this.laysOutHere(source)) return { slot, shared: false };
    return this.offload?.takesBatch(count) ? { slot, shared: true } : undefined;
  }

  /** `encodeInto` of a whole chunk laid out in a pooled slot of `slot` bytes, lent until the store has it. */
  private writeLaidOut(
    value: StoredValue,
    source: ArrayRegion,
    slot: number,
    ctx: CodecContext,
    options: ChunkWriteOptions,
  ): Promise<void> {
    // A store that cannot delete (e.g. a zarrita.js store) keeps the fill-valued chunk.
    const keepEmpty = options.writeEmptyChunks === true || !value.delete;
    const part = { key: ctx.key, offset: source.offset };
    return withScratch(slot, false, async (room) => {
      const [bytes] = await encodeParts(this.chain, source.chunk, [part], keepEmpty, ctx, room);
      await (bytes ? value.setParts!([bytes], ctx) : value.delete!(ctx));
    });
  }

  /**
   * Whether the stored bytes of chunks decoded into `out` are best read into
   * shared memory: when `out` is a result over shared memory that codec
   * workers write into, reading the stored bytes from there without a copy.
   */
  readsShared(out: ArrayRegion): boolean {
    return this.offload?.enabled() === true && isSharedRegion(out);
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
  private async withStored(
    value: StoredValue,
    ctx: CodecContext,
    shared: boolean,
    use: (stored: Uint8Array | undefined) => Promise<void>,
  ): Promise<void> {
    const bound = this.chain.maxStoredBytes;
    if (!value.getRangeInto || bound > MAX_POOLED_READ_BYTES) return use(await value.get(ctx));
    const range = { offset: 0, length: bound + 1 };
    const options = ctx.signal ? { signal: ctx.signal } : {};
    const whole = await withRangeRead(
      value as StoredValue & Required<Pick<StoredValue, "getRangeInto">>,
      range,
      options,
      async (stored) => (stored === undefined || stored.length <= bound ? use(stored).then(() => true) : false),
      shared,
    );
    if (!whole) await use(await value.get(ctx));
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
    const chain = this.chain;
    const a2b = chain.arrayToBytes;
    if (chain.partialCapable && a2b.encodeInto) {
      if (chain.bytesToBytes.length === 0) return a2b.encodeInto(value, selection, source, chain.bytesSpec, ctx);
      const stored = await value.get(ctx);
      const inner = bytesValue(value.key, stored && (await chain.decodeBytes(stored, ctx)));
      await a2b.encodeInto(inner, selection, source, chain.bytesSpec, ctx);
      const result = inner.current();
      if (result !== undefined) return value.set!(await chain.encodeBytes(result, ctx), ctx);
      return value.delete ? value.delete(ctx) : value.set!(await this.encode(chain.fillChunk(), ctx), ctx);
    }
    const type = chain.dataType;
    const shape = [...chain.spec.shape];
    const whole = selection.every((s, d) => s.start === 0 && s.step === 1 && s.stop === shape[d]);
    // A whole chunk of the `bytes` codec alone, for a store that takes values in pieces and keeps no reference to
    // them: laid out in pooled memory lent until the store has it, instead of a fresh buffer per chunk.
    if (whole && !("fill" in source) && value.setParts) {
      const room = this.encodeRoom(source.chunk, 1);
      if (room && !room.shared) return this.writeLaidOut(value, source, room.slot, ctx, options);
    }
    let chunk: Chunk;
    const stored = whole ? undefined : await value.get(ctx);
    if (stored !== undefined) {
      chunk = await this.decode(stored, ctx);
    } else {
      chunk = { data: type.allocate(product(shape)), shape };
      if (!whole)
        fillSelection(
          chunk,
          blockSlices(
            shape.map(() => 0),
            shape,
          ),
          chain.spec.fillValue,
          type,
        );
    }
    if ("fill" in source) fillSelection(chunk, selection, source.fill, type);
    else copyIntoSelection(source, chunk, selection, type);
    // A store that cannot delete (e.g. a zarrita.js store) keeps the fill-valued chunk.
    if (!options.writeEmptyChunks && value.delete && isAllFill(chunk.data, chain.spec.fillValue, type)) {
      await value.delete(ctx);
      return;
    }
    // The chunk is ours (allocated or decoded above), so its buffer may move to a worker.
    await value.set!(await (this.offload?.encode(chunk, ctx, true) ?? chain.encode(chunk, ctx)), ctx);
  }
}
