/// <reference types="node" />
// Codec workers on Node: worker_threads, on by default (given a second core).
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { CodecWebWorker, FromWorker, PlatformWorker } from "./protocol.js";

/** On wherever there is a second core to use. */
export const workersByDefault: boolean = availableParallelism() > 1;

/** Browsers only: Node's workers always run this package's entry, which imports the registered worker modules. */
export function useWorkerFactory(_factory: () => CodecWebWorker): void {}

/**
 * A worker per core: reads into shared results (the default here) leave the
 * calling thread to plan and wait while the workers decode.
 */
export function defaultPoolSize(): number {
  return availableParallelism();
}

/** Results are over shared memory unless a read asks otherwise (`GetOptions.shared`): the workers write into them. */
export const sharedResultsByDefault: boolean = true;

// Published, the entry next to this file is JavaScript. Run from the
// TypeScript sources (this repository's tests) it is the .ts file, which plain
// Node loads with the hooks of tooling/config/node-ts-hooks.js that the test
// processes pass on to their workers.
const ENTRY = new URL(import.meta.url.endsWith(".ts") ? "./worker-node.ts" : "./worker-node.js", import.meta.url);

export function spawnWorker(): PlatformWorker {
  // Held (ref'd) until the pool lets it go once ready: a start must finish for whoever awaits it.
  const worker = new Worker(ENTRY, { name: "zarrkit codec worker" });
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    onMessage: (handler) => worker.on("message", (message: FromWorker) => handler(message)),
    onFailure: (handler) => {
      worker.on("error", handler);
      worker.on("exit", (code) => handler(new Error(`The codec worker exited with code ${code}`)));
    },
    hold: (busy) => (busy ? worker.ref() : worker.unref()),
    terminate: () => worker.terminate().then(() => {}),
  };
}

/**
 * How the calling thread takes its turn at queued codec work: after pending
 * events (worker replies, I/O), so the workers are kept fed. Node's thread
 * helps; a browser's is left to the page.
 */
export const callerTurn: ((run: () => void) => void) | undefined = (run) => setImmediate(run);
