import { sharedResultsByDefault } from "#worker-platform";
import type { DataType } from "./data-types.js";
import { sharedMemory } from "./read-buffers.js";
import { type CodecWorkerSetting, workerSettings } from "./workers/settings.js";

/**
 * How a read holds its result: over shared memory (which codec workers write into), and whether it is copied out of it
 * at the end.
 */
export interface ResultMemory {
  /** The result is allocated over a SharedArrayBuffer. */
  shared: boolean;
  /** ... and copied into an ordinary array once read, because the caller did not ask for shared memory. */
  copyOut: boolean;
}

/**
 * Where codec workers can write a result themselves (typed data, shared
 * memory in this runtime, workers on), the result is over shared memory and
 * the calling thread only plans the reads and waits. `asked` is the read's
 * `shared` option; by default Node keeps the shared result and browsers copy
 * it into an ordinary array (see `sharedResultsByDefault`).
 */
export function resultMemory(
  type: DataType,
  workers: CodecWorkerSetting | undefined,
  asked: boolean | undefined,
): ResultMemory {
  if (type.arrayType === undefined || !sharedMemory()) return { shared: false, copyOut: false };
  if (asked ?? sharedResultsByDefault) return { shared: true, copyOut: false };
  const workersWrite = workerSettings(workers).enabled;
  return { shared: workersWrite, copyOut: workersWrite };
}
