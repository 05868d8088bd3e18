import type {
  ArrayRegion,
  Chunk,
  CodecContext,
  CodecOptions,
  DimSlice,
  LentRange,
  NumericArray,
} from "@zarrkit/registry";
import type { CodecChain } from "../codec-chain.js";
import { settleAll } from "../concurrency.js";
import { isShared, isSharedRegion, sharedMemory } from "../read-buffers.js";
import { product } from "../selection.js";
import { warnFallback } from "./fallback-warning.js";
import { ownCopy } from "./own-copy.js";
import { codecPool, type PoolReach } from "./pool.js";
import type { EncodedPart, PipelineDescription, SourcePart, StoredPart } from "./protocol.js";
import { type CodecWorkerSetting, type ResolvedWorkerSettings, workerSettings } from "./settings.js";

/** Decoded bytes one batch of `decodeBatches` may hold at most (unless a single chunk is larger). */
const BATCH_BYTES = 2 * 2 ** 20;

/** Where a batch's stored bytes lie in its input: `length` bytes from `start`. */
export interface Span {
  start: number;
  length: number;
}

/** The bytes `parts` lie in, from the first one's start to the last one's end. */
function spanOf(parts: readonly StoredPart[]): Span {
  let start = Number.POSITIVE_INFINITY;
  let end = 0;
  for (const part of parts) {
    start = Math.min(start, part.offset);
    end = Math.max(end, part.offset + part.length);
  }
  return { start, length: end - start };
}

/** Bigints and byte arrays (fill values) in a form JSON keeps apart from numbers and lists. */
function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return { bigint: value.toString() };
  if (value instanceof Uint8Array) return { bytes: Array.from(value) };
  return value;
}

/** `view` if its buffer is wholly its own, else a copy: a transfer must not detach bytes someone else still reads. */
function ownBuffer<T extends NumericArray>(view: T): T {
  const whole =
    view.byteOffset === 0 && view.byteLength === view.buffer.byteLength && view.buffer instanceof ArrayBuffer;
  return whole ? view : ownCopy(view);
}

/**
 * Sends a chain's work to the codec workers: whole chunks when they are large
 * enough to pay for the trip, and batches of chunks (a shard's range) that a
 * worker decodes straight into a result over shared memory. Chains a worker
 * cannot rebuild (options that cannot be cloned, codecs no worker module
 * registers) stay on the calling thread from the first refusal on.
 */
export class PipelineOffload {
  private description: PipelineDescription | undefined;
  private refused = false;
  /** A worker had no reader for a lent range: bytes are read on the calling thread from then on. */
  private unreadable = false;
  private readonly chunkBytes: number;

  private constructor(
    private readonly chain: CodecChain,
    private readonly codecOptions: CodecOptions,
    private readonly setting: CodecWorkerSetting | undefined,
  ) {
    const { shape, dataType } = chain.spec;
    this.chunkBytes = product(shape) * dataType.byteSize!;
  }

  /**
   * The offload of a chain whose chunks can travel: fixed-size elements,
   * which move as one buffer (strings are JS arrays), and no codec that runs
   * pipelines of its own (sharding: its inner chunks go to workers instead).
   */
  static forChain(
    chain: CodecChain,
    codecOptions: CodecOptions,
    setting: CodecWorkerSetting | undefined,
  ): PipelineOffload | undefined {
    const { arrayToBytes: a2b, spec } = chain;
    if (a2b.decodeInto || a2b.encodeInto || spec.dataType.byteSize === undefined || spec.dataType.kind === "string")
      return undefined;
    return new PipelineOffload(chain, codecOptions, setting);
  }

  /** Whether workers are on for this chain now (and it can be described to them). */
  enabled(): boolean {
    return this.settings() !== undefined;
  }

  private settings(): ResolvedWorkerSettings | undefined {
    if (this.refused) return undefined;
    const settings = workerSettings(this.setting);
    return settings.enabled && this.describe() ? settings : undefined;
  }

