import { describe, expect, it } from "vitest";
import { countRequests, createArray, MemoryStore, slice } from "../src/index.js";

describe("chunkRegions", () => {
  it("yields every grid cell in C order, clipped to the array, with its key", async () => {
    const arr = await createArray(new MemoryStore(), "a", { shape: [5, 7], chunkShape: [2, 3], dataType: "uint8" });
    const regions = [...arr.chunkRegions()];
    expect(regions).toHaveLength(3 * 3);
    expect(regions.map((r) => r.coords)).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
      [1, 0],
      [1, 1],
      [1, 2],
      [2, 0],
      [2, 1],
      [2, 2],
    ]);
    expect(regions[5]).toEqual({
      coords: [1, 2],
      key: arr.chunkKey([1, 2]),
      selection: [slice(2, 4), slice(6, 7)],
      shape: [2, 1],
    });
    expect(regions[8]!.shape).toEqual([1, 1]);
    // The regions tile the array exactly.
    expect(regions.reduce((n, r) => n + r.shape[0]! * r.shape[1]!, 0)).toBe(35);
  });

  it("is lazy: a grid of 2^40 cells yields its first cells at once", async () => {
    const arr = await createArray(new MemoryStore(), "a", {
      shape: [2 ** 20, 2 ** 20],
      chunkShape: [1, 1],
      dataType: "uint8",
    });
    const it = arr.chunkRegions();
    expect(it.next().value?.coords).toEqual([0, 0]);
    expect(it.next().value?.coords).toEqual([0, 1]);
  });

  it("gives a rectilinear grid's own extents", async () => {
    const arr = await createArray(new MemoryStore(), "r", {
      shape: [10, 4],
      chunkShape: [[3, 7], 4],
      dataType: "int16",
    });
    expect([...arr.chunkRegions()].map((r) => [r.coords, r.shape])).toEqual([
      [
        [0, 0],
        [3, 4],
      ],
      [
        [1, 0],
        [7, 4],
      ],
    ]);
  });

  it("a 0-d array has one region; an empty array none", async () => {
    const scalar = await createArray(new MemoryStore(), "s", { shape: [], chunkShape: [], dataType: "float64" });
    expect([...scalar.chunkRegions()]).toEqual([{ coords: [], key: scalar.chunkKey([]), selection: [], shape: [] }]);
    const empty = await createArray(new MemoryStore(), "e", { shape: [0, 4], chunkShape: [2, 2], dataType: "uint8" });
    expect([...empty.chunkRegions()]).toEqual([]);
  });

  it("copying region by region reproduces the array, one store write per chunk", async () => {
    const src = await createArray(new MemoryStore(), "src", { shape: [9, 10], chunkShape: [4, 4], dataType: "int32" });
    const values = Int32Array.from({ length: 90 }, (_, i) => i * 7 - 3);
    await src.set(null, values);
    const store = countRequests(new MemoryStore());
    const dst = await createArray(store, "dst", { shape: [9, 10], chunkShape: [3, 5], dataType: "int32" });
    store.reset();
    for (const region of dst.chunkRegions()) {
      const block = await src.get(region.selection);
      expect(block.shape).toEqual(region.shape);
      await dst.set(region.selection, block);
    }
    const writes = store.log.filter((r) => r.method === "set");
    expect(writes.map((r) => r.key).sort()).toEqual([...dst.chunkRegions()].map((r) => r.key).sort());
    expect(store.reads()).toBe(0);
    expect((await dst.get()).data).toEqual(values);
  });
});
