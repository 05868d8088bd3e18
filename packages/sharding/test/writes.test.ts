import { openArray, slice, type Store } from "@zarrkit/core";
import { crc32c, initCrc32c } from "@zarrkit/crc32c";
import { beforeAll, describe, expect, it } from "vitest";
import { describeShard } from "../src/index.js";
import { BYTES, CRC, counted, createArray, iota, MemoryStore } from "./helpers.js";

beforeAll(() => initCrc32c());

const u64 = (bytes: Uint8Array) => new BigUint64Array(bytes.slice().buffer);
const EMPTY = 2n ** 64n - 1n;

describe("shard layout, byte for byte", () => {
  it("the index ends with the little-endian CRC32C of its entries", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", { shape: [4], dataType: "uint8", chunkShape: [2], shardShape: [4] });
    await arr.set(null, Uint8Array.of(1, 2, 0, 0));
    const shard = (await store.get("a/c/0"))!;
    expect(shard.length).toBe(2 + 2 * 16 + 4);
    const entries = shard.subarray(2, 2 + 32);
    expect(Array.from(u64(entries))).toEqual([0n, 2n, EMPTY, EMPTY]);
    const stored = new DataView(shard.buffer, shard.byteOffset + 34, 4).getUint32(0, true);
    expect(stored).toBe(crc32c(entries));
  });

  for (const location of ["end", "start"] as const) {
    it(`index at the ${location}, Morton order, empty markers`, async () => {
      const store = new MemoryStore();
      const arr = await createArray(store, "a", {
        shape: [4, 4],
        dataType: "uint8",
        chunkShape: [2, 2],
        shardShape: [4, 4],
        indexCodecs: [BYTES],
        indexLocation: location,
      });
      // Fill everything but inner chunk (0, 1), which stays fill value (0) and must be left out.
      const data = Uint8Array.from({ length: 16 }, (_, i) => (Math.floor(i / 4) < 2 && i % 4 >= 2 ? 0 : i + 1));
      await arr.set(null, data);
      const shard = (await store.get("a/c/0/0"))!;
      expect(shard.length).toBe(3 * 4 + 64);
      const indexBytes = location === "end" ? shard.subarray(12) : shard.subarray(0, 64);
      const index = u64(indexBytes);
      const base = location === "start" ? 64n : 0n;
      // Morton order of a 2x2 grid: (0,0), (1,0), (0,1), (1,1) — (0,1) is empty.
      expect(Array.from(index)).toEqual([base, 4n, EMPTY, EMPTY, base + 4n, 4n, base + 8n, 4n]);
      const chunk00 = location === "start" ? shard.subarray(64, 68) : shard.subarray(0, 4);
      expect(Array.from(chunk00)).toEqual([1, 2, 5, 6]);
    });
  }

  it("C order on request", async () => {
    const store = new MemoryStore();
    const arr = await createArray(
      store,
      "a",
      { shape: [4, 4], dataType: "uint8", chunkShape: [2, 2], shardShape: [4, 4], indexCodecs: [BYTES] },
      {
        codecOptions: { sharding_indexed: { chunkOrder: "c" } },
      },
    );
    await arr.set(
      null,
      Uint8Array.from({ length: 16 }, (_, i) => i + 1),
    );
    const d = await describeShard(arr, [0, 0]);
    expect(d.chunks.map((c) => ("offset" in c ? c.offset : -1))).toEqual([0, 4, 8, 12]);
  });

  it("a shard whose inner chunks all become fill value is deleted", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", {
      shape: [4],
      dataType: "int32",
      chunkShape: [2],
      shardShape: [4],
      indexCodecs: [BYTES],
    });
    await arr.set(null, iota(4));
    await arr.set([slice(0, 2)], 0);
    expect((await describeShard(arr, [0])).chunks.filter((c) => "empty" in c)).toHaveLength(1);
    await arr.set([slice(2, 4)], 0);
    expect(await store.get("a/c/0")).toBeUndefined();
  });
});

