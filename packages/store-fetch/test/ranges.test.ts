import { StoreError } from "@zarrkit/registry";
import { afterEach, describe, expect, it } from "vitest";
import { FetchStore, ResponseTooLargeError } from "../src/index.js";
import { type FileServer, fileServer, send, startServer, type TestServer } from "./http-server.js";

const sequence = (n: number) => Uint8Array.from({ length: n }, (_, i) => i & 0xff);
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(files: FileServer): Promise<TestServer> {
  const server = await startServer(files.handler);
  servers.push(server);
  return server;
}

describe("a server that supports Range", () => {
  it("sends windows and suffixes as one Range request each, with no HEAD first", async () => {
    const files = fileServer();
    files.put("c/0", sequence(100));
    const server = await serve(files);
    const store = new FetchStore(server.url);
    expect(await store.getRange("c/0", { offset: 10, length: 20 })).toEqual(sequence(30).subarray(10));
    expect(await store.getRange("c/0", { suffixLength: 10 })).toEqual(sequence(100).subarray(90));
    expect(server.requests.map((r) => [r.method, r.url, r.headers.range])).toEqual([
      ["GET", "/store/c/0", "bytes=10-29"],
      ["GET", "/store/c/0", "bytes=-10"],
    ]);
  });

  it("returns empty bytes for a window past the end (416), in one request", async () => {
    const files = fileServer();
    files.put("k", sequence(10));
    const server = await serve(files);
    expect(await new FetchStore(server.url).getRange("k", { offset: 50, length: 5 })).toEqual(new Uint8Array(0));
    expect(server.requests).toHaveLength(1);
  });

  it("asks for the first byte to learn the size or existence of a key", async () => {
    const files = fileServer();
    files.put("k", sequence(1234));
    files.put("empty", new Uint8Array(0));
    const server = await serve(files);
    const store = new FetchStore(server.url);
    expect(await store.size("k")).toBe(1234);
    expect(await store.size("empty")).toBe(0);
    expect(await store.getRange("k", { offset: 5, length: 0 })).toEqual(new Uint8Array(0));
    expect(server.requests.map((r) => [r.method, r.headers.range])).toEqual([
      ["GET", "bytes=0-0"],
      ["GET", "bytes=0-0"],
      ["GET", "bytes=0-0"],
    ]);
  });
});

describe("a server that ignores Range", () => {
  it(
    "slices locally and fetches a key once for two ranged reads, revalidating its ETag with bodiless " + "requests",
    async () => {
      const files = fileServer({ ranges: false });
      files.put("shard", sequence(1000));
      const server = await serve(files);
      const store = new FetchStore(server.url);
      expect(await store.getRange("shard", { suffixLength: 16 })).toEqual(sequence(1000).subarray(984));
      expect(await store.getRange("shard", { offset: 100, length: 50 })).toEqual(sequence(1000).subarray(100, 150));
      expect(await store.size("shard")).toBe(1000);
      // The body once; then If-None-Match, answered 304 without a body while the value is unchanged.
      expect(server.requests.map((r) => r.headers["if-none-match"])).toEqual([undefined, '"v1"', '"v1"']);
    },
  );

  it(
    "without a version (no ETag, no Last-Modified), never reuses a body it cannot revalidate: a replaced value is " +
      "read as it is now",
    async () => {
      const files = fileServer({ ranges: false, etags: false });
      files.put("shard", sequence(1000));
      const server = await serve(files);
      const store = new FetchStore(server.url);
      expect(await store.getRange("shard", { suffixLength: 16 })).toEqual(sequence(1000).subarray(984));
      files.put("shard", sequence(1100).subarray(100));
      expect(await store.getRange("shard", { offset: 100, length: 50 })).toEqual(sequence(300).subarray(200, 250));
      expect(await store.size("shard")).toBe(1000);
      expect(server.requests).toHaveLength(3);
    },
  );

  it("notices a value replaced behind its back when the server sends ETags, and drops a deleted one", async () => {
    const files = fileServer({ ranges: false, writable: true });
    files.put("k", sequence(100));
    const server = await serve(files);
    const store = new FetchStore(server.url);
    expect(await store.getRange("k", { offset: 0, length: 2 })).toEqual(sequence(2));
    files.put("k", sequence(105).subarray(5));
    expect(await store.getRangeWithSize("k", { offset: 0, length: 2 })).toEqual({
      value: Uint8Array.of(5, 6),
      size: 100,
      version: '"v2"',
    });
    await new FetchStore(server.url, { writable: true }).delete!("k");
    expect(await store.getRange("k", { offset: 0, length: 2 })).toBe(undefined);
  });

  it("remembers per origin: another store on the server reuses a body it fetched with get", async () => {
    const files = fileServer({ ranges: false });
    files.put("a", sequence(10));
    files.put("b", sequence(300));
    const server = await serve(files);
    await new FetchStore(server.url).getRange("a", { offset: 0, length: 2 }); // teaches that the origin ignores Range
    const store = new FetchStore(server.url);
    await store.get("b");
    expect(await store.getRange("b", { offset: 200, length: 3 })).toEqual(Uint8Array.of(200, 201, 202));
    // b's body is not fetched again: the last request only revalidates it (304).
    expect(server.requests.map((r) => [r.url, r.headers["if-none-match"]])).toEqual([
      ["/store/a", undefined],
      ["/store/b", undefined],
      ["/store/b", '"v2"'],
    ]);
  });

  it("does not hand out the cached body: mutating a result changes nothing", async () => {
    const files = fileServer({ ranges: false });
    files.put("k", sequence(10));
    const server = await serve(files);
    const store = new FetchStore(server.url);
    (await store.get("k"))!.fill(0xee);
    (await store.getRange("k", { offset: 0, length: 10 }))!.fill(0xee);
    expect(await store.getRange("k", { offset: 0, length: 10 })).toEqual(sequence(10));
  });

  it("keeps at most fullBodyCacheBytes of bodies", async () => {
    const files = fileServer({ ranges: false });
    files.put("small", sequence(100));
    files.put("large", sequence(1000));
    const server = await serve(files);
    const store = new FetchStore(server.url, { fullBodyCacheBytes: 500 });
    for (let i = 0; i < 2; i++) {
      await store.getRange("small", { offset: 0, length: 1 });
      await store.getRange("large", { offset: 0, length: 1 });
    }
    // small is kept (revalidated with If-None-Match), large is over the limit and fetched whole each time.
    expect(server.requests.map((r) => [r.url, r.headers["if-none-match"]])).toEqual([
      ["/store/small", undefined],
      ["/store/large", undefined],
      ["/store/small", '"v1"'],
      ["/store/large", undefined],
    ]);
  });

  it("forgets the body of a key written or deleted through the store", async () => {
    const files = fileServer({ ranges: false, writable: true });
    files.put("k", sequence(10));
    const server = await serve(files);
    const store = new FetchStore(server.url, { writable: true });
    await store.getRange("k", { offset: 0, length: 2 });
    await store.set!("k", Uint8Array.of(7, 8, 9));
    expect(await store.getRange("k", { offset: 1, length: 5 })).toEqual(Uint8Array.of(8, 9));
    await store.delete!("k");
    expect(await store.getRange("k", { offset: 1, length: 5 })).toBe(undefined);
  });

  it("starts using ranges again once the origin answers 206", async () => {
    const files = fileServer({ ranges: false });
    files.put("k", sequence(100));
    const server = await serve(files);
    const store = new FetchStore(server.url);
    await store.getRange("k", { offset: 0, length: 1 });
    files.options.ranges = true; // e.g. a CDN in front of the origin changed its mind
    await store.getRange("other", { offset: 0, length: 1 }); // missing: 404 teaches nothing
    files.put("k2", sequence(50));
    expect(await store.getRange("k2", { offset: 10, length: 1 })).toEqual(Uint8Array.of(10));
    expect(await store.getRange("k", { offset: 20, length: 1 })).toEqual(Uint8Array.of(20));
    expect(server.requests.map((r) => [r.url, r.headers.range])).toEqual([
      ["/store/k", "bytes=0-0"],
      ["/store/other", "bytes=0-0"],
      ["/store/k2", "bytes=10-10"],
      ["/store/k", "bytes=20-20"],
    ]);
  });
});