  /**
   * Whether `count` chunks are worth sending to the workers as batches now (workers on, shared memory, enough bytes).
   */
  takesBatch(count: number): boolean {
    const settings = this.settings();
    return settings !== undefined && sharedMemory() && count * this.chunkBytes >= settings.threshold;
  }

  /** How to spread one whole chunk over the workers now, or undefined to stay on this thread. */
  private chunkReach(callerHelps = true): PoolReach | undefined {
    const settings = this.settings();
    if (!settings || !this.chain.computes || this.chunkBytes < settings.threshold) return undefined;
    return { size: settings.size, offloadAlone: settings.offloadAlone, callerHelps };
  }

  private describe(): PipelineDescription | undefined {
    if (!this.description && !this.refused) {
      const { shape, dataType, fillValue } = this.chain.spec;
      const limit = this.chain.maxDecodedChunkBytes;
      const parts = {
        codecs: this.chain.toJSON(),
        shape: [...shape],
        dataType: dataType.name,
        fillValue,
        codecOptions: this.codecOptions,
        ...(limit !== undefined && { maxDecodedChunkBytes: limit }),
      };
      try {
        structuredClone(parts);
        this.description = { id: JSON.stringify(parts, jsonSafe), ...parts };
      } catch (error) {
        this.refused = true;
        warnFallback(
          `the pipeline ${parts.codecs.map((codec) => codec.name).join(" -> ")} cannot be sent to a worker ` +
            `(${(error as Error).message})`,
        );
      }
    }
    return this.description;
  }

  /**
   * Decode on a worker, or undefined when this chunk is decoded here. The input is copied: stores may share what they
   * return.
   */
  decode(bytes: Uint8Array, ctx: CodecContext): Promise<Chunk> | undefined {
    return this.decodeThen(
      bytes,
      ctx,
      (chunk) => chunk,
      () => this.chain.decode(bytes, ctx),
    );
  }

  /**
   * `use` of the chunk a worker decodes, or `here()` when the pool runs the
   * job on this thread; undefined when this chunk is decoded here.
   */
  decodeThen<R>(
    bytes: Uint8Array,
    ctx: CodecContext,
    use: (chunk: Chunk) => R,
    here: () => Promise<R>,
  ): Promise<R> | undefined {
    const reach = this.chunkReach();
    if (reach === undefined) return undefined;
    return codecPool().run<R>(
      {
        task: (id) => {
          const input = ownCopy(bytes);
          return {
            message: { type: "decode", id, pipeline: this.description!, key: ctx.key, input },
            transfer: [input.buffer as ArrayBuffer],
          };
        },
        settle: (reply) => (reply.type === "done" ? use(reply.output as Chunk) : this.refuse(here)),
        here,
      },
      reach,
    );
  }

  /**
   * Decode `selection` of the chunk into `out`, a region of a result over
   * shared memory: the worker writes it there itself, so nothing comes back
   * but word that it is done. `here()` when the pool runs the job on this
   * thread; undefined when this chunk is decoded here.
   */
  decodeShared(
    bytes: Uint8Array,
    ctx: CodecContext,
    selection: DimSlice[],
    out: ArrayRegion,
    here: () => Promise<void>,
  ): Promise<void> | undefined {
    // The calling thread only plans and waits: the workers write the result.
    const reach = this.chunkReach(false);
    if (reach === undefined) return undefined;
    return codecPool().run<void>(
      {
        task: (id) => {
          // Bytes in shared memory (a pooled read buffer, lent until this job settles) reach the worker as they are.
          const input = isShared(bytes) ? bytes : ownCopy(bytes);
          const message = {
            type: "decodeInto" as const,
            id,
            pipeline: this.description!,
            key: ctx.key,
            input,
            selection,
            out,
          };
          return { message, transfer: input === bytes ? [] : [input.buffer as ArrayBuffer] };
        },
        settle: (reply) => (reply.type === "written" ? undefined : this.refuse(here)),
        here,
      },
      reach,
    );
  }