describe("partial writes", () => {
  it("re-encode only the touched inner chunks and copy the others' bytes unchanged", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", {
      shape: [8, 8],
      dataType: "int32",
      chunkShape: [4, 4],
      shardShape: [8, 8],
      indexCodecs: [BYTES],
      codecs: [BYTES],
    });
    await arr.set(null, iota(64));
    const before = await describeShard(arr, [0, 0]);
    const shardBefore = (await store.get("a/c/0/0"))!;
    await arr.set([slice(0, 2), slice(0, 2)], Int32Array.of(-1, -2, -3, -4));
    const after = await describeShard(arr, [0, 0]);
    const shardAfter = (await store.get("a/c/0/0"))!;
    for (let i = 1; i < 4; i++) {
      const b = before.chunks[i] as { offset: number; nbytes: number };
      const a = after.chunks[i] as { offset: number; nbytes: number };
      expect(shardAfter.subarray(a.offset, a.offset + a.nbytes)).toEqual(
        shardBefore.subarray(b.offset, b.offset + b.nbytes),
      );
    }
    const back = (await arr.get([slice(0, 2), slice(0, 3)])).data as Int32Array;
    expect(Array.from(back)).toEqual([-1, -2, 3, -3, -4, 11]);
  });

  it("100 concurrent writes to different inner chunks of one shard lose nothing", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", {
      shape: [10, 10],
      dataType: "int32",
      chunkShape: [1, 1],
      shardShape: [10, 10],
      indexCodecs: [BYTES],
    });
    await Promise.all(Array.from({ length: 100 }, (_, i) => arr.set([Math.floor(i / 10), i % 10], i + 1)));
    expect(Array.from((await arr.get()).data as Int32Array)).toEqual(Array.from(iota(100)));
  });

  for (const strategy of ["append", "in-place"] as const) {
    it(`the ${strategy} strategy writes less and leaves a readable shard`, async () => {
      const c = counted();
      const opts = { codecOptions: { sharding_indexed: { writeStrategy: strategy } } };
      // Each strategy needs a checksum where a torn write would land: append on the index, in-place on the inner
      // chunks.
      const chains =
        strategy === "append" ? { indexCodecs: [BYTES, CRC] } : { indexCodecs: [BYTES], codecs: [BYTES, CRC] };
      const arr = await createArray(
        c.store,
        "a",
        { shape: [8, 8], dataType: "int32", chunkShape: [2, 2], shardShape: [8, 8], ...chains },
        opts,
      );
      await arr.set(null, iota(64));
      const fullSize = (await c.inner.size!("a/c/0/0"))!;
      c.reset();
      await arr.set([slice(2, 4), slice(2, 4)], Int32Array.of(-1, -2, -3, -4));
      const written = c.log.filter((r) => r.method === "append" || r.method === "setRange");
      expect(c.log.some((r) => r.method === "set")).toBe(false);
      expect(written.reduce((n, r) => n + r.bytes, 0)).toBeLessThan(fullSize);
      const expected = Array.from(iota(64));
      [18, 19, 26, 27].forEach((i, k) => {
        expected[i] = -(k + 1);
      });
      expect(Array.from((await (await openArray(c.store, "a")).get()).data as Int32Array)).toEqual(expected);
    });
  }

  it("without a checksum where a torn write would land, append and in-place rewrite the shard instead", async () => {
    for (const strategy of ["append", "in-place"] as const) {
      const c = counted();
      const opts = { codecOptions: { sharding_indexed: { writeStrategy: strategy } } };
      const arr = await createArray(
        c.store,
        "a",
        { shape: [8, 8], dataType: "int32", chunkShape: [2, 2], shardShape: [8, 8], indexCodecs: [BYTES] },
        opts,
      );
      await arr.set(null, iota(64));
      c.reset();
      await arr.set([slice(2, 4), slice(2, 4)], Int32Array.of(-1, -2, -3, -4));
      expect(c.log.filter((r) => r.method === "append" || r.method === "setRange")).toEqual([]);
      expect(c.log.filter((r) => r.method === "set")).toHaveLength(1);
    }
  });

  it("append compacts once wasted bytes pass the threshold", async () => {
    const c = counted();
    const opts = { codecOptions: { sharding_indexed: { writeStrategy: "append", compactionThreshold: 0.5 } } };
    const arr = await createArray(
      c.store,
      "a",
      { shape: [4], dataType: "int32", chunkShape: [1], shardShape: [4], indexCodecs: [BYTES, CRC] },
      opts,
    );
    await arr.set(null, iota(4));
    const sizes: number[] = [];
    for (let round = 0; round < 6; round++) {
      await arr.set([0], 100 + round);
      sizes.push((await c.inner.size!("a/c/0"))!);
    }
    expect(Math.max(...sizes)).toBeLessThan(3 * (16 + 64));
    expect(c.log.some((r) => r.method === "set")).toBe(true);
    expect(Array.from((await arr.get()).data as Int32Array)).toEqual([105, 2, 3, 4]);
  });

  it("rewrite retries when another writer changes the shard between read and write", async () => {
    const inner = new MemoryStore();
    const arr = await createArray(inner, "a", {
      shape: [4],
      dataType: "int32",
      chunkShape: [1],
      shardShape: [4],
      indexCodecs: [BYTES],
    });
    await arr.set(null, iota(4));
    const other = await openArray(inner, "a");
    let interfered = false;
    const racing: Store = {
      get: (key) => inner.get(key),
      getRange: (key, range) => inner.getRange(key, range),
      set: (key, value, options) => inner.set(key, value, options),
      delete: (key) => inner.delete(key),
      getVersioned: async (key: string) => {
        const v = await inner.getVersioned(key);
        if (!interfered) {
          interfered = true;
          await other.set([3], 40);
        }
        return v;
      },
    };
    const mine = await openArray(racing, "a");
    await mine.set([0], 10);
    expect(Array.from((await openArray(inner, "a").then((a) => a.get())).data as Int32Array)).toEqual([10, 2, 3, 40]);
  });
});