describe("Content-Range validation", () => {
  async function partialServer(contentRange: string | undefined, body: Uint8Array): Promise<FetchStore> {
    const server = await startServer((_req, res) =>
      send(res, 206, body, contentRange === undefined ? {} : { "Content-Range": contentRange }),
    );
    servers.push(server);
    return new FetchStore(server.url);
  }

  it.each([
    ["a different start", "bytes 0-19/100", 20],
    ["a short answer that is not the end of the value", "bytes 10-19/100", 10],
    ["a body of another length", "bytes 10-29/100", 5],
    ["no header", undefined, 20],
    ["a malformed header", "bytes 10-29", 20],
  ])("rejects %s", async (_, contentRange, bodyLength) => {
    const store = await partialServer(contentRange, new Uint8Array(bodyLength));
    const error = await store.getRange("k", { offset: 10, length: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).message).toMatch(/Bad partial response for GET http:\/\/127\.0\.0\.1:\d+\/store\/k/);
    expect((error as StoreError).key).toBe("k");
  });

  it(
    "stops at the bytes asked for: a longer 206 is a ResponseTooLargeError before its Content-Range is " + "looked at",
    async () => {
      const store = await partialServer("bytes 10-39/100", new Uint8Array(30));
      const error = await store.getRange("k", { offset: 10, length: 20 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error).toMatchObject({ key: "k", code: "RESPONSE_TOO_LARGE" });
    },
  );

  it("accepts a window clipped at the end of the value, and an unknown total", async () => {
    expect(
      await (await partialServer("bytes 95-99/100", new Uint8Array(5))).getRange("k", { offset: 95, length: 20 }),
    ).toHaveLength(5);
    expect(
      await (await partialServer("bytes 10-29/*", new Uint8Array(20))).getRange("k", { offset: 10, length: 20 }),
    ).toHaveLength(20);
  });

  it("rejects a suffix answer that is not the end of the value", async () => {
    const store = await partialServer("bytes 0-9/100", new Uint8Array(10));
    await expect(store.getRange("k", { suffixLength: 10 })).rejects.toThrow(/does not match the request bytes=-10/);
  });

  it("reads the whole value when a server wrongly refuses a suffix longer than the value (416)", async () => {
    const value = sequence(30);
    const server = await startServer((req, res) =>
      req.headers.range
        ? send(res, 416, undefined, { "Content-Range": `bytes */${value.length}` })
        : send(res, 200, value),
    );
    servers.push(server);
    expect(await new FetchStore(server.url).getRange("k", { suffixLength: 100 })).toEqual(value);
    expect(server.requests.map((r) => r.headers.range)).toEqual(["bytes=-100", undefined]);
  });
});
