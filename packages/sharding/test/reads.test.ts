import { openArray, slice, UnsupportedError } from "@zarrkit/core";
import { describe, expect, it } from "vitest";
import { describeShard, plannedReads } from "../src/index.js";
import { BYTES, CRC, counted, createArray, iota, MemoryStore } from "./helpers.js";

async function sharded(indexLocation: "start" | "end" = "end", chunkOrder: "morton" | "c" = "morton") {
  const c = counted();
  const arr = await createArray(
    c.store,
    "a",
    {
      shape: [16, 16],
      dataType: "int32",
      chunkShape: [4, 4],
      shardShape: [8, 16],
      indexCodecs: [BYTES],
      indexLocation,
    },
    { codecOptions: { sharding_indexed: { chunkOrder } } },
  );
  await arr.set(null, iota(256));
  c.reset();
  return { ...c, arr };
}

describe("partial reads and request counts", () => {
  for (const location of ["end", "start"] as const) {
    it(`one inner chunk: 2 requests cold, 1 warm (index at ${location})`, async () => {
      const { arr, store, reads, reset, log } = await sharded(location);
      const fresh = await openArray(store, "a");
      reset();
      const cold = await fresh.get([slice(4, 8), slice(8, 12)]);
      expect(reads()).toBe(2);
      expect(log[0]!.range).toEqual(location === "end" ? { suffixLength: 8 * 16 } : { offset: 0, length: 8 * 16 });
      reset();
      const warm = await fresh.get([slice(4, 8), slice(12, 16)]);
      expect(reads()).toBe(1);
      expect(cold.data).toEqual((await arr.get([slice(4, 8), slice(8, 12)])).data);
      expect(Array.from(warm.data as Int32Array).slice(0, 4)).toEqual([77, 78, 79, 80]);
    });
  }

  it("a whole shard is one request where the store cannot read into caller memory", async () => {
    const { inner } = await sharded();
    const plain = counted({
      get: (k) => inner.get(k),
      getRange: (k, range, options) => inner.getRange!(k, range, options),
    });
    const fresh = await openArray(plain.store, "a");
    plain.reset();
    const shard = await fresh.get([slice(8, 16), null]);
    expect(plain.log.map((r) => r.method)).toEqual(["get"]);
    expect(Array.from(shard.data as Int32Array)).toEqual(Array.from(iota(256)).slice(128));
  });

  it(
    "a whole shard is its index and one range read into a pooled buffer where the store reads into caller memory; " +
      "one request once the index is cached",
    async () => {
      const { store, log, reset } = await sharded();
      const fresh = await openArray(store, "a");
      reset();
      const shard = await fresh.get([slice(8, 16), null]);
      expect(log.map((r) => r.method)).toEqual(["getRangeWithSize", "getRangeInto"]);
      expect(log[1]!.range).toEqual({ offset: 0, length: 128 * 4 });
      expect(Array.from(shard.data as Int32Array)).toEqual(Array.from(iota(256)).slice(128));
      reset();
      expect(Array.from((await fresh.get([slice(8, 16), null])).data as Int32Array)).toEqual(
        Array.from(iota(256)).slice(128),
      );
      expect(log.map((r) => r.method)).toEqual(["getRangeInto"]);
    },
  );

  it("a row of inner chunks adjacent in the shard is one coalesced read after the index", async () => {
    const { store, reads, log, reset } = await sharded("end", "c");
    const fresh = await openArray(store, "a");
    reset();
    const row = await fresh.get([slice(0, 4), null]);
    expect(reads()).toBe(2);
    expect(log[1]!.range).toEqual({ offset: 0, length: 4 * 64 });
    expect(Array.from(row.data as Int32Array)).toEqual(Array.from(iota(64)));
  });

  it("a selection across shards reads each shard's index once and fetches only the needed chunks", async () => {
    const { store, reads, reset } = await sharded();
    const fresh = await openArray(store, "a");
    reset();
    const plane = await fresh.get([7, null]);
    expect(Array.from(plane.data as Int32Array)).toEqual(Array.from(iota(256)).slice(112, 128));
    expect(reads()).toBe(2);
    const plans = await plannedReads(fresh, [slice(6, 10), null]);
    expect(plans.map((p) => p.key)).toEqual(["a/c/0/0", "a/c/1/0"]);
    expect(plans.every((p) => !p.whole && p.ranges.length >= 1)).toBe(true);
  });

  it("concurrent readers of one shard share one index fetch", async () => {
    const { store, log, reset } = await sharded();
    const fresh = await openArray(store, "a");
    reset();
    await Promise.all([0, 1, 2, 3].map((j) => fresh.get([slice(0, 4), slice(j * 4, j * 4 + 4)])));
    expect(log.filter((r) => r.range && "suffixLength" in r.range)).toHaveLength(1);
  });

  it("the index cache is dropped when this process writes the shard", async () => {
    const { arr, reads, reset } = await sharded();
    await arr.get([0, 0]);
    reset();
    await arr.set([0, 0], -5);
    reset();
    expect(Array.from((await arr.get([slice(0, 2), 0])).data as Int32Array)).toEqual([-5, 17]);
    expect(reads()).toBe(2);
  });

  it("a bounded cache evicts: with a zero budget every read fetches the index", async () => {
    const { store, reads, reset } = await sharded();
    const noCache = await openArray(store, "a", { codecOptions: { sharding_indexed: { indexCacheBytes: 0 } } });
    await noCache.get([0, 0]);
    reset();
    await noCache.get([0, 1]);
    expect(reads()).toBe(2);
  });

  it("a store without ranged reads reads whole shards", async () => {
    const inner = new MemoryStore();
    const arr = await createArray(inner, "a", {
      shape: [8],
      dataType: "int32",
      chunkShape: [2],
      shardShape: [8],
      indexCodecs: [BYTES],
    });
    await arr.set(null, iota(8));
    const plain = counted({ get: (k: string) => inner.get(k) });
    const ro = await openArray(plain.store, "a");
    expect(Array.from((await ro.get([slice(2, 3)])).data as Int32Array)).toEqual([3]);
    expect(plain.log.map((r) => r.method)).toEqual(["get", "get"]);
  });

  it("missing shards and empty inner chunks read as the fill value", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "f", {
      shape: [8, 8],
      dataType: "float32",
      chunkShape: [2, 2],
      shardShape: [4, 4],
      fillValue: "NaN",
      indexCodecs: [BYTES],
    });
    await arr.set([1, 1], 3.5);
    const all = (await arr.get()).data as Float32Array;
    expect(all[9]).toBe(3.5);
    expect(Array.from(all).filter((v) => !Number.isNaN(v))).toEqual([3.5]);
    const d = await describeShard(arr, [0, 0]);
    expect(d.exists).toBe(true);
    expect(d.chunks.filter((c) => !("empty" in c))).toEqual([{ coords: [0, 0], offset: 0, nbytes: 16 }]);
    expect((await describeShard(arr, [1, 1])).exists).toBe(false);
  });

  it("introspecting an unsharded array is an UnsupportedError naming the array", async () => {
    const arr = await createArray(new MemoryStore(), "plain", { shape: [4], dataType: "uint8", chunkShape: [2] });
    await expect(describeShard(arr, [0])).rejects.toThrow(UnsupportedError);
    await expect(plannedReads(arr)).rejects.toThrow(/"plain" is not sharded/);
  });
});

