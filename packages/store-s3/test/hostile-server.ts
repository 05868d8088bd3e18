import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface HostileServer {
  /** http://127.0.0.1:<port>, for S3Store's endpoint. */
  endpoint: string;
  /** Requests seen, by method and path. */
  requests: { method: string; url: string; headers: IncomingMessage["headers"] }[];
  close(): Promise<void>;
}

/** A server on 127.0.0.1 that answers as `handler` says: for the replies no real S3 server gives. */
export async function hostileServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<HostileServer> {
  const requests: HostileServer["requests"] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method!, url: req.url!, headers: req.headers });
    req.resume();
    req.on("end", () => handler(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A handler streaming `chunk` over and over with backpressure until the
 * client goes, after `status` and `headers`; `written` resolves to the bytes
 * written once the connection closed.
 */
export function endless(status: number, headers: Record<string, string>, chunk = new Uint8Array(64 * 1024)) {
  let report!: (bytes: number) => void;
  const written = new Promise<number>((resolve) => (report = resolve));
  const handler = (_req: IncomingMessage, res: ServerResponse) => {
    let bytes = 0;
    let open = true;
    res.on("close", () => {
      open = false;
      report(bytes);
    });
    res.writeHead(status, headers);
    const pump = () => {
      while (open) {
        bytes += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
    };
    pump();
  };
  return { handler, written };
}
