// Servers of the real web, each misbehaving exactly as issue 22 found them:
// a 206 for a whole value, secrets across redirects, trickling and endless
// bodies, Retry-After, servers without ETags and with ETags that change on
// every request.
import type { IncomingMessage, ServerResponse } from "node:http";
import { createArray, MemoryStore, openArray, slice } from "@zarrkit/core";
import { PreconditionFailedError, StoreError } from "@zarrkit/registry";
import "@zarrkit/sharding";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FetchStore, StoreTimeoutError } from "../src/index.js";
import { send, startServer, type TestServer } from "./http-server.js";

const servers: TestServer[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

const sequence = (n: number, from = 0) => Uint8Array.from({ length: n }, (_, i) => (from + i) & 0xff);
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("whole values are complete or an error", () => {
  it("refuses a 206 with half the value for get and getVersioned, where it returned the half", async () => {
    const value = sequence(1000);
    const server = await serve((req, res) => {
      if (req.headers.range)
        return send(res, 206, value.subarray(0, 1), { "Content-Range": "bytes 0-0/1000", ETag: '"e"' });
      send(res, 206, value.subarray(0, 500), { "Content-Range": "bytes 0-499/1000", ETag: '"e"' });
    });
    const store = new FetchStore(server.url);
    for (const read of [() => store.get("k"), () => store.getVersioned("k")]) {
      const error = await rejection(read());
      expect(error).toBeInstanceOf(StoreError);
      expect((error as Error).message).toMatch(
        /Incomplete value from GET .*\/store\/k \(key "k"\): a partial answer \(206, Content-Range "bytes 0-499\/1000", 500 bytes\) to a request for the whole value of 1000 bytes; refused/,
      );
    }
  });

  it("accepts a 206 that holds the whole value", async () => {
    const server = await serve((_req, res) =>
      send(res, 206, sequence(10), { "Content-Range": "bytes 0-9/10", ETag: '"e"' }),
    );
    expect(await new FetchStore(server.url).getVersioned("k")).toEqual({ value: sequence(10), version: '"e"' });
  });
});

describe("redirects keep the caller's headers with their origin", () => {
  async function pair() {
    const target = await serve((_req, res) => send(res, 200, sequence(4)));
    const origin = await serve((req, res) => {
      if (req.url!.startsWith("/store/same")) return send(res, 302, undefined, { Location: "/store/k" });
      if (req.url!.startsWith("/store/k")) return send(res, 200, sequence(4));
      send(res, 307, undefined, { Location: `${target.origin}/elsewhere/k` });
    });
    return { origin, target };
  }
  const secrets = { headers: { "X-Api-Key": "api-key-0123", Cookie: "session=abcdef" } };

  it(
    "sends no header of the caller's (X-Api-Key, Cookie, credentials of the URL) to another origin, only " +
      "the Range",
    async () => {
      const { origin, target } = await pair();
      const url = origin.url.replace("http://", "http://user:pa55word@");
      const store = new FetchStore(url, secrets);
      expect(await store.get("away")).toEqual(sequence(4));
      expect(await store.getRange("away", { offset: 0, length: 2 })).toEqual(sequence(2));
      expect(origin.requests[0]!.headers["x-api-key"]).toBe("api-key-0123");
      for (const request of target.requests) {
        expect(request.headers).not.toHaveProperty("x-api-key");
        expect(request.headers).not.toHaveProperty("cookie");
        expect(request.headers).not.toHaveProperty("authorization");
      }
      expect(target.requests[1]!.headers.range).toBe("bytes=0-1");
    },
  );

  it("keeps them on a redirect within the origin", async () => {
    const { origin } = await pair();
    expect(await new FetchStore(origin.url, secrets).get("same")).toEqual(sequence(4));
    expect(origin.requests.map((r) => [r.url, r.headers["x-api-key"]])).toEqual([
      ["/store/same", "api-key-0123"],
      ["/store/k", "api-key-0123"],
    ]);
  });

  it('refuses a redirect to another origin with crossOriginRedirects: "refuse"', async () => {
    const { origin, target } = await pair();
    const error = await rejection(
      new FetchStore(origin.url, { ...secrets, crossOriginRedirects: "refuse" }).get("away"),
    );
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(/redirected \(307\) to another origin .*: refused/);
    expect(target.requests).toHaveLength(0);
  });
});

/** A server sending the headers, then `chunk` every `everyMs` without end, until the client goes. */
function dribble(everyMs: number, chunk: Uint8Array, headers: Record<string, string> = {}) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, headers);
    const timer = setInterval(() => res.write(chunk), everyMs);
    res.on("close", () => clearInterval(timer));
  };
}