  /**
   * Whether `count` chunks are worth lending to the workers, which read their
   * bytes themselves (`decodeBatches`): as batches, and more than one unless
   * lone work goes too (`offloadAlone`), as the pool does a lone batch on the
   * calling thread, which would then read it after all.
   */
  takesLent(count: number): boolean {
    const settings = this.settings();
    if (!settings || this.unreadable || !this.takesBatch(count)) return false;
    return settings.offloadAlone || count > this.perBatch(count, settings.size);
  }

  /** Parts per batch: at most BATCH_BYTES decoded, and no fewer batches than workers. */
  private perBatch(count: number, workers: number): number {
    return Math.max(1, Math.min(Math.floor(BATCH_BYTES / this.chunkBytes), Math.ceil(count / workers)));
  }

  /**
   * Read the lent window whole into `bytes` (shared memory) on a worker, and
   * say how many bytes it held; `here()` when the pool runs it on this
   * thread, or a worker has no reader for it. Undefined when workers are off
   * for this chain.
   */
  readLent(
    lent: LentRange,
    bytes: Uint8Array,
    ctx: CodecContext,
    here: () => Promise<number | undefined>,
  ): Promise<number | undefined> | undefined {
    const settings = this.settings();
    if (!settings || this.unreadable || !isShared(bytes)) return undefined;
    // I/O, not computation: always worth a worker, which spares this thread the body's bytes.
    const reach: PoolReach = { size: settings.size, offloadAlone: true, callerHelps: false };
    const read = { source: lent.source, offset: lent.offset, start: 0, length: lent.length };
    return codecPool().run<number | undefined>(
      {
        task: (id) => ({ message: { type: "read", id, key: ctx.key, read, input: bytes }, transfer: [] }),
        settle: (reply) => {
          if (reply.type === "done") return reply.output as number | undefined;
          if (reply.type === "unreadable") return this.cannotRead(reply.reason, here);
          return here();
        },
        here,
      },
      reach,
    );
  }

  /** Workers cannot read this source (no worker module registers its reader): bytes are read here from now on. */
  private cannotRead<R>(reason: string, here: () => Promise<R>): Promise<R> {
    this.unreadable = true;
    warnFallback(reason);
    return here();
  }

  /**
   * Decode `parts` (stored chunks side by side in `bytes`, shared memory)
   * into `out` (a result over shared memory) on the workers, a batch of
   * parts per task; `here(batch, span)` when the pool runs a batch on this
   * thread. With `lent`, `bytes` is still to be read (the window `lent`
   * describes, from its start): each worker reads the span of its batch
   * first, and `here` must read it too. Undefined when this decode stays
   * here: workers off, memory not shared, or too little work to pay for a
   * trip. Settles once every batch has.
   */
  decodeBatches(
    bytes: Uint8Array,
    parts: readonly StoredPart[],
    out: ArrayRegion,
    ctx: CodecContext,
    here: (batch: readonly StoredPart[], span: Span) => Promise<void>,
    lent?: LentRange,
  ): Promise<void> | undefined {
    const settings = this.settings();
    if (!settings || !this.takesBatch(parts.length) || !isSharedRegion(out) || !isShared(bytes)) return undefined;
    const reach: PoolReach = { size: settings.size, offloadAlone: settings.offloadAlone, callerHelps: false };
    const perBatch = this.perBatch(parts.length, settings.size);
    // In the order of their bytes, so that lent reads cover each byte once.
    const ordered = lent ? [...parts].sort((a, b) => a.offset - b.offset) : parts;
    const jobs: Promise<void>[] = [];
    for (let first = 0; first < ordered.length; first += perBatch) {
      const batch = ordered.slice(first, first + perBatch);
      const span = spanOf(batch);
      const ranHere = () => here(batch, span);
      const read = lent && { source: lent.source, offset: lent.offset + span.start, ...span };
      jobs.push(
        codecPool().run<void>(
          {
            task: (id) => ({
              message: {
                type: "decodeBatch",
                id,
                pipeline: this.description!,
                key: ctx.key,
                input: bytes,
                parts: batch,
                out: out.chunk,
                ...(read && { read }),
              },
              transfer: [],
            }),
            settle: (reply) => {
              if (reply.type === "written") return undefined;
              if (reply.type === "unreadable") return this.cannotRead(reply.reason, ranHere);
              return this.refuse(ranHere);
            },
            here: ranHere,
          },
          reach,
        ),
      );
    }
    return settleAll(jobs).then(() => undefined);
  }

