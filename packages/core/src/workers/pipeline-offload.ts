import type { ArrayRegion, Chunk, ChunkSpec, CodecContext, CodecMetadata, CodecOptions, DimSlice, NumericArray } from "@zarrkit/registry";
import { product } from "../selection.js";
import { warnFallback } from "./fallback-warning.js";
import { ownCopy } from "./own-copy.js";
import { codecPool, type PoolReach } from "./pool.js";
import type { PipelineDescription } from "./protocol.js";
import { type CodecWorkerSetting, workerSettings } from "./settings.js";

/** What the offload needs of a pipeline: what a worker rebuilds it from, and how to do the work on this thread. */
export interface OffloadablePipeline {
  readonly spec: ChunkSpec;
  readonly maxDecodedChunkBytes: number | undefined;
  toJSON(): CodecMetadata[];
  decodeInline(bytes: Uint8Array, ctx: CodecContext): Promise<Chunk>;
  decodeRegion(bytes: Uint8Array, ctx: CodecContext, selection: DimSlice[], out: ArrayRegion): Promise<void>;
  encodeInline(chunk: Chunk, ctx: CodecContext): Promise<Uint8Array>;
}

/** Bigints and byte arrays (fill values) in a form JSON keeps apart from numbers and lists. */
function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return { bigint: value.toString() };
  if (value instanceof Uint8Array) return { bytes: Array.from(value) };
  return value;
}

/** `view` if its buffer is wholly its own, else a copy: a transfer must not detach bytes someone else still reads. */
function ownBuffer<T extends NumericArray>(view: T): T {
  const whole = view.byteOffset === 0 && view.byteLength === view.buffer.byteLength && view.buffer instanceof ArrayBuffer;
  return whole ? view : ownCopy(view);
}

/**
 * Sends a pipeline's whole-chunk decode and encode to the codec workers when
 * the chunk is large enough to pay for the trip. Pipelines a worker cannot
 * rebuild (options that cannot be cloned, codecs no worker module registers)
 * stay on the calling thread from the first refusal on.
 */
export class PipelineOffload {
  private description: PipelineDescription | undefined;
  private refused = false;
  private readonly chunkBytes: number;

  constructor(
    private readonly pipeline: OffloadablePipeline,
    private readonly codecOptions: CodecOptions,
    private readonly setting: CodecWorkerSetting | undefined,
  ) {
    const { shape, dataType } = pipeline.spec;
    this.chunkBytes = product(shape) * dataType.byteSize!;
  }

  /** Whether chunks of this pipeline go to workers now (when the pool finds one free). */
  offloads(): boolean {
    return this.reach() !== undefined;
  }

  /** How to spread a chunk over the workers now, or undefined to stay on this thread. */
  private reach(): PoolReach | undefined {
    if (this.refused) return undefined;
    const settings = workerSettings(this.setting);
    if (!settings.enabled || this.chunkBytes < settings.threshold) return undefined;
    if (!this.describe()) return undefined;
    return settings;
  }

  private describe(): PipelineDescription | undefined {
    if (!this.description && !this.refused) {
      const { shape, dataType, fillValue } = this.pipeline.spec;
      const limit = this.pipeline.maxDecodedChunkBytes;
      const parts = {
        codecs: this.pipeline.toJSON(),
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
        warnFallback(`the pipeline ${parts.codecs.map((codec) => codec.name).join(" -> ")} cannot be sent to a worker (${(error as Error).message})`);
      }
    }
    return this.description;
  }

  /** Decode on a worker, or undefined when this chunk is decoded here. The input is copied: stores may share what they return. */
  decode(bytes: Uint8Array, ctx: CodecContext): Promise<Chunk> | undefined {
    return this.decodeThen(bytes, ctx, (chunk) => chunk, () => this.pipeline.decodeInline(bytes, ctx));
  }

  /**
   * `use` of the chunk a worker decodes, or `here()` when the pool runs the
   * job on this thread; undefined when this chunk is decoded here.
   */
  decodeThen<R>(bytes: Uint8Array, ctx: CodecContext, use: (chunk: Chunk) => R, here: () => Promise<R>): Promise<R> | undefined {
    const reach = this.reach();
    if (reach === undefined) return undefined;
    return codecPool().run<R>(
      {
        task: (id) => {
          const input = ownCopy(bytes);
          return { message: { type: "decode", id, pipeline: this.description!, key: ctx.key, input }, transfer: [input.buffer as ArrayBuffer] };
        },
        settle: (reply) => (reply.type === "done" ? use(reply.output as Chunk) : this.refuse(here)),
        here,
      },
      reach,
    );
  }

  /**
   * Decode `selection` of the chunk into `out()`, a region of shared memory
   * (a result over a SharedArrayBuffer, a pooled scratch buffer) asked for
   * when a worker takes the job: the worker writes it there itself, so
   * nothing comes back but word that it is done (true). `here()` when the
   * pool runs the job on this thread (false); undefined when this chunk is
   * decoded here.
   */
  decodeShared(bytes: Uint8Array, ctx: CodecContext, selection: DimSlice[], out: () => ArrayRegion, here: () => Promise<void>): Promise<boolean> | undefined {
    const reach = this.reach();
    if (reach === undefined) return undefined;
    const ranHere = () => here().then(() => false);
    return codecPool().run<boolean>(
      {
        task: (id) => {
          // Bytes in shared memory (a pooled read buffer, lent until this job settles) reach the worker as they are.
          const input = bytes.buffer instanceof SharedArrayBuffer ? bytes : ownCopy(bytes);
          const message = { type: "decodeInto" as const, id, pipeline: this.description!, key: ctx.key, input, selection, out: out() };
          return { message, transfer: input === bytes ? [] : [input.buffer as ArrayBuffer] };
        },
        settle: (reply) => (reply.type === "written" ? true : this.refuse(ranHere)),
        here: ranHere,
      },
      reach,
    );
  }

  /**
   * Encode on a worker, or undefined when this chunk is encoded here.
   * `owned`: the caller is done with `chunk`, so its buffer may move to the worker.
   */
  encode(chunk: Chunk, ctx: CodecContext, owned: boolean): Promise<Uint8Array> | undefined {
    const reach = this.reach();
    if (reach === undefined) return undefined;
    return codecPool().run<Uint8Array>(
      {
        task: (id) => {
          const data = chunk.data as NumericArray;
          const input = { data: owned ? ownBuffer(data) : ownCopy(data), shape: chunk.shape };
          return { message: { type: "encode", id, pipeline: this.description!, key: ctx.key, input }, transfer: [input.data.buffer as ArrayBuffer] };
        },
        settle: (reply) => {
          if (reply.type === "done") return reply.output as Uint8Array;
          // Refused (an encode is never "written"): the chunk comes back, as it may have been moved to the worker.
          return this.refuse(() => this.pipeline.encodeInline((reply as { input: Chunk }).input, ctx));
        },
        here: () => this.pipeline.encodeInline(chunk, ctx),
      },
      reach,
    );
  }

  private refuse<R>(here: () => Promise<R>): Promise<R> {
    this.refused = true;
    return here();
  }
}
