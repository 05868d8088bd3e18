// The demo's one local server: the built app and the sample data from 127.0.0.1,
// with what the browser's zarrkit stores need of HTTP: Range requests, strong
// ETags (the sharding codec caches shard indexes by version), If-Match, and CORS
// so the data can be opened from another origin too.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { extname, resolve, sep } from "node:path";
import { parseRange } from "./range.js";

export interface ServedRequest {
  method: string;
  /** The path, decoded, e.g. "/data/volume.zarr/sharded/c/0/0/0". */
  path: string;
  range?: string;
  status: number;
  bytes: number;
}

export interface ServeOptions {
  /** The built app (index.html and its assets). */
  appDir: string;
  /** Served under /data/. */
  dataDir: string;
  port?: number;
  host?: string;
  /** Called once per answered request, e.g. to count them. */
  onRequest?: (request: ServedRequest) => void;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".webmanifest": "application/manifest+json",
  ".wasm": "application/wasm",
};

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "Content-Range, Content-Length, ETag, Accept-Ranges",
};

/** The file a URL path names under `root`, or undefined when it escapes it. */
function fileUnder(root: string, path: string): string | undefined {
  const file = resolve(root, `.${path}`);
  return file === root || file.startsWith(root + sep) ? file : undefined;
}

function target(options: ServeOptions, path: string): string | undefined {
  if (path === "/data" || path.startsWith("/data/"))
    return fileUnder(resolve(options.dataDir), path.slice("/data".length) || "/");
  return fileUnder(resolve(options.appDir), path === "/" ? "/index.html" : path);
}

async function answer(
  options: ServeOptions,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<{ status: number; bytes: number }> {
  if (req.method === "OPTIONS") {
    res.writeHead(204, {
      ...CORS,
      "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
      "Access-Control-Allow-Headers": "Range, If-Match, If-None-Match",
      "Access-Control-Max-Age": "600",
    });
    res.end();
    return { status: 204, bytes: 0 };
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { ...CORS, Allow: "GET, HEAD, OPTIONS" });
    res.end();
    return { status: 405, bytes: 0 };
  }
  const file = target(options, path);
  const info = file ? await stat(file).catch(() => undefined) : undefined;
  if (!file || !info?.isFile()) {
    res.writeHead(404, { ...CORS, "Content-Type": "text/plain" });
    res.end(`Not found: ${path}`);
    return { status: 404, bytes: 0 };
  }
  const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  const headers: Record<string, string> = {
    ...CORS,
    "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
    "Accept-Ranges": "bytes",
    ETag: etag,
    // The app and data may change between runs of the generator: revalidate.
    "Cache-Control": "no-cache",
  };
  const ifMatch = req.headers["if-match"];
  if (ifMatch && ifMatch !== "*" && !ifMatch.split(",").some((t) => t.trim() === etag)) {
    res.writeHead(412, headers);
    res.end();
    return { status: 412, bytes: 0 };
  }
  if (req.headers["if-none-match"] === etag && !req.headers.range) {
    res.writeHead(304, headers);
    res.end();
    return { status: 304, bytes: 0 };
  }
  const range = req.headers.range === undefined ? undefined : parseRange(req.headers.range, info.size);
  if (range === "unsatisfiable") {
    res.writeHead(416, { ...headers, "Content-Range": `bytes */${info.size}` });
    res.end();
    return { status: 416, bytes: 0 };
  }
  const [start, end] = range ?? [0, info.size - 1];
  const length = info.size === 0 ? 0 : end - start + 1;
  const status = range ? 206 : 200;
  res.writeHead(status, {
    ...headers,
    "Content-Length": String(length),
    ...(range ? { "Content-Range": `bytes ${start}-${end}/${info.size}` } : {}),
  });
  if (req.method === "HEAD" || length === 0) {
    res.end();
    return { status, bytes: 0 };
  }
  await new Promise<void>((done, fail) => {
    createReadStream(file, { start, end }).on("error", fail).pipe(res).on("finish", done).on("close", done);
  });
  return { status, bytes: length };
}

/** Start the server; resolves once it listens. */
export function serve(options: ServeOptions): Promise<Server> {
  const server = createServer((req, res) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
    } catch {
      res.writeHead(400, CORS);
      res.end("Bad request path");
      return;
    }
    answer(options, req, res, path).then(
      ({ status, bytes }) => {
        const range = req.headers.range;
        options.onRequest?.({ method: req.method ?? "GET", path, ...(range ? { range } : {}), status, bytes });
      },
      (error: unknown) => {
        if (!res.headersSent) res.writeHead(500, CORS);
        res.end(String(error));
      },
    );
  });
  return new Promise((done, fail) => {
    server.once("error", fail);
    server.listen(options.port ?? 4173, options.host ?? "127.0.0.1", () => done(server));
  });
}

/** The base URL a listening server answers on. */
export function serverUrl(server: Server): string {
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("The server is not listening on a TCP port");
  return `http://${address.address}:${address.port}`;
}
