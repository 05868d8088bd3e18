// Entry of a codec Web Worker (a module worker).
import type { ToWorker } from "./protocol.js";
import { serveCodecWorker } from "./serve.js";

/** The parts of DedicatedWorkerGlobalScope used here (the DOM library describes windows, not workers). */
interface WorkerScope {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: "message", listener: (event: MessageEvent<ToWorker>) => void): void;
}

const scope = globalThis as unknown as WorkerScope;
serveCodecWorker({ post: (message, transfer) => scope.postMessage(message, transfer) }, (handler) =>
  scope.addEventListener("message", (event) => handler(event.data)),
);