describe("pooled read buffers", () => {
  it(
    "a whole read of 16 shards, two in flight, fills at most two distinct buffers, with every " + "value right",
    async () => {
      const inner = new MemoryStore();
      const buffers = new Set<ArrayBufferLike>();
      const into = inner.getRangeInto.bind(inner);
      inner.getRangeInto = async (key, range, target, options) => {
        buffers.add(target.buffer);
        await new Promise((resolve) => setTimeout(resolve, 0));
        return into(key, range, target, options);
      };
      const arr = await createArray(inner, "a", {
        shape: [64, 60],
        dataType: "int32",
        chunkShape: [4, 4],
        shardShape: [16, 16],
        codecs: [BYTES, CRC],
      });
      await arr.set(null, iota(64 * 60));
      const fresh = await openArray(inner, "a", { concurrency: 2 });
      const whole = await fresh.get();
      expect(Array.from(whole.data as Int32Array)).toEqual(Array.from(iota(64 * 60)));
      expect(buffers.size).toBeGreaterThan(0);
      expect(buffers.size).toBeLessThanOrEqual(2);
    },
  );

  it("a result over shared memory holds the same values, whole and partial", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", {
      shape: [40, 36],
      dataType: "int32",
      chunkShape: [4, 4],
      shardShape: [16, 16],
      codecs: [BYTES, CRC],
    });
    await arr.set(null, iota(40 * 36));
    const fresh = await openArray(store, "a", { workers: { threshold: 0, offloadAlone: true } });
    for (const selection of [null, [slice(3, 37, 3), slice(5, 36)]] as const) {
      const shared = await fresh.get(selection as never, { shared: true });
      expect((shared.data as Int32Array).buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(Array.from(shared.data as Int32Array)).toEqual(
        Array.from((await arr.get(selection as never)).data as Int32Array),
      );
    }
  });

  it(
    "a whole shard larger than 64 MiB is read in ranges of at most 64 MiB, so no read buffer grows with " + "the shard",
    async () => {
      const c = counted();
      const n = 18 * 2 ** 20; // 72 MiB of uint32 in one shard of 18 inner chunks
      const arr = await createArray(c.store, "big", {
        shape: [n],
        dataType: "uint32",
        chunkShape: [2 ** 20],
        shardShape: [n],
        indexCodecs: [BYTES],
      });
      await arr.set(null, 7);
      const fresh = await openArray(c.store, "big");
      const [plan] = await plannedReads(fresh);
      expect(plan!.ranges.map((r) => r.length)).toEqual([64 * 2 ** 20, 8 * 2 ** 20]);
      c.reset();
      const got = await fresh.get([slice(n - 3, n)]);
      expect(Array.from(got.data as Uint32Array)).toEqual([7, 7, 7]);
      c.reset();
      expect((await fresh.get()).data.length).toBe(n);
      expect(
        c.log
          .filter((r) => r.method === "getRangeInto")
          .map((r) => r.bytes)
          .sort((a, b) => b - a),
      ).toEqual([64 * 2 ** 20, 8 * 2 ** 20]);
    },
  );
});