  /**
   * Encode whole chunks copied out of `source` (shared memory) on the
   * workers, a batch of parts per task: each output, or null for a chunk all
   * fill value (unless `keepEmpty`). `here(batch)` when the pool runs a batch
   * on this thread. Undefined when this work stays here (workers off, too
   * little of it, memory not shared). With `room` (shared memory, `slot`
   * bytes per part), the workers write each output that fits its slot there
   * and it comes back as a view of `room`.
   */
  encodeBatches(
    source: Chunk,
    parts: readonly SourcePart[],
    ctx: CodecContext,
    keepEmpty: boolean,
    here: (batch: readonly SourcePart[]) => Promise<(Uint8Array | null)[]>,
    room?: { buffer: Uint8Array; slot: number },
  ): Promise<(Uint8Array | null)[]> | undefined {
    const settings = this.settings();
    const data = source.data;
    if (!settings || !this.takesBatch(parts.length) || Array.isArray(data) || !isShared(data as Uint8Array))
      return undefined;
    const reach: PoolReach = { size: settings.size, offloadAlone: settings.offloadAlone, callerHelps: false };
    const perBatch = this.perBatch(parts.length, settings.size);
    const jobs: Promise<(Uint8Array | null)[]>[] = [];
    const shared = room && isShared(room.buffer) ? room : undefined;
    const slot = shared?.slot ?? 0;
    for (let start = 0; start < parts.length; start += perBatch) {
      const batch = parts.slice(start, start + perBatch);
      const ranHere = () => here(batch);
      const batchRoom = shared?.buffer.subarray(start * slot, (start + batch.length) * slot);
      // A length stands for the output the worker wrote into its slot of the room.
      const unpacked = (outputs: EncodedPart[]) =>
        outputs.map((output, i) =>
          typeof output === "number" ? batchRoom!.subarray(i * slot, i * slot + output) : output,
        );
      jobs.push(
        codecPool().run(
          {
            task: (id) => ({
              message: {
                type: "encodeBatch",
                id,
                pipeline: this.description!,
                key: ctx.key,
                source,
                parts: batch,
                keepEmpty,
                ...(batchRoom && { room: batchRoom }),
              },
              transfer: [],
            }),
            settle: (reply) => (reply.type === "done" ? unpacked(reply.output as EncodedPart[]) : this.refuse(ranHere)),
            here: ranHere,
          },
          reach,
        ),
      );
    }
    return settleAll(jobs).then((batches) => batches.flat());
  }

  /**
   * Encode on a worker, or undefined when this chunk is encoded here.
   * `owned`: the caller is done with `chunk`, so its buffer may move to the worker.
   */
  encode(chunk: Chunk, ctx: CodecContext, owned: boolean): Promise<Uint8Array> | undefined {
    const reach = this.chunkReach();
    if (reach === undefined) return undefined;
    return codecPool().run<Uint8Array>(
      {
        task: (id) => {
          const data = chunk.data as NumericArray;
          const input = { data: owned ? ownBuffer(data) : ownCopy(data), shape: chunk.shape };
          return {
            message: { type: "encode", id, pipeline: this.description!, key: ctx.key, input },
            transfer: [input.data.buffer as ArrayBuffer],
          };
        },
        settle: (reply) => {
          if (reply.type === "done") return reply.output as Uint8Array;
          // Refused (an encode is never "written"): the chunk comes back, as it may have been moved to the worker.
          return this.refuse(() => this.chain.encode((reply as { input: Chunk }).input, ctx));
        },
        here: () => this.chain.encode(chunk, ctx),
      },
      reach,
    );
  }

  private refuse<R>(here: () => Promise<R>): Promise<R> {
    this.refused = true;
    return here();
  }
}
