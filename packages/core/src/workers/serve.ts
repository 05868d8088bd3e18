// The worker's side: rebuild codec chains from their description with this
// thread's registry, run them here and send the results back without copies.
import "../register.js";
import {
  type Chunk,
  type NumericArray,
  type RangeReader,
  rangeReader,
  StoreError,
  ZarrkitError,
} from "@zarrkit/registry";
import { chunkSlot, decodeParts, encodeParts } from "../batch-work.js";
import { dataType } from "../data-types.js";
import { changedWhileRead, isShared } from "../read-buffers.js";
import { CodecChain } from "../codec-chain.js";
import type {
  BatchRead,
  EncodedPart,
  PipelineDescription,
  TaskMessage,
  TaskReply,
  ToWorker,
  WorkerPort,
} from "./protocol.js";
import { ownCopy } from "./own-copy.js";
import { configureCodecWorkers } from "./settings.js";
import { toWire } from "./wire-error.js";

/** `bytes` if they fill a transferable buffer of their own, else a copy that does. */
function ownBuffer(bytes: Uint8Array): Uint8Array {
  const whole =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  return whole ? bytes : ownCopy(bytes);
}

function isSharedInput(input: Uint8Array | Chunk): boolean {
  const view = "shape" in input ? input.data : input;
  return !Array.isArray(view) && isShared(view as Uint8Array);
}

/**
 * Read lent bytes into their place in `input`, returning how many there were (undefined: no value). A reader's count
 * outside [0, length] is a StoreError naming the key and the reader: the bytes it says it read were never written.
 */
async function readLent(
  reader: RangeReader,
  read: BatchRead,
  input: Uint8Array,
  key: string,
): Promise<number | undefined> {
  let got: number | undefined;
  try {
    got = await reader(read.source, read.offset, input.subarray(read.start, read.start + read.length));
  } catch (error) {
    if (error instanceof ZarrkitError) throw error;
    throw new StoreError(`Reading ${JSON.stringify(key)} in a codec worker failed: ${toWire(error).message}`, { key });
  }
  if (got !== undefined && !(Number.isSafeInteger(got) && got >= 0 && got <= read.length)) {
    throw new StoreError(
      `The range reader ${JSON.stringify(read.source.reader)} read ${String(got)} bytes of ${JSON.stringify(key)} ` +
        `into ${read.length}`,
      { key },
    );
  }
  return got;
}

/** The reader of a lent range in this worker, or the reason there is none. */
function readerFor(read: BatchRead): RangeReader | string {
  const name = read.source.reader;
  return rangeReader(name) ?? `no codec worker module registers the range reader ${JSON.stringify(name)}`;
}

/** Pipelines kept per worker; arrays rarely have more than a few chunk shapes. */
const CACHE_LIMIT = 64;

