import { ChecksumError, CorruptDataError, openArray, type RangeQuery, slice } from "@zarrkit/core";
import "@zarrkit/crc32c";
import { describe, expect, it } from "vitest";
import { BYTES, createArray, iota, MemoryStore } from "./helpers.js";

const EMPTY = 2n ** 64n - 1n;

async function shardWithIndex(indexCodecs = [BYTES, { name: "crc32c" }]) {
  const store = new MemoryStore();
  const arr = await createArray(store, "a", {
    shape: [4, 4],
    dataType: "int32",
    chunkShape: [2, 2],
    shardShape: [4, 4],
    indexCodecs: indexCodecs as never,
  });
  await arr.set(null, iota(16));
  return { store, shard: (await store.get("a/c/0/0"))! };
}

describe("a malformed shard never yields wrong data", () => {
  it("every single-byte flip in a crc32c-protected index is detected", async () => {
    const { store, shard } = await shardWithIndex();
    const indexStart = shard.length - (4 * 16 + 4);
    for (let i = indexStart; i < shard.length; i++) {
      for (const mask of [0x01, 0x80, 0xff]) {
        const broken = shard.slice();
        broken[i]! ^= mask;
        await store.set("a/c/0/0", broken);
        for (const sel of [null, [slice(0, 2), slice(0, 2)]] as const) {
          const arr = await openArray(store, "a");
          const error = await arr.get(sel).catch((e) => e);
          expect(error, `byte ${i} mask ${mask}`).toBeInstanceOf(ChecksumError);
          expect(error.message).toContain("a/c/0/0");
        }
      }
    }
  });

  const entry = (index: BigUint64Array, chunk: number, offset: bigint, nbytes: bigint) => {
    index[2 * chunk] = offset;
    index[2 * chunk + 1] = nbytes;
  };
  // Each lie concerns inner chunk [1, 0] or earlier; the partial read covers it.
  const lies: [string, (index: BigUint64Array, size: number) => void, RegExp][] = [
    ["half empty", (ix) => entry(ix, 1, EMPTY, 16n), /inner chunk \[0, 1\].*half empty/],
    ["past the end", (ix, size) => entry(ix, 2, BigInt(size), 16n), /inner chunk \[1, 0\].*outside the shard/],
    ["overlapping", (ix) => entry(ix, 3, ix[0]! + 8n, 16n), /overlap/],
    ["beyond 2^53", (ix) => entry(ix, 0, 2n ** 60n, 16n), /inner chunk \[0, 0\].*2\^53/],
  ];
  for (const [name, lie, message] of lies) {
    it(`an index entry ${name} is a CorruptDataError naming the key and the inner chunk`, async () => {
      const { store, shard } = await shardWithIndex([BYTES]);
      const broken = shard.slice();
      const index = new BigUint64Array(broken.buffer, broken.length - 64, 8);
      lie(index, broken.length);
      await store.set("a/c/0/0", broken);
      for (const sel of [null, [slice(0, 4), slice(0, 2)]] as const) {
        const arr = await openArray(store, "a");
        const error = await arr.get(sel).catch((e) => e);
        expect(error, name).toBeInstanceOf(CorruptDataError);
        expect(error.message).toMatch(message);
        expect(error.message).toContain("a/c/0/0");
      }
    });
  }

  it("a truncated shard is an error, not fill value", async () => {
    const { store, shard } = await shardWithIndex();
    await store.set("a/c/0/0", shard.subarray(0, 30));
    await expect((await openArray(store, "a")).get()).rejects.toThrow(CorruptDataError);
    await expect((await openArray(store, "a")).get([0, 0])).rejects.toThrow(/a\/c\/0\/0/);
  });

  it("an inner chunk that runs into the trailing index is detected in a partial read", async () => {
    const { store, shard } = await shardWithIndex([BYTES]);
    const cut = shard.slice(0, 48);
    const grown = new Uint8Array(48 + 64);
    grown.set(cut);
    grown.set(shard.subarray(shard.length - 64), 48);
    await store.set("a/c/0/0", grown);
    const error = await (await openArray(store, "a")).get([3, 3]).catch((e) => e);
    expect(error).toBeInstanceOf(CorruptDataError);
    expect(error.message).toMatch(/inner chunk \[1, 1\]/);
  });

  it("without the shard's size, an inner chunk past the end is still caught by the short read", async () => {
    const { store, shard } = await shardWithIndex([BYTES]);
    const index = new BigUint64Array(shard.slice(shard.length - 64).buffer);
    index[6] = BigInt(shard.length - 8);
    const broken = shard.slice();
    broken.set(new Uint8Array(index.buffer), shard.length - 64);
    await store.set("a/c/0/0", broken);
    const noSize = { get: (k: string) => store.get(k), getRange: (k: string, r: RangeQuery) => store.getRange(k, r) };
    const error = await (await openArray(noSize, "a")).get([3, 3]).catch((e) => e);
    expect(error).toBeInstanceOf(CorruptDataError);
    expect(error.message).toMatch(/Inner chunk \[1, 1\].*past the end/);
  });
});
