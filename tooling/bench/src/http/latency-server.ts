// Child process: serves a directory over HTTP on 127.0.0.1, answering every
// request after a fixed delay (the cloud's round trip, or none), with byte ranges. It
// counts requests and body bytes and reports them to the parent over IPC, so
// that counting costs the measured client nothing.
import { open } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, resolve, sep } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { emptyStats } from "../request-stats.js";
import { parseRange } from "./byte-range.js";
import type { ServerReply, ServerRequest } from "./protocol.js";

const [rootArg, latencyArg] = process.argv.slice(2);
const root = resolve(rootArg!);
const latencyMs = Number(latencyArg);
let stats = emptyStats();

/** Types of the files of the browser case's page (see ../browser); data is octet-stream. */
const TYPES: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".json": "application/json",
  ".wasm": "application/wasm",
};

const server = createServer(async (req, res) => {
  if (latencyMs > 0) await sleep(latencyMs);
  stats.requests++;
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405).end();
    return;
  }
  const path = resolve(root, `.${decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname)}`);
  if (!path.startsWith(root + sep)) {
    res.writeHead(404).end();
    return;
  }
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, "r");
  } catch {
    res.writeHead(404).end();
    return;
  }
  try {
    const info = await file.stat();
    if (!info.isFile()) {
      res.writeHead(404).end();
      return;
    }
    // As nginx does for static files: an ETag from mtime and size, and If-Match honoured.
    const etag = `"${Math.floor(info.mtimeMs).toString(16)}-${info.size.toString(16)}"`;
    const ifMatch = req.headers["if-match"];
    if (ifMatch !== undefined && ifMatch !== "*" && !ifMatch.split(",").some((tag) => tag.trim() === etag)) {
      res.writeHead(412).end();
      return;
    }
    const range = parseRange(req.headers.range, info.size);
    if (range === "unsatisfiable") {
      res.writeHead(416, { "Content-Range": `bytes */${info.size}` }).end();
      return;
    }
    const { start, end } = range ?? { start: 0, end: info.size };
    const headers: Record<string, string | number> = {
      "Content-Length": end - start,
      "Content-Type": TYPES[extname(path)] ?? "application/octet-stream",
      "Accept-Ranges": "bytes",
      ETag: etag,
      // A cross-origin isolated page (SharedArrayBuffer available) in the browser case; nothing for other clients.
      "Cross-Origin-Opener-Policy": "same-origin",
      "Cross-Origin-Embedder-Policy": "require-corp",
    };
    if (range) headers["Content-Range"] = `bytes ${start}-${end - 1}/${info.size}`;
    res.writeHead(range ? 206 : 200, headers);
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    const body = Buffer.allocUnsafe(end - start);
    await file.read(body, 0, body.length, start);
    stats.bytes += body.length;
    res.end(body);
  } finally {
    await file.close();
  }
});

// Idle connections must be closed by the client, never by the server: a
// server closing one just as the client reuses it fails that request.
server.keepAliveTimeout = 10 * 60_000;
server.headersTimeout = server.keepAliveTimeout + 1000;

process.on("message", (message: ServerRequest) => {
  if (message === "reset") stats = emptyStats();
  const reply: ServerReply = { stats };
  process.send!(reply);
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const reply: ServerReply = { port: typeof address === "object" && address ? address.port : 0 };
  process.send!(reply);
});
