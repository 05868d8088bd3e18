// Codec workers in browsers: module Web Workers, off unless configured (the
// page decides what its threads do). Bundlers see the `new Worker(new URL(...))`
// pattern and emit the worker entry with its imports.
import type { FromWorker, PlatformWorker } from "./protocol.js";

export const workersByDefault: boolean = false;

export function defaultPoolSize(): number {
  return Math.max(1, (globalThis.navigator?.hardwareConcurrency ?? 2) - 1);
}

export function spawnWorker(): PlatformWorker {
  const worker = new Worker(new URL("./worker-browser.js", import.meta.url), { type: "module", name: "zarrkit codec worker" });
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    onMessage: (handler) => worker.addEventListener("message", (event: MessageEvent<FromWorker>) => handler(event.data)),
    onFailure: (handler) => {
      worker.addEventListener("error", (event) => {
        event.preventDefault();
        handler(new Error(event.message || "The codec worker failed to load"));
      });
    },
    hold: () => {},
    terminate: () => worker.terminate(),
  };
}

/** The page's thread never takes codec work off the queue: it stays free for the page. */
export const callerTurn: ((run: () => void) => void) | undefined = undefined;
