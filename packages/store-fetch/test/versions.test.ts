import { PreconditionFailedError, StoreError } from "@zarrkit/registry";
import { afterEach, describe, expect, it } from "vitest";
import { FetchStore } from "../src/index.js";
import { type FileServer, fileServer, send, startServer, type TestServer } from "./http-server.js";

const sequence = (n: number, from = 0) => Uint8Array.from({ length: n }, (_, i) => (from + i) & 0xff);
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(files: FileServer): Promise<TestServer> {
  const server = await startServer(files.handler);
  servers.push(server);
  return server;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => expect.unreachable(`should have rejected, resolved with ${String(value)}`),
    (error: unknown) => error,
  );
}

const replies = (server: TestServer) => server.requests.map((r) => [r.headers.range, r.headers["if-match"]]);

describe("versions of ranged reads", () => {
  it("reports the strong ETag as the version of ranged reads, probes and getVersioned alike", async () => {
    const files = fileServer();
    files.put("k", sequence(100));
    const store = new FetchStore((await serve(files)).url);
    const ranged = await store.getRangeWithSize("k", { suffixLength: 10 });
    expect(ranged).toEqual({ value: sequence(10, 90), size: 100, version: '"v1"' });
    expect(await store.getRangeWithSize("k", { offset: 3, length: 0 })).toEqual({
      value: new Uint8Array(0),
      size: 100,
      version: '"v1"',
    });
    expect((await store.getVersioned("k"))!.version).toBe(ranged!.version);
  });

  it("sends ifMatch as If-Match and returns the bytes while the value has that version", async () => {
    const files = fileServer();
    files.put("k", sequence(100));
    const server = await serve(files);
    const store = new FetchStore(server.url);
    const { version } = (await store.getRangeWithSize("k", { suffixLength: 4 }))!;
    expect(await store.getRangeWithSize("k", { offset: 10, length: 5 }, { ifMatch: version! })).toEqual({
      value: sequence(5, 10),
      size: 100,
      version,
    });
    expect(await store.getRange("k", { offset: 20, length: 2 }, { ifMatch: version! })).toEqual(sequence(2, 20));
    expect(replies(server)).toEqual([
      ["bytes=-4", undefined],
      ["bytes=10-14", '"v1"'],
      ["bytes=20-21", '"v1"'],
    ]);
  });

  it(
    "a value replaced between two ranged reads is a PreconditionFailedError naming the key, not another " +
      "value's bytes",
    async () => {
      const files = fileServer();
      files.put("shard", sequence(100));
      const server = await serve(files);
      const store = new FetchStore(server.url, { retry: { retries: 0 } });
      const { version } = (await store.getRangeWithSize("shard", { suffixLength: 16 }))!; // "the index"
      files.put("shard", sequence(100, 7)); // another writer replaces the shard
      // Without the version the read happily returns bytes of the new value at the old offsets.
      expect(await store.getRange("shard", { offset: 40, length: 4 })).toEqual(sequence(4, 47));
      const error = await rejection(store.getRange("shard", { offset: 40, length: 4 }, { ifMatch: version! }));
      expect(error).toBeInstanceOf(PreconditionFailedError);
      expect(error).toMatchObject({
        key: "shard",
        code: "PRECONDITION_FAILED",
        message: expect.stringMatching(/HTTP 412 .*\/store\/shard \(key "shard"\)/),
      });
      const withSize = await rejection(store.getRangeWithSize("shard", { suffixLength: 16 }, { ifMatch: version! }));
      expect(withSize).toBeInstanceOf(PreconditionFailedError);
      expect(server.requests.at(-1)!.headers["if-match"]).toBe('"v1"');
    },
  );

  it("checks the ETag of the reply when the server ignores If-Match", async () => {
    const files = fileServer({ ifMatchOnGet: false });
    files.put("k", sequence(100));
    const store = new FetchStore((await serve(files)).url);
    const { version } = (await store.getRangeWithSize("k", { offset: 0, length: 8 }))!;
    files.put("k", sequence(100, 1));
    const error = await rejection(store.getRange("k", { offset: 8, length: 8 }, { ifMatch: version! }));
    expect(error).toBeInstanceOf(PreconditionFailedError);
    expect((error as Error).message).toMatch(/answered with ETag "v2", not the version "v1" asked for with If-Match/);
    expect((error as PreconditionFailedError).key).toBe("k");
  });

  it(
    "checks a 200 full-body reply to a ranged read with If-Match (a server that ignores Range and " + "If-Match)",
    async () => {
      const files = fileServer({ ranges: false, ifMatchOnGet: false });
      files.put("k", sequence(100));
      const server = await serve(files);
      // No body cache: every ranged read goes to the server, which answers 200 with everything.
      const store = new FetchStore(server.url, { fullBodyCacheBytes: 0 });
      const first = (await store.getRangeWithSize("k", { suffixLength: 4 }))!;
      expect(first).toEqual({ value: sequence(4, 96), size: 100, version: '"v1"' });
      expect(await store.getRange("k", { offset: 1, length: 2 }, { ifMatch: first.version! })).toEqual(sequence(2, 1));
      files.put("k", sequence(50, 9));
      const error = await rejection(store.getRange("k", { offset: 1, length: 2 }, { ifMatch: first.version! }));
      expect(error).toBeInstanceOf(PreconditionFailedError);
      expect(server.requests.map((r) => r.headers["if-match"])).toEqual([undefined, '"v1"', '"v1"']);
    },
  );

  it(
    "serves a cached whole body with ifMatch only after the server confirms the version (304), never once " +
      "it changed",
    async () => {
      const files = fileServer({ ranges: false });
      files.put("k", sequence(100));
      const server = await serve(files);
      const store = new FetchStore(server.url);
      const { version } = (await store.getRangeWithSize("k", { suffixLength: 4 }))!;
      // Unchanged: a conditional GET answered 304 without a body, and the cached body is sliced.
      expect(await store.getRangeWithSize("k", { offset: 10, length: 2 }, { ifMatch: version! })).toEqual({
        value: sequence(2, 10),
        size: 100,
        version,
      });
      files.put("k", sequence(100, 50));
      // Replaced: 412, though the cache still holds the old value.
      const error = await rejection(store.getRange("k", { offset: 10, length: 2 }, { ifMatch: version! }));
      expect(error).toMatchObject({ code: "PRECONDITION_FAILED", key: "k" });
      await expect(store.getRangeWithSize("k", { offset: 3, length: 0 }, { ifMatch: version! })).rejects.toBeInstanceOf(
        PreconditionFailedError,
      );
      // The failed revalidation dropped the cached body: a read without ifMatch gets the new value.
      expect(await store.getRangeWithSize("k", { offset: 10, length: 2 })).toEqual({
        value: sequence(2, 60),
        size: 100,
        version: '"v2"',
      });
      expect(server.requests.map((r) => [r.headers["if-match"], r.headers["if-none-match"]])).toEqual([
        [undefined, undefined],
        ['"v1"', '"v1"'],
        ['"v1"', '"v1"'],
        ['"v1"', undefined],
        [undefined, undefined],
      ]);
    },
  );

  it(
    "revalidates a cached body with a server that ignores If-Match and If-None-Match by the ETag of the value " +
      "it sends",
    async () => {
      const files = fileServer({ ranges: false, ifMatchOnGet: false });
      files.put("k", sequence(100));
      const server = await serve(files);
      const store = new FetchStore(server.url);
      const { version } = (await store.getRangeWithSize("k", { suffixLength: 4 }))!;
      expect(await store.getRange("k", { offset: 10, length: 2 }, { ifMatch: version! })).toEqual(sequence(2, 10));
      files.put("k", sequence(100, 50));
      await expect(store.getRange("k", { offset: 10, length: 2 }, { ifMatch: version! })).rejects.toThrow(
        /answered with ETag "v2", not the version "v1"/,
      );
      expect(server.requests).toHaveLength(3);
    },
  );

  it("reports no version from a server without ETags, and cannot confirm one", async () => {
    const files = fileServer({ etags: false });
    files.put("k", sequence(10));
    const store = new FetchStore((await serve(files)).url);
    const ranged = await store.getRangeWithSize("k", { offset: 0, length: 4 });
    expect(ranged).toEqual({ value: sequence(4), size: 10 });
    expect(ranged).not.toHaveProperty("version");
    // A version from elsewhere cannot be confirmed by a server that sends none.
    await expect(store.getRange("k", { offset: 0, length: 4 }, { ifMatch: '"v1"' })).rejects.toThrow(
      /answered with no strong ETag/,
    );
  });

  it("does not report a weak ETag as a version, and getVersioned refuses it", async () => {
    const files = fileServer({ etags: "weak" });
    files.put("k", sequence(10));
    const store = new FetchStore((await serve(files)).url);
    const ranged = await store.getRangeWithSize("k", { offset: 0, length: 4 });
    expect(ranged).toEqual({ value: sequence(4), size: 10 });
    expect(await store.getRangeWithSize("k", { offset: 0, length: 0 })).toEqual({ value: new Uint8Array(0), size: 10 });
    const error = await rejection(store.getVersioned("k"));
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(/only a weak ETag .* for "k", so it has no version to offer/);
  });

  it("a key deleted since its version was read is a PreconditionFailedError, not a missing value", async () => {
    const files = fileServer({ etags: true, ifMatchOnGet: false, writable: true });
    files.put("k", sequence(10));
    const server = await serve(files);
    const store = new FetchStore(server.url, { writable: true });
    const { version } = (await store.getRangeWithSize("k", { offset: 0, length: 1 }))!;
    await store.delete!("k");
    expect(await store.getRange("k", { offset: 0, length: 1 })).toBe(undefined);
    await expect(store.getRange("k", { offset: 0, length: 1 }, { ifMatch: version! })).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      key: "k",
    });
    await expect(store.getRange("k", { offset: 0, length: 0 }, { ifMatch: version! })).rejects.toBeInstanceOf(
      PreconditionFailedError,
    );
  });

  it("checks empty ranges (a probe of the first byte) and 416 answers against ifMatch too", async () => {
    const files = fileServer({ ifMatchOnGet: false });
    files.put("k", sequence(10));
    const store = new FetchStore((await serve(files)).url);
    const { version } = (await store.getRangeWithSize("k", { offset: 0, length: 0 }))!;
    expect(version).toBe('"v1"');
    expect(await store.getRangeWithSize("k", { offset: 50, length: 5 }, { ifMatch: version! })).toEqual({
      value: new Uint8Array(0),
      size: 10,
      version,
    });
    files.put("k", sequence(5));
    await expect(store.getRange("k", { offset: 3, length: 0 }, { ifMatch: version! })).rejects.toBeInstanceOf(
      PreconditionFailedError,
    );
    // The value shrank below the range: the 416 carries the new ETag.
    await expect(store.getRange("k", { offset: 7, length: 2 }, { ifMatch: version! })).rejects.toBeInstanceOf(
      PreconditionFailedError,
    );
  });

  it("confirms the version of a 416 without an ETag (nginx) by a probe with If-Match", async () => {
    const files = fileServer({ etagOn416: false });
    files.put("k", sequence(10));
    const server = await serve(files);
    const store = new FetchStore(server.url);
    const { version } = (await store.getRangeWithSize("k", { offset: 0, length: 1 }))!;
    expect(await store.getRangeWithSize("k", { offset: 50, length: 5 })).toEqual({
      value: new Uint8Array(0),
      size: 10,
    });
    expect(await store.getRangeWithSize("k", { offset: 50, length: 5 }, { ifMatch: version! })).toEqual({
      value: new Uint8Array(0),
      size: 10,
      version,
    });
    expect(server.requests.at(-1)!.headers).toMatchObject({ range: "bytes=0-0", "if-match": '"v1"' });
    files.put("k", sequence(20));
    // The If-Match of the first request was checked (the value is longer now): 412.
    await expect(store.getRange("k", { offset: 50, length: 5 }, { ifMatch: version! })).rejects.toBeInstanceOf(
      PreconditionFailedError,
    );
  });

  it("rejects an ifMatch that is no version before sending anything", async () => {
    const server = await startServer((_req, res) => send(res, 200));
    servers.push(server);
    const store = new FetchStore(server.url, { writable: true });
    for (const bad of ["", "*", '"v1"\r\nX-Injected: 1', 5, null]) {
      const error = await rejection(store.getRange("k", { offset: 0, length: 1 }, { ifMatch: bad as string }));
      expect(error).toBeInstanceOf(StoreError);
      expect(error).toMatchObject({ key: "k", message: expect.stringMatching(/^ifMatch for "k" must be a version/) });
    }
    await expect(store.set!("k", Uint8Array.of(1), { ifMatch: '"a"\nb' })).rejects.toMatchObject({
      key: "k",
      code: "STORE_ERROR",
    });
    await expect(store.set!("k", Uint8Array.of(1), { ifNoneMatch: "v1" as "*" })).rejects.toMatchObject({
      key: "k",
      code: "STORE_ERROR",
    });
    expect(server.requests).toHaveLength(0);
  });
});
