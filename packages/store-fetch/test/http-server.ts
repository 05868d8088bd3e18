import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingHttpHeaders;
}

export interface TestServer {
  /** Base URL of the store: http://127.0.0.1:<port>/store/ */
  url: string;
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

/** An HTTP server on 127.0.0.1 (an ephemeral port) that records every request. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      requests.push({ method: req.method!, url: req.url!, headers: req.headers });
      handler(req, res, Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/store/`,
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface FileServerOptions {
  /** Answer Range requests with 206 (default) or ignore them and send 200 with everything. */
  ranges?: boolean;
  /** Accept PUT and DELETE, honouring If-Match and If-None-Match. */
  writable?: boolean;
  /** Send ETags (default true), or weak ones (`W/"v1"`). */
  etags?: boolean | "weak";
  /** Honour If-Match on GET (default true, when sending ETags): 412 unless the value has that ETag. */
  ifMatchOnGet?: boolean;
  /** Send the ETag with a 416 too (default true; nginx does not). */
  etagOn416?: boolean;
}

export interface FileServer {
  /** The stored values, by key (decoded path below /store/). */
  values: ReadonlyMap<string, Uint8Array>;
  /** Store a value behind the store's back, with a new version. */
  put(key: string, value: Uint8Array): void;
  options: FileServerOptions;
  handler: Handler;
}

/** A static file server over a Map, with single byte ranges (including suffixes) like nginx or S3. */
export function fileServer(options: FileServerOptions = {}): FileServer {
  const values = new Map<string, Uint8Array>();
  const versions = new Map<string, number>();
  let writes = 0;
  const put = (key: string, value: Uint8Array) => {
    values.set(key, value);
    versions.set(key, ++writes);
  };
  const server: FileServer = {
    values,
    put,
    options,
    handler(req, res, body) {
      const path = new URL(req.url!, "http://x").pathname;
      if (!path.startsWith("/store/")) return send(res, 404);
      const key = path.slice("/store/".length).split("/").map(decodeURIComponent).join("/");
      const value = values.get(key);
      const { etags, ifMatchOnGet } = server.options;
      const etag = value && etags !== false ? `${etags === "weak" ? "W/" : ""}"v${versions.get(key)}"` : undefined;
      if (req.method === "GET") {
        // Preconditions before Range (RFC 9110 13.2.2); If-Match compares strongly, so a weak ETag never matches.
        const ifMatch = req.headers["if-match"];
        if (
          ifMatch !== undefined &&
          etags !== false &&
          ifMatchOnGet !== false &&
          (etag === undefined || etag.startsWith("W/") || ifMatch !== etag)
        ) {
          return send(res, 412);
        }
        if (!value) return send(res, 404);
        const headers: Record<string, string> = etag ? { ETag: etag } : {};
        // If-None-Match compares weakly (RFC 9110 13.1.2): 304 without a body while the value has that ETag.
        const ifNoneMatch = req.headers["if-none-match"];
        if (
          ifNoneMatch !== undefined &&
          etag !== undefined &&
          ifMatchOnGet !== false &&
          ifNoneMatch.replace(/^W\//, "") === etag.replace(/^W\//, "")
        ) {
          return send(res, 304, undefined, headers);
        }
        if (server.options.ranges === false || !req.headers.range) return send(res, 200, value, headers);
        const range = parseRange(req.headers.range, value.length);
        if (!range)
          return send(res, 416, undefined, {
            ...(server.options.etagOn416 === false ? {} : headers),
            "Content-Range": `bytes */${value.length}`,
          });
        const [first, last] = range;
        return send(res, 206, value.subarray(first, last + 1), {
          ...headers,
          "Content-Range": `bytes ${first}-${last}/${value.length}`,
        });
      }
      if (!options.writable || (req.method !== "PUT" && req.method !== "DELETE")) return send(res, 405);
      if (req.method === "DELETE") {
        if (!value) return send(res, 404);
        values.delete(key);
        return send(res, 204);
      }
      if (req.headers["if-none-match"] === "*" && value) return send(res, 412);
      if (req.headers["if-match"] !== undefined && req.headers["if-match"] !== etag) return send(res, 412);
      put(key, new Uint8Array(body));
      return send(res, value ? 204 : 201);
    },
  };
  return server;
}

/** [first, last] of a single "bytes=" range, or undefined when unsatisfiable (RFC 9110). */
function parseRange(header: string, size: number): [number, number] | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header);
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    return suffix > 0 && size > 0 ? [Math.max(0, size - suffix), size - 1] : undefined;
  }
  const first = Number(match[1]);
  const last = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  return first < size && first <= last ? [first, last] : undefined;
}

export function send(
  res: ServerResponse,
  status: number,
  body?: Uint8Array,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "Content-Length": String(body?.length ?? 0), ...headers });
  res.end(body);
}