export function serveCodecWorker(port: WorkerPort, listen: (handler: (message: ToWorker) => void) => void): void {
  // Pipelines built here run here: a worker never hands work to workers of its own.
  configureCodecWorkers({ enabled: false });
  const pipelines = new Map<string, Promise<CodecChain>>();
  const moduleFailures: string[] = [];
  let loading: Promise<unknown> = Promise.resolve();

  const pipelineFor = (description: PipelineDescription): Promise<CodecChain> => {
    let pipeline = pipelines.get(description.id);
    if (!pipeline) {
      if (pipelines.size >= CACHE_LIMIT) pipelines.delete(pipelines.keys().next().value!);
      const { codecs, shape, fillValue, codecOptions, maxDecodedChunkBytes } = description;
      const spec = { shape, dataType: dataType(description.dataType), fillValue };
      // The caps on decoded bytes are computed again here, from the same codecs, shape and bound.
      pipeline = CodecChain.create(codecs, spec, {
        codecOptions,
        ...(maxDecodedChunkBytes !== undefined && { maxDecodedChunkBytes }),
      });
      pipelines.set(description.id, pipeline);
      pipeline.catch(() => pipelines.delete(description.id));
    }
    return pipeline;
  };

  /** Post the reply built around `carried`, moving its buffer rather than copying it. */
  const send = (carried: Chunk | Uint8Array, reply: (moved: Chunk | Uint8Array) => TaskReply) => {
    const view = "shape" in carried ? (carried.data as NumericArray) : carried;
    // The whole buffer goes when the array fills most of it (a checksum stripped off its end), else a copy of the
    // array.
    if (view.byteLength * 2 >= view.buffer.byteLength) {
      try {
        return port.post(reply(carried), [view.buffer as ArrayBuffer]);
      } catch {
        // Not transferable (WebAssembly memory, in browsers): send a copy.
      }
    }
    const copy = ownCopy(view);
    port.post(reply("shape" in carried ? { ...carried, data: copy } : (copy as Uint8Array)), [
      copy.buffer as ArrayBuffer,
    ]);
  };

  const read = async (task: TaskMessage & { type: "read" }) => {
    try {
      const reader = readerFor(task.read);
      if (typeof reader === "string") return port.post({ type: "unreadable", id: task.id, reason: reader }, []);
      const got = await readLent(reader, task.read, task.input, task.key);
      port.post({ type: "done", id: task.id, output: got }, []);
    } catch (error) {
      port.post({ type: "failed", id: task.id, error: toWire(error) }, []);
    }
  };

  const run = async (task: TaskMessage) => {
    await loading;
    if (task.type === "read") return read(task);
    if (task.type === "copyOut") {
      try {
        const copy = task.input.slice() as NumericArray;
        return port.post({ type: "done", id: task.id, output: copy }, [copy.buffer as ArrayBuffer]);
      } catch (error) {
        return port.post({ type: "failed", id: task.id, error: toWire(error) }, []);
      }
    }
    let pipeline: CodecChain;
    try {
      pipeline = await pipelineFor(task.pipeline);
    } catch (error) {
      const why = [toWire(error).message, ...moduleFailures].join("; ");
      if (task.type === "encodeBatch" || isSharedInput(task.input))
        return port.post({ type: "unavailable", id: task.id, reason: why }, []);
      return send(task.input, (input) => ({ type: "unavailable", id: task.id, reason: why, input }));
    }
    try {
      const ctx = { key: task.key };
      if (task.type === "encodeBatch") {
        const outputs = await encodeParts(pipeline, task.source, task.parts, task.keepEmpty, ctx);
        const slot = task.room ? (chunkSlot(pipeline)?.bytes ?? 0) : 0;
        const transfer: ArrayBuffer[] = [];
        // Outputs that fit their slot of the room go there: no buffer per chunk crosses to the calling thread.
        const placed = outputs.map((bytes, i): EncodedPart => {
          if (!bytes) return null;
          if (bytes.length <= slot) {
            task.room!.set(bytes, i * slot);
            return bytes.length;
          }
          const own = ownBuffer(bytes);
          transfer.push(own.buffer as ArrayBuffer);
          return own;
        });
        return port.post({ type: "done", id: task.id, output: placed }, transfer);
      }
      if (task.type === "decodeBatch") {
        if (task.read) {
          const reader = readerFor(task.read);
          if (typeof reader === "string") return port.post({ type: "unreadable", id: task.id, reason: reader }, []);
          // Each batch's span is within the value as lent: a short read means it changed since.
          const got = await readLent(reader, task.read, task.input, task.key);
          if (got !== task.read.length) throw changedWhileRead(task.key, task.read.offset + (got ?? 0));
        }
        await decodeParts(pipeline, task.input, task.parts, task.out, ctx);
        return port.post({ type: "written", id: task.id }, []);
      }
      if (task.type === "decodeInto") {
        await pipeline.decodeRegion(task.input, ctx, task.selection, task.out);
        return port.post({ type: "written", id: task.id }, []);
      }
      const output =
        task.type === "decode" ? await pipeline.decode(task.input, ctx) : await pipeline.encode(task.input, ctx);
      send(output, (moved) => ({ type: "done", id: task.id, output: moved }));
    } catch (error) {
      port.post({ type: "failed", id: task.id, error: toWire(error) }, []);
    }
  };

  listen((message) => {
    if (message.type !== "modules") {
      void run(message);
      return;
    }
    const importing = message.modules.map((specifier) =>
      import(/* @vite-ignore */ specifier).catch((error) => {
        moduleFailures.push(`worker module ${specifier} failed to load: ${toWire(error).message}`);
      }),
    );
    loading = Promise.all([loading, ...importing]);
  });
  port.post({ type: "ready" }, []);
}
