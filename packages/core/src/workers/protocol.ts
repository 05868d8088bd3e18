import type {
  ArrayRegion,
  Chunk,
  CodecMetadata,
  CodecOptions,
  DimSlice,
  NumericArray,
  RangeSource,
  Scalar,
} from "@zarrkit/registry";
import type { WireError } from "./wire-error.js";

/** A stored chunk inside a larger buffer (a shard's range), and where its selection lands in the result. */
export interface StoredPart {
  /** The chunk's key, for errors. */
  key: string;
  /** Where its stored bytes start in the buffer. */
  offset: number;
  /** How many stored bytes it has. */
  length: number;
  /** The part of the chunk wanted. */
  selection: DimSlice[];
  /** Where that part's first element lands in the result. */
  outOffset: number[];
}

/** Bytes a worker reads into its batch's input: `length` bytes of `source` from `offset`, into the input at `start`. */
export interface BatchRead {
  source: RangeSource;
  offset: number;
  start: number;
  length: number;
}

/** A whole chunk to encode, copied out of a larger source array from `offset`. */
export interface SourcePart {
  /** The chunk's key, for errors. */
  key: string;
  /** Where the chunk's first element is in the source. */
  offset: number[];
}

/** What a worker needs to rebuild a pipeline; `id` is its cache key there. */
export interface PipelineDescription {
  id: string;
  codecs: CodecMetadata[];
  shape: number[];
  dataType: string;
  fillValue: Scalar;
  codecOptions: CodecOptions;
  /** The pipeline's bound on decoded bytes where sizes are not fixed (`ArrayOptions.maxDecodedChunkBytes`). */
  maxDecodedChunkBytes?: number;
}

export type TaskMessage =
  | { type: "decode"; id: number; pipeline: PipelineDescription; key: string; input: Uint8Array }
  /**
   * Decode and write `selection` of the chunk into `out`, a region of a result over a SharedArrayBuffer; the reply is
   * "written".
   */
  | {
      type: "decodeInto";
      id: number;
      pipeline: PipelineDescription;
      key: string;
      input: Uint8Array;
      selection: DimSlice[];
      out: ArrayRegion;
    }
  /**
   * Decode each part (a stored chunk inside `input`, shared memory) into its
   * place in `out`, a result over a SharedArrayBuffer; the reply is "written".
   * With `read`, the worker first reads the parts' bytes into `input` itself
   * (a lent range, see `BatchRead`); "unreadable" when it has no reader for it.
   */
  | {
      type: "decodeBatch";
      id: number;
      pipeline: PipelineDescription;
      key: string;
      input: Uint8Array;
      parts: StoredPart[];
      out: Chunk;
      read?: BatchRead;
    }
  /**
   * Encode whole chunks, each copied out of `source` (shared memory) from
   * its `offset`; a chunk all fill value is left out (null) unless `keepEmpty`.
   * The reply is "done" with one output per part. With `room` (shared
   * memory, a slot of the chunk's decoded size per part), an output that
   * fits its slot is written there and replied as its length.
   */
  | {
      type: "encodeBatch";
      id: number;
      pipeline: PipelineDescription;
      key: string;
      source: Chunk;
      parts: SourcePart[];
      keepEmpty: boolean;
      room?: Uint8Array;
    }
  | { type: "encode"; id: number; pipeline: PipelineDescription; key: string; input: Chunk }
  /**
   * Read `read` (a lent range) into `input` (shared memory); the reply is
   * "done" with the bytes read (fewer where the value ends; undefined when
   * there is no value), or "unreadable".
   */
  | { type: "read"; id: number; key: string; read: BatchRead; input: Uint8Array }
  /** Copy `input` (a result over shared memory) into an ordinary array; the reply is "done" with it, moved. */
  | { type: "copyOut"; id: number; input: NumericArray };

/** An "encodeBatch" output: null (all fill value), its length in its slot of the task's room, or bytes of its own. */
export type EncodedPart = Uint8Array | number | null;

export type ToWorker = { type: "modules"; modules: string[] } | TaskMessage;

export type TaskReply =
  | { type: "done"; id: number; output: Chunk | Uint8Array | EncodedPart[] | NumericArray | number | undefined }
  /** A "decodeInto" task's chunk (or a "decodeBatch" task's chunks) is in the shared result. */
  | { type: "written"; id: number }
  | { type: "failed"; id: number; error: WireError }
  /** The worker has no range reader for a task's `read` ("decodeBatch", "read"): no worker module registers it. */
  | { type: "unreadable"; id: number; reason: string }
  /**
   * The worker cannot build the pipeline (a codec no worker module registers):
   * the input comes back untouched (none when it was shared memory, which the caller still holds).
   */
  | { type: "unavailable"; id: number; reason: string; input?: Uint8Array | Chunk };

export type FromWorker = { type: "ready" } | TaskReply;

/** The parts of a Web Worker the pool uses (a DOM `Worker` is one). */
export interface CodecWebWorker {
  /** Sends codec work, moving the listed buffers. */
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  /** Replies of the worker. */
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  /** The worker could not load (a missing file) or failed. */
  addEventListener(type: "error", listener: (event: { message?: string; preventDefault(): void }) => void): void;
  /** Stops the worker (`closeCodecWorkers()`). */
  terminate(): void;
}

/** The one end of a worker both runtimes provide. */
export interface WorkerPort {
  post(message: ToWorker | FromWorker, transfer: ArrayBuffer[]): void;
}

/** A running worker as the pool sees it. */
export interface PlatformWorker extends WorkerPort {
  onMessage(handler: (message: FromWorker) => void): void;
  /** The worker could not start, crashed or exited. */
  onFailure(handler: (error: Error) => void): void;
  /**
   * Whether the worker keeps the process alive: while it starts and while it has work, never when idle (Node; a no-op
   * in browsers).
   */
  hold(busy: boolean): void;
  /** Stops the worker; settles once it has stopped, where the platform tells. */
  terminate(): Promise<void> | void;
}
