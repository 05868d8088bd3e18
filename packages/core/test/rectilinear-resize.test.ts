import { describe, expect, it } from "vitest";
import {
  createArray,
  InvalidSelectionError,
  MemoryStore,
  openArray,
  slice,
  type Store,
  StoreError,
  type StoreRequest,
  withRequestLog,
} from "../src/index.js";
import { parseJson } from "../src/internal.js";
import { keysOf } from "./helpers.js";

const iota = (n: number) => Int32Array.from({ length: n }, (_, i) => i + 1);

async function storedMetadata(store: Store, key: string): Promise<{ shape: number[]; chunk_grid: unknown }> {
  return parseJson((await store.get(key))!, key) as { shape: number[]; chunk_grid: unknown };
}

/** A store without `list`, as over plain HTTP: resize must find chunks to delete without listing. */
function unlistable(inner: MemoryStore): Store {
  return {
    get: (k) => inner.get(k),
    set: (k, v) => inner.set(k, v),
    delete: (k) => inner.delete(k),
  };
}

describe("resizing a regular array", () => {
  it("shrinks: deletes chunks wholly outside, keeps the rest, and the metadata follows", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "r", { shape: [10, 10], chunkShape: [4, 4], dataType: "int32", fillValue: 0 });
    await arr.set(null, iota(100));
    await arr.resize([5, 6]);
    expect(arr.shape).toEqual([5, 6]);
    expect(arr.gridShape).toEqual([2, 2]);
    expect(await keysOf(store)).toEqual(["r/c/0/0", "r/c/0/1", "r/c/1/0", "r/c/1/1", "r/zarr.json", "zarr.json"]);
    const stored = await storedMetadata(store, "r/zarr.json");
    expect(stored.shape).toEqual([5, 6]);
    expect(stored.chunk_grid).toEqual({ name: "regular", configuration: { chunk_shape: [4, 4] } });
    const expected = Int32Array.from({ length: 30 }, (_, k) => Math.floor(k / 6) * 10 + (k % 6) + 1);
    expect((await arr.get()).data).toEqual(expected);
    expect((await (await openArray(store, "r")).get()).data).toEqual(expected);
  });

  it(
    "grows: new chunks read as fill; like zarr-python, data past the old edge inside a kept chunk " + "shows again",
    async () => {
      const store = new MemoryStore();
      const arr = await createArray(store, "r", { shape: [10], chunkShape: [4], dataType: "int32", fillValue: 0 });
      await arr.set(null, iota(10));
      await arr.resize([5]);
      await arr.resize([14]);
      expect(await keysOf(store)).toEqual(["r/c/0", "r/c/1", "r/zarr.json", "zarr.json"]);
      // Chunk 1 (4..7) was kept whole by the shrink to 5; chunk 2 (8..11) was deleted.
      expect(Array.from((await arr.get()).data as Int32Array)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0, 0]);
      await arr.set([slice(12, 14)], 9);
      expect(Array.from((await (await openArray(store, "r")).get([slice(10, 14)])).data as Int32Array)).toEqual([
        0, 0, 9, 9,
      ]);
    },
  );

  it("lists nothing and deletes nothing when no dimension loses chunks", async () => {
    const log: StoreRequest[] = [];
    const store = withRequestLog(new MemoryStore(), (r) => log.push(r));
    const arr = await createArray(store, "r", { shape: [10, 10], chunkShape: [4, 4], dataType: "int32" });
    await arr.set(null, iota(100));
    log.length = 0;
    await arr.resize([9, 30]);
    expect(log.map((r) => `${r.method} ${r.key}`)).toEqual(["set r/zarr.json"]);
  });

  it("resizes a 0-d array to itself and an array at the root", async () => {
    const store = new MemoryStore();
    const scalar = await createArray(store, "s", { shape: [], chunkShape: [], dataType: "int32" });
    await scalar.set(null, 5);
    await scalar.resize([]);
    expect((await scalar.get()).data).toEqual(Int32Array.of(5));
    const root = await createArray(new MemoryStore(), "", { shape: [8], chunkShape: [2], dataType: "int32" });
    await root.set(null, iota(8));
    await root.resize([3]);
    expect(await keysOf(root.store)).toEqual(["c/0", "c/1", "zarr.json"]);
  });

  it("deletes with the v2 key encoding too", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "v", {
      shape: [6, 6],
      chunkShape: [2, 2],
      dataType: "uint8",
      chunkKeyEncoding: { name: "v2", separator: "." },
    });
    await arr.set(null, 1);
    await arr.resize([2, 4]);
    expect(await keysOf(store)).toEqual(["v/0.0", "v/0.1", "v/zarr.json", "zarr.json"]);
  });
});

