import { InvalidMetadataError, openArray, slice } from "@zarrkit/core";
import { describe, expect, it } from "vitest";
import { describeShard, plannedReads } from "../src/index.js";
import { BYTES, counted, createArray, iota, MemoryStore } from "./helpers.js";

// Shards of 8, 4, 12 and 6 rows (a rectilinear grid) of 2x4 inner chunks.
const SHAPE = [30, 12];
const SHARDS = [[8, 4, 12, 6], 12];

async function sharded() {
  const c = counted();
  const arr = await createArray(c.store, "a", {
    shape: SHAPE,
    dataType: "int32",
    chunkShape: [2, 4],
    shardShape: SHARDS,
    indexCodecs: [BYTES],
  });
  await arr.set(null, iota(360));
  const fresh = await openArray(c.store, "a");
  c.reset();
  return { ...c, arr, fresh };
}

/** Rows [r0, r1) and columns [c0, c1) of iota(360) laid out as 30x12. */
function expected(r0: number, r1: number, c0: number, c1: number): number[] {
  const out: number[] = [];
  for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) out.push(r * 12 + c + 1);
  return out;
}

describe("sharding on a rectilinear grid", () => {
  it("stores one shard per edge, each with its own inner chunk grid", async () => {
    const { arr, inner, fresh } = await sharded();
    expect(arr.metadata.chunk_grid).toEqual({
      name: "rectilinear",
      configuration: { kind: "inline", chunk_shapes: [[8, 4, 12, 6], 12] },
    });
    expect(arr.chunkShape).toEqual([2, 4]);
    expect(arr.gridShape).toEqual([4, 1]);
    const keys: string[] = [];
    for await (const k of inner.list!("a/c/")) keys.push(k);
    expect(keys.sort()).toEqual(["a/c/0/0", "a/c/1/0", "a/c/2/0", "a/c/3/0"]);
    expect((await describeShard(fresh, [2, 0])).chunksPerShard).toEqual([6, 3]);
    expect((await describeShard(fresh, [1, 0])).chunksPerShard).toEqual([2, 3]);
    expect(Array.from((await fresh.get()).data as Int32Array)).toEqual(Array.from(iota(360)));
  });

  it("reads one inner chunk of a middle shard with two requests cold, one warm", async () => {
    const { fresh, reads, reset } = await sharded();
    const cold = await fresh.get([slice(14, 16), slice(4, 8)]);
    expect(reads()).toBe(2);
    expect(Array.from(cold.data as Int32Array)).toEqual(expected(14, 16, 4, 8));
    reset();
    const warm = await fresh.get([slice(20, 22), slice(0, 4)]);
    expect(reads()).toBe(1);
    expect(Array.from(warm.data as Int32Array)).toEqual(expected(20, 22, 0, 4));
  });

  it("reads across shards of different sizes: an index and the needed chunks per shard", async () => {
    const { fresh, reads, log } = await sharded();
    const got = await fresh.get([slice(11, 13), slice(5, 7)]);
    expect(Array.from(got.data as Int32Array)).toEqual(expected(11, 13, 5, 7));
    expect(reads()).toBe(4);
    expect(new Set(log.map((r) => r.key))).toEqual(new Set(["a/c/1/0", "a/c/2/0"]));
    const plans = await plannedReads(fresh, [slice(7, 25), 0]);
    expect(plans.map((p) => p.key)).toEqual(["a/c/0/0", "a/c/1/0", "a/c/2/0", "a/c/3/0"]);
  });

  it("reads a whole shard of any size with its index and one range", async () => {
    const { fresh, log } = await sharded();
    const shard = await fresh.get([slice(24, 30), null]);
    expect(log.map((r) => r.method)).toEqual(["getRangeWithSize", "getRangeInto"]);
    expect(Array.from(shard.data as Int32Array)).toEqual(expected(24, 30, 0, 12));
  });

  it("writes part of shards of different sizes", async () => {
    const { arr, store } = await sharded();
    await arr.set([slice(6, 26, 3), slice(1, 12, 5)], -7);
    const model = Array.from(iota(360));
    for (let r = 6; r < 26; r += 3) for (let c = 1; c < 12; c += 5) model[r * 12 + c] = -7;
    expect(Array.from((await (await openArray(store, "a")).get()).data as Int32Array)).toEqual(model);
  });

  it("refuses a shard its inner chunks do not divide, naming the shard and the dimension, before writing", async () => {
    const store = new MemoryStore();
    const creating = createArray(store, "b", {
      shape: [30, 12],
      dataType: "int32",
      chunkShape: [2, 4],
      shardShape: [[8, 4, 13, 5], 12],
      indexCodecs: [BYTES],
    });
    await expect(creating).rejects.toThrow(InvalidMetadataError);
    await expect(creating).rejects.toThrow(
      /^The shard at grid coordinates \[2, 0\] has shape \[13, 12\], which the codecs reject along dimension 0: /,
    );
    await expect(creating).rejects.toThrow(/along dimension 0 \(13 is not a multiple of 2\)/);
    expect(await store.get("b/zarr.json")).toBeUndefined();
  });

  it("resizes: growth must keep shards divisible; shrinking deletes whole shards", async () => {
    const { arr, store, inner } = await sharded();
    await expect(arr.resize([33, 12])).rejects.toThrow(
      /shard at grid coordinates \[4, 0\] has shape \[3, 12\], which the codecs reject along dimension 0/,
    );
    expect(arr.shape).toEqual(SHAPE);
    await arr.resize([34, 12]);
    expect(arr.metadata.chunk_grid).toEqual({
      name: "rectilinear",
      configuration: { kind: "inline", chunk_shapes: [[8, 4, 12, 6, 4], 12] },
    });
    await arr.set([slice(30, 34), null], 5);
    await arr.resize([10, 12]);
    const keys: string[] = [];
    for await (const k of inner.list!("a/c/")) keys.push(k);
    expect(keys.sort()).toEqual(["a/c/0/0", "a/c/1/0"]);
    const reopened = await openArray(store, "a");
    expect(reopened.metadata.chunk_grid).toEqual({
      name: "rectilinear",
      configuration: { kind: "inline", chunk_shapes: [[8, 4], 12] },
    });
    expect(Array.from((await reopened.get()).data as Int32Array)).toEqual(expected(0, 10, 0, 12));
  });
});