describe("bodies that never end", () => {
  it("ends a body trickling one byte every 2 s with a StoreTimeoutError, and does not retry it", async () => {
    const server = await serve(dribble(2000, new Uint8Array(1), { "Content-Length": "1000" }));
    const started = performance.now();
    const error = await rejection(new FetchStore(server.url).get("k"));
    expect(error).toBeInstanceOf(StoreTimeoutError);
    expect((error as Error).message).toMatch(
      /^A body slower than minBytesPerSecond \(1024 bytes\/s\) from GET .* gave up after 1 attempt\(s\)\.$/,
    );
    // One rate window (10 s), not the idle timeout's never.
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(server.requests).toHaveLength(1);
  }, 30_000);

  it("ends a request at requestTimeoutMs however steadily its body comes", async () => {
    const server = await serve(dribble(50, new Uint8Array(10)));
    const error = await rejection(new FetchStore(server.url, { requestTimeoutMs: 500, minBytesPerSecond: 0 }).get("k"));
    expect(error).toBeInstanceOf(StoreTimeoutError);
    expect((error as Error).message).toMatch(
      /^Not done within requestTimeoutMs \(500 ms\): GET .* gave up after 1 attempt\(s\)\.$/,
    );
    expect(server.requests).toHaveLength(1);
  });

  it(
    "reads a 16-byte window answered with an endless 200 up to the window and a margin, not to the " + "2 GiB cap",
    async () => {
      let written = 0;
      const closed = new Promise<void>((resolve) => {
        void serve((_req, res) => {
          res.writeHead(200);
          const chunk = new Uint8Array(64 * 1024).fill(9);
          let open = true;
          res.on("close", () => {
            open = false;
            resolve();
          });
          const pump = () => {
            while (open) {
              written += chunk.length;
              if (!res.write(chunk)) return void res.once("drain", pump);
            }
          };
          pump();
        }).then((server) => (url = server.url));
      });
      let url = "";
      await vi.waitFor(() => expect(url).not.toBe(""));
      expect(await new FetchStore(url).getRange("k", { offset: 0, length: 16 })).toEqual(new Uint8Array(16).fill(9));
      await closed;
      // What the kernel's socket buffers took before the close: megabytes, not gigabytes.
      expect(written).toBeLessThan(32 * 2 ** 20);
    },
  );
});

describe("a suffix answered with the whole value", () => {
  it("keeps only the suffix of a value too large to cache, and reports its size", async () => {
    const value = sequence(300_000);
    const server = await serve((req, res) => {
      if (req.url!.endsWith("/chunked")) {
        res.writeHead(200);
        for (let at = 0; at < value.length; at += 4096) res.write(value.subarray(at, at + 4096));
        return void res.end();
      }
      send(res, 200, value);
    });
    const store = new FetchStore(server.url, { fullBodyCacheBytes: 1000 });
    for (const key of ["sized", "chunked"]) {
      expect(await store.getRangeWithSize(key, { suffixLength: 10 })).toEqual({
        value: value.slice(-10),
        size: 300_000,
      });
    }
  });
});

