import { InvalidOptionError, openArray, StoreError } from "@zarrkit/core";
import { storedValue } from "@zarrkit/core/internal";
import { describe, expect, it } from "vitest";
import { plannedReads } from "../src/index.js";
import { coalescingFor, resolveOptions } from "../src/options.js";
import { windowValue } from "../src/window-value.js";
import { BYTES, counted, createArray, MemoryStore } from "./helpers.js";

// The z-plane benchmark in small: shards of 4x4x4 inner chunks in Morton order, so one z-plane needs 16 inner
// chunks per shard at positions like 9, 11, 13, 15, 25, ..., 63: gaps of 1 chunk (16 KiB here) or 9 (144 KiB).
const SHAPE = [64, 128, 128];
const INNER = 16 ** 3 * 4;
const INDEX = 64 * 16;
const Z = 53; // inner chunk 3 along z, away from its edges
const GIB = 2 ** 30;

/** A memory store that declares remote-like request costs: ranges less than 1 MiB apart are cheaper read together. */
function remoteLike(gap = 2 ** 20): MemoryStore & { readonly coalesceGapBytes: number } {
  return Object.assign(new MemoryStore(), { coalesceGapBytes: gap });
}

async function volume(inner: MemoryStore) {
  const arr = await createArray(inner, "v", {
    shape: SHAPE,
    dataType: "uint32",
    chunkShape: [16, 16, 16],
    shardShape: [64, 64, 64],
    indexCodecs: [BYTES],
  });
  await arr.set(
    null,
    Uint32Array.from({ length: 64 * 128 * 128 }, (_, i) => i),
  );
  return arr;
}

/** Read the z-plane through a fresh array (no cached index); the reads it took, per kind. */
async function readPlane(inner: MemoryStore, options: { coalesceGapBytes?: number; maxGapBytes?: number } = {}) {
  const c = counted(inner);
  const arr = await openArray(c.store, "v", { codecOptions: { sharding_indexed: options } });
  c.reset();
  const plane = await arr.get([Z, null, null]);
  expect(plane.data).toEqual(Uint32Array.from({ length: 128 * 128 }, (_, i) => Z * 128 * 128 + i));
  const indexes = c.log.filter((r) => r.range && "suffixLength" in r.range).length;
  return { total: c.reads(), indexes, data: c.reads() - indexes, bytes: c.store.bytesRead() };
}

