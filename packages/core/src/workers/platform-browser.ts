// Codec workers in browsers: module Web Workers, on wherever the page can
// start one. Bundlers see the `new Worker(new URL(...))` pattern and emit the
// worker entry with its imports; `configureCodecWorkers({ createWorker })`
// starts another entry (one that also registers the page's codecs).
import type { CodecWebWorker, FromWorker, PlatformWorker } from "./protocol.js";

/** On where module workers exist (not in service workers, worklets, or runtimes without Web Workers). */
export const workersByDefault: boolean = typeof Worker === "function";

/** A worker per core: the page's thread never decodes (see `callerTurn`), so none is left to it. */
export function defaultPoolSize(): number {
  return Math.max(1, globalThis.navigator?.hardwareConcurrency ?? 2);
}

/**
 * Results are ordinary arrays unless a read asks for shared memory
 * (`GetOptions.shared`): pages hand results to `ImageData`, `TextDecoder`,
 * `Blob` and other workers, which refuse or cannot transfer shared memory.
 * Where the page is cross-origin isolated, workers still write into shared
 * memory, copied once into the result at the end.
 */
export const sharedResultsByDefault: boolean = false;

let createWorker: () => CodecWebWorker = () =>
  new Worker(new URL("./worker-browser.js", import.meta.url), { type: "module", name: "zarrkit codec worker" });

/** Start workers with `factory` from now on (`configureCodecWorkers({ createWorker })`). */
export function useWorkerFactory(factory: () => CodecWebWorker): void {
  createWorker = factory;
}

export function spawnWorker(): PlatformWorker {
  let worker: CodecWebWorker;
  try {
    worker = createWorker();
  } catch (error) {
    // A worker the page may not start (a Content-Security-Policy, an opaque origin) fails like one that cannot load.
    return failedWorker(error instanceof Error ? error : new Error(String(error)));
  }
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    onMessage: (handler) => worker.addEventListener("message", (event) => handler(event.data as FromWorker)),
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

function failedWorker(error: Error): PlatformWorker {
  return {
    post: () => {},
    onMessage: () => {},
    onFailure: (handler) => queueMicrotask(() => handler(error)),
    hold: () => {},
    terminate: () => {},
  };
}

/** The page's thread never takes codec work off the queue: it stays free for the page. */
export const callerTurn: ((run: () => void) => void) | undefined = undefined;
