/// <reference types="node" />
// Entry of a codec worker thread on Node.
import { parentPort } from "node:worker_threads";
import type { ToWorker } from "./protocol.js";
import { serveCodecWorker } from "./serve.js";

const port = parentPort!;
serveCodecWorker({ post: (message, transfer) => port.postMessage(message, transfer) }, (handler) =>
  port.on("message", (message: ToWorker) => handler(message)),
);