describe("Retry-After", () => {
  it("waits as long as a 503 asks before the next attempt", async () => {
    const times: number[] = [];
    const server = await serve((_req, res) => {
      times.push(performance.now());
      if (times.length === 1) return send(res, 503, undefined, { "Retry-After": "1" });
      send(res, 200, sequence(3));
    });
    expect(await new FetchStore(server.url, { retry: { baseDelayMs: 1, maxDelayMs: 1 } }).get("k")).toEqual(
      sequence(3),
    );
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(990);
  });

  it("does not wait an hour: a 429 asking for more than maxRetryAfterMs is its error at once", async () => {
    const server = await serve((_req, res) => send(res, 429, undefined, { "Retry-After": "3600" }));
    const error = await rejection(new FetchStore(server.url).get("k"));
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(
      /HTTP 429 .* \(it asked to retry after 3600 s with Retry-After, more than maxRetryAfterMs 30000\)\./,
    );
    expect(server.requests).toHaveLength(1);
  });
});

/**
 * A static server over `files` without ETags: Last-Modified (seconds) and Date, If-Modified-Since honoured, Range
 * ignored (Python's http.server); HEAD unless `head: false`.
 */
function lastModifiedServer(files: Map<string, { value: Uint8Array; modified: number }>, head = true) {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === "HEAD" && !head) return send(res, 405);
    const file = files.get(new URL(req.url!, "http://x").pathname.slice("/store/".length));
    if (!file) return send(res, 404);
    const headers = { "Last-Modified": new Date(file.modified * 1000).toUTCString(), Date: new Date().toUTCString() };
    const since = req.headers["if-modified-since"];
    if (since && file.modified <= Date.parse(since) / 1000) return send(res, 304, undefined, headers);
    send(res, 200, file.value, headers);
  };
}

describe("servers without ETags", () => {
  const past = () => Math.floor(Date.now() / 1000) - 60;

  it(
    "version values by Last-Modified and size, and revalidate a cached body with a HEAD: one request, no body, per " +
      "warm read",
    async () => {
      const files = new Map([["shard", { value: sequence(100), modified: past() }]]);
      const server = await serve(lastModifiedServer(files));
      const store = new FetchStore(server.url);
      const first = await store.getRangeWithSize("shard", { suffixLength: 10 });
      expect(first).toEqual({
        value: sequence(10, 90),
        size: 100,
        version: `last-modified:${files.get("shard")!.modified}:100`,
      });
      server.requests.length = 0;
      expect(await store.getRange("shard", { offset: 5, length: 3 }, { ifMatch: first!.version! })).toEqual(
        sequence(3, 5),
      );
      expect(server.requests.map((r) => r.method)).toEqual(["HEAD"]);
    },
  );

  it("revalidate with If-Modified-Since where HEAD is not allowed: one request, a 304", async () => {
    const files = new Map([["shard", { value: sequence(100), modified: past() }]]);
    const server = await serve(lastModifiedServer(files, false));
    const store = new FetchStore(server.url);
    const { version } = (await store.getRangeWithSize("shard", { suffixLength: 10 }))!;
    await store.getRange("shard", { offset: 5, length: 3 }, { ifMatch: version! });
    server.requests.length = 0;
    expect(await store.getRange("shard", { offset: 5, length: 3 }, { ifMatch: version! })).toEqual(sequence(3, 5));
    expect(server.requests.map((r) => [r.method, r.headers["if-modified-since"]])).toEqual([
      ["GET", new Date(files.get("shard")!.modified * 1000).toUTCString()],
    ]);
  });

  it("never read a replaced value through the old copy, even one dated back", async () => {
    const files = new Map([["shard", { value: sequence(100), modified: past() }]]);
    const server = await serve(lastModifiedServer(files));
    const store = new FetchStore(server.url);
    const { version } = (await store.getRangeWithSize("shard", { suffixLength: 10 }))!;
    // Same size, another second: only Last-Modified tells them apart.
    files.set("shard", { value: sequence(100, 7), modified: past() + 30 });
    const error = await rejection(store.getRange("shard", { offset: 5, length: 3 }, { ifMatch: version! }));
    expect(error).toBeInstanceOf(PreconditionFailedError);
    const again = (await store.getRangeWithSize("shard", { offset: 5, length: 3 }))!;
    expect(again.value).toEqual(sequence(3, 12));
    // Replaced by a copy that keeps an older time: If-Modified-Since would say 304; the HEAD's Last-Modified differs.
    files.set("shard", { value: sequence(100, 50), modified: past() - 30 });
    await expect(store.getRange("shard", { offset: 5, length: 3 }, { ifMatch: again.version! })).rejects.toBeInstanceOf(
      PreconditionFailedError,
    );
    expect(await store.getRange("shard", { offset: 5, length: 3 })).toEqual(sequence(3, 55));
  });

  it("take a Last-Modified within the second of the reply's Date for no version: nothing is cached on it", async () => {
    const files = new Map([["k", { value: sequence(10), modified: Math.floor(Date.now() / 1000) + 5 }]]);
    const server = await serve(lastModifiedServer(files));
    const store = new FetchStore(server.url);
    expect(await store.getRangeWithSize("k", { offset: 0, length: 2 })).toEqual({ value: sequence(2), size: 10 });
    await store.getRange("k", { offset: 2, length: 2 });
    expect(server.requests.map((r) => r.headers["if-modified-since"])).toEqual([undefined, undefined]);
    await expect(store.getVersioned("k")).rejects.toThrow(/no ETag and a Last-Modified within the second of its Date/);
  });

  it("with immutable: true, reuse what they fetched without asking again", async () => {
    const files = new Map([["shard", { value: sequence(100), modified: past() }]]);
    const server = await serve(lastModifiedServer(files));
    const store = new FetchStore(server.url, { immutable: true });
    expect(await store.getRangeWithSize("shard", { suffixLength: 10 })).toEqual({
      value: sequence(10, 90),
      size: 100,
      version: "immutable",
    });
    expect(await store.getRange("shard", { offset: 0, length: 4 }, { ifMatch: "immutable" })).toEqual(sequence(4));
    expect(server.requests).toHaveLength(1);
    expect(() => new FetchStore(server.url, { immutable: true, writable: true })).toThrow(/exclude each other/);
  });
});

