import { describe, expect, it } from "vitest";
import { createArray, openArray, slice, type StoreRequest, withRequestLog } from "@zarrkit/core";
import "@zarrkit/crc32c";
import "@zarrkit/sharding";
import { recordingFetch } from "./recording-fetch.js";
import { rgw, rgwStore } from "./rgw.js";

const iota = (n: number) => Int32Array.from({ length: n }, (_, i) => i);

describe.skipIf(!rgw)("sharded arrays on radosgw", () => {
  // 64x64 int32 in shards of 32x32 (4 shards), inner chunks of 8x8 (16 per shard).
  const layout = { shape: [64, 64], dataType: "int32", chunkShape: [8, 8], shardShape: [32, 32] };

  it("writes whole shards and reads one inner chunk with two ranged GETs", async () => {
    const writer = rgwStore();
    const array = await createArray(writer, "a", layout);
    await array.set(null, iota(64 * 64));
    expect((await writer.listDir("a/c/")).prefixes.sort()).toEqual(["a/c/0/", "a/c/1/"]);

    const { fetch, requests } = recordingFetch();
    const log: StoreRequest[] = [];
    const reader = withRequestLog(rgwStore({ prefix: writer.prefix, fetch }), (r) => log.push(r));
    const fresh = await openArray(reader, "a");
    log.length = 0;
    requests.length = 0;

    const block = await fresh.get([slice(40, 48), slice(8, 16)]);
    const expected = Int32Array.from({ length: 64 }, (_, i) => (40 + Math.floor(i / 8)) * 64 + 8 + (i % 8));
    expect(block.data).toEqual(expected);
    // The shard index (a suffix), then the inner chunk: never the whole shard.
    expect(log.map((r) => r.method)).toEqual(["getRangeWithSize", "getRange"]);
    expect(log[0]?.range).toEqual({ suffixLength: 16 * 16 + 4 });
    expect(log[1]?.range).toEqual({ offset: expect.any(Number), length: 8 * 8 * 4 });
    expect(requests.map((r) => [r.method, r.headers.get("range")])).toEqual([
      ["GET", "bytes=-260"],
      ["GET", expect.stringMatching(/^bytes=\d+-\d+$/)],
    ]);
    expect(log.reduce((n, r) => n + r.bytes, 0)).toBe(260 + 256);

    log.length = 0;
    // Same shard again: the index is cached, one request.
    await fresh.get([slice(32, 40), slice(0, 8)]);
    expect(log).toHaveLength(1);

    const everything = await fresh.get();
    expect(everything.data).toEqual(iota(64 * 64));
  });

  it("reads a sparse z-plane with one data GET per shard: the store's coalesceGapBytes reaches the codec", async () => {
    // Shards of 4x4x4 inner chunks in Morton order: a z-plane needs 16 inner chunks per shard, 1 or 9 chunks apart.
    const writer = rgwStore();
    const volume = { shape: [32, 64, 64], dataType: "int32", chunkShape: [8, 8, 8], shardShape: [32, 32, 32] };
    await (await createArray(writer, "v", volume)).set(null, iota(32 * 64 * 64));
    const z = 29;
    const expected = Int32Array.from({ length: 64 * 64 }, (_, i) => z * 64 * 64 + i);

    const plane = async (options: { coalesceGapBytes?: number } = {}) => {
      const { fetch, requests } = recordingFetch();
      const array = await openArray(rgwStore({ prefix: writer.prefix, fetch, ...options }), "v");
      requests.length = 0;
      expect((await array.get([z, null, null])).data).toEqual(expected);
      const ranged = requests.filter((r) => r.method === "GET" && r.headers.has("range"));
      return {
        indexes: ranged.filter((r) => r.headers.get("range")!.startsWith("bytes=-")).length,
        gets: ranged.length,
        all: requests.length,
      };
    };
    // Default (4 MiB): each shard's index, then one GET of inner chunks 9 to 63.
    expect(await plane()).toEqual({ indexes: 4, gets: 8, all: 8 });
    // A store that says every request is cheap: one GET per inner chunk.
    expect(await plane({ coalesceGapBytes: 0 })).toEqual({ indexes: 4, gets: 4 + 4 * 16, all: 4 + 4 * 16 });
  });

  it("two writers updating one shard from the same stale read: one retries, both updates land", async () => {
    const prefix = rgwStore().prefix;
    await createArray(rgwStore({ prefix }), "a", layout);
    // Order the requests so the race is certain: b reads the (missing) shard,
    // a reads and writes it, and only then does b write, from its stale read.
    let bHasRead!: () => void;
    let aHasWritten!: () => void;
    const bRead = new Promise<void>((resolve) => (bHasRead = resolve));
    const aWritten = new Promise<void>((resolve) => (aHasWritten = resolve));
    const statuses: number[] = [];
    const isShard = (request: Request) => new URL(request.url).pathname.endsWith("/a/c/0/0");
    const fetchA: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (isShard(request) && request.method === "PUT") await bRead;
      const response = await fetch(request);
      if (isShard(request) && request.method === "PUT") aHasWritten();
      return response;
    };
    const fetchB: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (isShard(request) && request.method === "PUT") await aWritten;
      const response = await fetch(request);
      if (isShard(request) && request.method === "GET") bHasRead();
      if (isShard(request) && request.method === "PUT") statuses.push(response.status);
      return response;
    };
    // Two store objects stand for two processes: they share nothing but the bucket.
    const a = await openArray(rgwStore({ prefix, fetch: fetchA }), "a");
    const b = await openArray(rgwStore({ prefix, fetch: fetchB }), "a");
    const fill = (value: number) => Int32Array.from({ length: 8 * 32 }, () => value);
    await Promise.all([a.set([slice(0, 8), slice(0, 32)], fill(1)), b.set([slice(8, 16), slice(0, 32)], fill(2))]);

    // b's first write (If-None-Match: *, from its read of a missing shard) loses; after
    // re-reading, its write lands (with radosgw, after the unquoted If-Match retry).
    expect(statuses[0]).toBe(412);
    expect(statuses.at(-1)).toBe(200);
    const shard = await (await openArray(rgwStore({ prefix }), "a")).get([slice(0, 32), slice(0, 32)]);
    const rowValues = Array.from({ length: 32 }, (_, r) => (shard.data as Int32Array)[r * 32]);
    expect(rowValues).toEqual(Array.from({ length: 32 }, (_, r) => (r < 8 ? 1 : r < 16 ? 2 : 0)));
  });
});
