// Sharded reads over HTTP with codec workers: each shard is lent to the
// workers (FetchStore.lendRange) and one of them fetches it with one request,
// so no byte of its body reaches this thread; the others decode from it.
import { closeCodecWorkers, codecWorkerStats, countRequests, createArray, MemoryStore, openArray } from "@zarrkit/core";
import "@zarrkit/sharding";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FetchStore } from "../src/index.js";
import { fileServer, startServer, type TestServer } from "./http-server.js";

afterAll(() => closeCodecWorkers());

// 4 shards of 8 x 8 inner chunks of 16 x 16 int32, the index without a checksum (no crc32c package here).
const DATA = Int32Array.from({ length: 256 * 256 }, (_, i) => i * 7);
const SHARDS = ["0/0", "0/1", "1/0", "1/1"].map((s) => `a/c/${s}`);
const WORKERS = { workers: { threshold: 0, size: 2 } };
const values = new Map<string, Uint8Array>();

beforeAll(async () => {
  const memory = new MemoryStore();
  await createArray(memory, "a", {
    shape: [256, 256],
    dataType: "int32",
    chunkShape: [16, 16],
    shardShape: [128, 128],
    indexCodecs: [{ name: "bytes", configuration: { endian: "little" } }],
  });
  await (await openArray(memory, "a", { workers: false })).set(null, DATA);
  for await (const key of memory.list("")) values.set(key, (await memory.get(key))!);
});

let server: TestServer | undefined;
afterEach(() => server?.close());

/** A server holding the array (but the keys `without`), and its GET requests for the shards. */
async function serve(
  ranges = true,
  without: string[] = [],
): Promise<{ url: string; shardGets: () => { url: string; range?: string }[] }> {
  const files = fileServer({ ranges });
  for (const [key, value] of values) if (!without.includes(key)) files.put(key, value);
  server = await startServer(files.handler);
  const requests = server.requests;
  return {
    url: server.url,
    shardGets: () =>
      requests
        .filter((r) => r.method === "GET" && /\/c\/\d\/\d$/.test(r.url))
        .map((r) => ({ url: r.url, ...(r.headers.range && { range: r.headers.range }) })),
  };
}

describe("shard ranges over HTTP, fetched by the codec workers", () => {
  it("only with workerFetches in Node (its default there is off), a boolean", async () => {
    const { url } = await serve();
    expect(new FetchStore(url).lendRange).toBeUndefined();
    expect(new FetchStore(url, { workerFetches: false }).lendRange).toBeUndefined();
    expect(new FetchStore(url, { workerFetches: true }).lendRange).toBeTypeOf("function");
    expect(() => new FetchStore(url, { workerFetches: "yes" as never })).toThrow(/workerFetches must be true or false/);
  });

  it("a whole read lends each shard; a worker fetches it with one request, this thread reads none of it", async () => {
    const { url, shardGets } = await serve();
    const store = countRequests(new FetchStore(url, { retry: { retries: 0 }, workerFetches: true }));
    const array = await openArray(store, "a", WORKERS);
    const before = codecWorkerStats().dispatched;
    // This thread's fetch (workers have their own): it must not be asked for a shard.
    const here: string[] = [];
    const fetchHere = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      here.push(String(input));
      return fetchHere(input, init);
    };
    try {
      expect((await array.get()).data).toEqual(DATA);
    } finally {
      globalThis.fetch = fetchHere;
    }
    expect(here.filter((u) => u.includes("/c/"))).toEqual([]);
    expect(store.log.filter((r) => SHARDS.includes(r.key)).map((r) => r.method)).toEqual(Array(4).fill("lendRange"));
    // One request per shard, for as many bytes as a shard can hold: 4 x 64 x 1024 bytes of chunks, 1024 of index.
    expect(shardGets().sort((a, b) => a.url.localeCompare(b.url))).toEqual(
      SHARDS.map((key) => ({ url: `/store/${key}`, range: `bytes=0-${64 * 1024 + 1024}` })),
    );
    // A read per shard, then its inner chunks in two batches.
    expect(codecWorkerStats().dispatched - before).toBeGreaterThanOrEqual(4 + 8);
  });

  it("a shard that is not there: the worker finds nothing with its one request, and it reads as the fill value", async () => {
    const { url, shardGets } = await serve(true, ["a/c/1/0"]);
    const array = await openArray(new FetchStore(url, { retry: { retries: 0 }, workerFetches: true }), "a", WORKERS);
    const expected = DATA.slice();
    for (let y = 128; y < 256; y++) expected.fill(0, y * 256, y * 256 + 128);
    expect((await array.get()).data).toEqual(expected);
    expect(shardGets()).toHaveLength(4);
  });

  it("a server that ignores Range: the shard, fetched and kept whole here, is lent as bytes", async () => {
    const { url, shardGets } = await serve(false);
    const store = countRequests(new FetchStore(url, { retry: { retries: 0 }, workerFetches: true }));
    const array = await openArray(store, "a", WORKERS);
    expect((await array.get()).data).toEqual(DATA);
    expect(store.reads("lendRange")).toBe(4);
    // Each shard once: its index read brought the whole value, which the lent range came from.
    expect(shardGets()).toHaveLength(4);
  });

  it("a store with a fetch of the caller's, which cannot cross to a worker, lends bytes it fetched itself", async () => {
    const { url, shardGets } = await serve();
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    const array = await openArray(
      new FetchStore(url, { fetch: counting, retry: { retries: 0 }, workerFetches: true }),
      "a",
      WORKERS,
    );
    expect((await array.get()).data).toEqual(DATA);
    expect(shardGets()).toHaveLength(4);
    expect(calls).toBe(server!.requests.length);
  });
});