describe("a server whose ETag changes with every request", () => {
  it(
    "serves a sharded array: ETags are dropped as versions with a warning, and reads go on " + "unconditioned",
    async () => {
      const memory = new MemoryStore();
      const data = Int32Array.from({ length: 64 }, (_, i) => i * 3);
      const array = await createArray(memory, "", {
        shape: [8, 8],
        dataType: "int32",
        chunkShape: [2, 2],
        shardShape: [4, 4],
      });
      await array.set(null, { data, shape: [8, 8] });
      let n = 0;
      const server = await serve(async (req, res) => {
        const value = await memory.get(
          decodeURIComponent(new URL(req.url!, "http://x").pathname.slice("/store/".length)),
        );
        if (!value) return send(res, 404);
        const etag = `"e${n++}"`;
        const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
        if (!range) return send(res, 200, value, { ETag: etag });
        const [first, last] =
          range[1] === ""
            ? [value.length - Number(range[2]), value.length - 1]
            : [Number(range[1]), Math.min(Number(range[2]), value.length - 1)];
        send(res, 206, value.subarray(first, last + 1), {
          ETag: etag,
          "Content-Range": `bytes ${first}-${last}/${value.length}`,
        });
      });
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      const remote = await openArray(new FetchStore(server.url), "");
      const part = await remote.get([slice(0, 2), slice(0, 2)]);
      expect(Array.from(part.data as Int32Array)).toEqual([0, 3, 24, 27]);
      expect(Array.from((await remote.get()).data as Int32Array)).toEqual(Array.from(data));
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(
        /sent a new ETag for "c\/0\/0" with each of two requests in a row .* no longer takes its ETags for versions/,
      );
    },
  );
});