describe("resizing a rectilinear array", () => {
  it("shrinks: drops the edges wholly outside with their chunks", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "t", {
      shape: [10, 6],
      chunkShape: [
        [2, 3, 5],
        [[1, 2], 4],
      ],
      dataType: "int32",
    });
    await arr.set(null, iota(60));
    await arr.resize([4, 2]);
    expect(arr.shape).toEqual([4, 2]);
    expect(arr.gridShape).toEqual([2, 2]);
    expect(arr.metadata.chunk_grid).toEqual({
      name: "rectilinear",
      configuration: { kind: "inline", chunk_shapes: [[2, 3], 1] },
    });
    expect(await keysOf(store)).toEqual(["t/c/0/0", "t/c/0/1", "t/c/1/0", "t/c/1/1", "t/zarr.json", "zarr.json"]);
    const expected = Int32Array.of(1, 2, 7, 8, 13, 14, 19, 20);
    expect((await arr.get()).data).toEqual(expected);
    const reopened = await openArray(store, "t");
    expect(reopened.metadata.chunk_grid).toEqual(arr.metadata.chunk_grid);
    expect((await reopened.get()).data).toEqual(expected);
  });

  it("grows: appends one edge covering the new extent per dimension, chunk shapes unchanged", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "t", { shape: [31, 4], chunkShape: [[31], 4], dataType: "int32" });
    await arr.set(null, iota(124));
    await arr.resize([59, 4]);
    await arr.resize([90, 10]);
    expect(arr.metadata.chunk_grid).toEqual({
      name: "rectilinear",
      configuration: {
        kind: "inline",
        chunk_shapes: [
          [31, 28, 31],
          [4, 6],
        ],
      },
    });
    expect(await storedMetadata(store, "t/zarr.json")).toMatchObject({
      shape: [90, 10],
      chunk_grid: arr.metadata.chunk_grid,
    });
    expect(arr.chunkSpec([1, 1]).shape).toEqual([28, 6]);
    await arr.set([slice(31, 90), slice(4, 10)], -1);
    expect(await keysOf(store)).toEqual(["t/c/0/0", "t/c/1/1", "t/c/2/1", "t/zarr.json", "zarr.json"]);
    const reopened = await openArray(store, "t");
    const all = (await reopened.get()).data as Int32Array;
    expect(all[0]).toBe(1);
    expect(all[30 * 10 + 3]).toBe(124);
    expect(all[30 * 10 + 4]).toBe(0);
    expect(all[31 * 10 + 3]).toBe(0);
    expect(all[89 * 10 + 9]).toBe(-1);
  });

  it("keeps the ZEP 3 draft form it was opened with", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "t", {
      shape: [10],
      chunkShape: [[5, 5]],
      dataType: "uint8",
      chunkGrid: "rectangular",
    });
    expect(arr.metadata.chunk_grid).toEqual({ name: "rectangular", configuration: { chunk_shape: [5] } });
    await arr.resize([12]);
    expect(await storedMetadata(store, "t/zarr.json")).toMatchObject({
      chunk_grid: { name: "rectangular", configuration: { chunk_shape: [[5, 5, 2]] } },
    });
  });

  it("finds the chunks to delete without list, one delete per position", async () => {
    const inner = new MemoryStore();
    const log: StoreRequest[] = [];
    const store = withRequestLog(unlistable(inner), (r) => log.push(r));
    const arr = await createArray(store, "t", { shape: [9, 4], chunkShape: [[2, 3, 4], 2], dataType: "uint8" });
    await arr.set([slice(0, 9), slice(0, 2)], 3);
    log.length = 0;
    await arr.resize([2, 2]);
    const deletes = log.filter((r) => r.method === "delete").map((r) => r.key);
    expect(deletes.sort()).toEqual(["t/c/0/1", "t/c/1/0", "t/c/1/1", "t/c/2/0", "t/c/2/1"]);
    expect(await keysOf(inner)).toEqual(["t/c/0/0", "t/zarr.json", "zarr.json"]);
  });

  it("deletes through list only the chunks it finds", async () => {
    const log: StoreRequest[] = [];
    const store = withRequestLog(new MemoryStore(), (r) => log.push(r));
    const arr = await createArray(store, "t", { shape: [9, 4], chunkShape: [[2, 3, 4], 2], dataType: "uint8" });
    await arr.set([slice(0, 9), slice(0, 2)], 3);
    log.length = 0;
    await arr.resize([2, 2]);
    expect(log.map((r) => `${r.method} ${r.key}`).sort()).toEqual([
      "delete t/c/1/0",
      "delete t/c/2/0",
      "list t/",
      "set t/zarr.json",
    ]);
  });

  it("rejects a new shape of the wrong rank or with bad lengths, and read-only stores", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "t", { shape: [9], chunkShape: [[2, 3, 4]], dataType: "uint8" });
    await expect(arr.resize([9, 1])).rejects.toThrow(InvalidSelectionError);
    await expect(arr.resize([-1])).rejects.toThrow(/Cannot resize a 1-dimensional array to \[-1\]/);
    await expect(arr.resize([2.5])).rejects.toThrow(InvalidSelectionError);
    const readOnly = await openArray({ get: (k) => store.get(k) }, "t");
    await expect(readOnly.resize([3])).rejects.toThrow(StoreError);
    expect(arr.shape).toEqual([9]);
  });
});