describe("coalescing follows the store's coalesceGapBytes hint", () => {
  it("a store declaring a large gap gets a sparse z-plane in one data request per shard", async () => {
    const store = remoteLike();
    await volume(store);
    const read = await readPlane(store);
    expect(read).toMatchObject({ indexes: 4, data: 4, total: 8 });
    // The price: the chunks between the wanted ones come along (positions 9 to 63: 55 chunks for 16).
    expect(read.bytes).toBe(4 * INDEX + 4 * 55 * INNER);
  });

  it("a store without the hint keeps the 64 KiB default: only the 1-chunk gaps are bridged", async () => {
    const store = new MemoryStore();
    await volume(store);
    expect(await readPlane(store)).toMatchObject({ indexes: 4, data: 4 * 4, total: 20 });
  });

  it("an explicit coalesceGapBytes overrides the store's hint, both ways", async () => {
    const hinted = remoteLike();
    await volume(hinted);
    // 0: no gap is bridged, every inner chunk is a request of its own.
    expect(await readPlane(hinted, { coalesceGapBytes: 0 })).toMatchObject({ data: 4 * 16, total: 68 });
    expect(await readPlane(hinted, { coalesceGapBytes: 64 * 2 ** 10 })).toMatchObject({ data: 4 * 4 });
    const plain = new MemoryStore();
    await volume(plain);
    expect(await readPlane(plain, { coalesceGapBytes: GIB })).toMatchObject({ data: 4 });
  });

  it("the deprecated maxGapBytes sets the gap; both names at once are an InvalidOptionError naming both", async () => {
    const hinted = remoteLike();
    await volume(hinted);
    expect(await readPlane(hinted, { maxGapBytes: 0 })).toMatchObject({ data: 4 * 16, total: 68 });
    expect(() => resolveOptions({ coalesceGapBytes: 0, maxGapBytes: 0 })).toThrow(
      /codecOptions\.sharding_indexed\.coalesceGapBytes and codecOptions\.sharding_indexed\.maxGapBytes/,
    );
    expect(() => resolveOptions({ coalesceGapBytes: 0, maxGapBytes: 0 })).toThrow(InvalidOptionError);
  });

  it("maxRequestBytes still bounds a coalesced request", async () => {
    const store = remoteLike(GIB);
    await volume(store);
    const c = counted(store);
    const arr = await openArray(c.store, "v", { codecOptions: { sharding_indexed: { maxRequestBytes: 28 * INNER } } });
    c.reset();
    await arr.get([Z, null, null]);
    // Positions 9..31 (23 chunks) fit in 28; 41..63 start the next request.
    expect(c.reads()).toBe(4 + 4 * 2);
  });

  it("the default request cap grows with the gap, so it never splits what the gap merges", () => {
    const MiB = 2 ** 20;
    const value = (coalesceGapBytes?: number) => ({
      key: "k",
      get: async () => undefined,
      ...(coalesceGapBytes === undefined ? {} : { coalesceGapBytes }),
    });
    const defaults = resolveOptions({});
    expect(coalescingFor(defaults, value())).toEqual({ coalesceGapBytes: 64 * 1024, maxRequestBytes: 16 * MiB });
    // The z-plane of the 512^3 benchmark spans ~17 MB per shard: over HTTP that stays one request.
    expect(coalescingFor(defaults, value(4 * MiB))).toEqual({ coalesceGapBytes: 4 * MiB, maxRequestBytes: 32 * MiB });
    expect(coalescingFor(resolveOptions({ coalesceGapBytes: 8 * MiB }), value())).toEqual({
      coalesceGapBytes: 8 * MiB,
      maxRequestBytes: 64 * MiB,
    });
    expect(coalescingFor(resolveOptions({ maxRequestBytes: MiB }), value(4 * MiB))).toEqual({
      coalesceGapBytes: 4 * MiB,
      maxRequestBytes: MiB,
    });
    expect(coalescingFor(resolveOptions({ coalesceGapBytes: 0, maxRequestBytes: 0 }), value(4 * MiB))).toEqual({
      coalesceGapBytes: 0,
      maxRequestBytes: 0,
    });
  });

  it("explicit coalescing options are still validated: a bad one is an InvalidOptionError naming it", () => {
    expect(() => resolveOptions({ coalesceGapBytes: -1 })).toThrow(
      /codecOptions.sharding_indexed.coalesceGapBytes must be a non-negative integer, got -1/,
    );
    expect(() => resolveOptions({ maxRequestBytes: 1.5 })).toThrow(/maxRequestBytes must be a non-negative integer/);
    expect(() => resolveOptions({ coalesceGapBytes: "4MiB" })).toThrow(
      expect.objectContaining({ name: "InvalidOptionError", field: "codecOptions.sharding_indexed.coalesceGapBytes" }),
    );
    expect(() => resolveOptions({ maxGapBytes: "4MiB" })).toThrow(InvalidOptionError);
  });

  it("a store's hint that is not a non-negative integer is a StoreError naming the shard", async () => {
    for (const hint of [-1, Number.NaN, 1.5]) {
      const store = remoteLike(hint);
      await volume(store);
      const error = await readPlane(store).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      expect((error as StoreError).message).toMatch(/coalesceGapBytes hint must be a non-negative integer/);
      expect((error as StoreError).key).toMatch(/^v\/c\//);
    }
  });

  it("plannedReads plans with the same gap as reads", async () => {
    const store = remoteLike();
    await volume(store);
    const plans = await plannedReads(await openArray(store, "v"), [Z, null, null]);
    expect(plans.map((p) => p.ranges.length)).toEqual([1, 1, 1, 1]);
    expect(plans[0]!.ranges[0]!.length).toBe(55 * INNER);
    const explicit = await plannedReads(
      await openArray(store, "v", { codecOptions: { sharding_indexed: { coalesceGapBytes: 0 } } }),
      [Z, null, null],
    );
    expect(explicit.map((p) => p.ranges.length)).toEqual([16, 16, 16, 16]);
  });

  it("a nested shard, seen as a window of its parent, keeps the parent's hint", () => {
    const parent = storedValue(remoteLike(12345), "v/c/0/0/0");
    expect(windowValue(parent, "v/c/0/0/0[1,2,3]", 100, 50, undefined).coalesceGapBytes).toBe(12345);
    expect("coalesceGapBytes" in windowValue(storedValue(new MemoryStore(), "k"), "k[0]", 0, 1, undefined)).toBe(false);
  });
});
