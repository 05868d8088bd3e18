// Arrays far larger than memory: reads check the result's size before
// visiting any chunk, chunks are walked lazily, and no path builds arrays
// with one entry per chunk of the array.
import { describe, expect, it } from "vitest";
import { registerCodec } from "@zarrkit/registry";
import { createArray, InvalidSelectionError, MemoryStore, slice, StoreError } from "../src/index.js";
import {
  cartesian,
  type DimChunkPart,
  dimensionParts,
  dimensionPartsOf,
  range,
  regularChunkGrid,
} from "../src/internal.js";

const MiB = 2 ** 20;

/** Run `work`, print its time and heap growth, and return both. */
async function measured<T>(
  label: string,
  work: () => Promise<T>,
): Promise<{ result: T | unknown; ms: number; heap: number }> {
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  let result: T | unknown;
  try {
    result = await work();
  } catch (error) {
    result = error;
  }
  const ms = performance.now() - started;
  const heap = process.memoryUsage().heapUsed - heapBefore;
  const rss = process.memoryUsage().rss - rssBefore;
  console.log(
    `${label}: ${ms.toFixed(1)} ms, heap +${(heap / MiB).toFixed(1)} MiB, rss +${(rss / MiB).toFixed(1)} MiB`,
  );
  return { result, ms, heap };
}

describe("huge shapes", () => {
  it("get() of a whole [2^33] array of [64] chunks refuses at once, naming the selection shape", async () => {
    const arr = await createArray(new MemoryStore(), "a", { shape: [2 ** 33], chunkShape: [64], dataType: "uint8" });
    const { result, ms, heap } = await measured("get() of [2^33] by [64]", () => arr.get());
    expect(result).toBeInstanceOf(InvalidSelectionError);
    expect((result as Error).message).toContain("Selection of shape [8589934592]");
    expect(ms).toBeLessThan(1000);
    expect(heap).toBeLessThan(64 * MiB);
  });

  it("get() of a whole [2^31, 16] array of [8, 8] chunks refuses at once", async () => {
    const arr = await createArray(new MemoryStore(), "a", {
      shape: [2 ** 31, 16],
      chunkShape: [8, 8],
      dataType: "float64",
    });
    const { result, ms } = await measured("get() of [2^31, 16] by [8, 8]", () => arr.get());
    expect(result).toBeInstanceOf(InvalidSelectionError);
    expect((result as Error).message).toContain("Selection of shape [2147483648, 16]");
    expect(ms).toBeLessThan(1000);
  });

  it("refuses selections whose bytes exceed what one ArrayBuffer can hold, and too many strings", async () => {
    // 2^30 float64 elements: within 2^31 slots, but 8 GiB.
    const arr = await createArray(new MemoryStore(), "f", {
      shape: [2 ** 30],
      chunkShape: [2 ** 20],
      dataType: "float64",
    });
    await expect(arr.get()).rejects.toThrow(/8589934592 bytes/);
    registerCodec("test.json-strings", () => () => ({
      kind: "array_to_bytes",
      name: "test.json-strings",
      encode: (chunk) => new TextEncoder().encode(JSON.stringify(chunk.data)),
      decode: (bytes, spec) => ({ data: JSON.parse(new TextDecoder().decode(bytes)), shape: [...spec.shape] }),
      toJSON: () => ({ name: "test.json-strings" }),
    }));
    const strings = await createArray(new MemoryStore(), "s", {
      shape: [2 ** 28],
      chunkShape: [2 ** 20],
      dataType: "string",
      codecs: [{ name: "test.json-strings" }],
    });
    await expect(strings.get()).rejects.toThrow(/Selection of shape \[268435456\].*more than 134217728 strings/);
    expect((await strings.get([slice(0, 3)])).data).toEqual(["", "", ""]);
  });

  it("reads and writes a small window at the far end of a [2^33] array, touching only its chunks", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", { shape: [2 ** 33], chunkShape: [64], dataType: "uint8" });
    const end = 2 ** 33;
    const { ms } = await measured("set + get of 100 elements at the end of [2^33]", async () => {
      await arr.set([slice(end - 100, end)], 7);
      const back = await arr.get([slice(end - 110, end)]);
      expect(Array.from(back.data as Uint8Array)).toEqual([...new Array(10).fill(0), ...new Array(100).fill(7)]);
    });
    expect(ms).toBeLessThan(2000);
    const keys: string[] = [];
    for await (const key of store.list("a/c/")) keys.push(key);
    expect(keys.sort()).toEqual(["a/c/134217726", "a/c/134217727"]);
  });

  it("resize of a [2^31, 16] array by [8, 8] chunks on a store that cannot list starts deleting at once", async () => {
    const base = new MemoryStore();
    const arr = await createArray(base, "a", { shape: [2 ** 31, 16], chunkShape: [8, 8], dataType: "uint8" });
    let deletes = 0;
    // No `list`: resize must delete every chunk position outside the new shape blindly (2^28 of them here).
    const store = {
      get: base.get.bind(base),
      set: base.set.bind(base),
      delete: async () => {
        if (++deletes > 10) throw new StoreError("stop: enough deletes seen");
      },
    };
    const { openArray } = await import("../src/index.js");
    const blind = await openArray(store, "a");
    const { result, ms, heap } = await measured(
      "resize [2^31, 16] -> [2^31, 8] without list (stopped after 10 deletes)",
      () => blind.resize([2 ** 31, 8]),
    );
    expect(result).toBeInstanceOf(StoreError);
    expect(deletes).toBeGreaterThan(10);
    expect(ms).toBeLessThan(2000);
    expect(heap).toBeLessThan(64 * MiB);
    expect(arr.shape).toEqual([2 ** 31, 16]);
  });
});

describe("indexing helpers stay lazy", () => {
  const dims = regularChunkGrid([2 ** 33, 2 ** 33], [64, 64]).dims;

  it("dimensionPartsOf walks a dimension of 2^27 chunks without holding them, again on every iteration", () => {
    const parts = dimensionPartsOf({ start: 0, stop: 2 ** 33, step: 1 }, dims[0]!);
    const first = parts[Symbol.iterator]().next().value;
    expect(first).toEqual({ chunkIndex: 0, local: { start: 0, stop: 64, step: 1 }, outOffset: 0, count: 64 });
    expect(parts[Symbol.iterator]().next().value).toEqual(first);
    // The eager form still returns an array, as before.
    expect(dimensionParts({ start: 5, stop: 200, step: 3 }, dims[0]!).map((p) => p.chunkIndex)).toEqual([0, 1, 2, 3]);
  });

  it("cartesian over lazy parts yields the first combinations at once, and keeps its array form", () => {
    const perDim = [0, 1].map((d) => dimensionPartsOf({ start: 0, stop: 2 ** 33, step: 1 }, dims[d]!));
    const combos = cartesian(perDim);
    const firstTwo = [combos.next().value!, combos.next().value!].map((c) => c.map((p: DimChunkPart) => p.chunkIndex));
    expect(firstTwo).toEqual([
      [0, 0],
      [0, 1],
    ]);
    expect([...cartesian<number | string>([range(0, 2), ["a", "b"]])]).toEqual([
      [0, "a"],
      [0, "b"],
      [1, "a"],
      [1, "b"],
    ]);
    expect([...cartesian([[1, 2], []])]).toEqual([]);
    expect([...cartesian([])]).toEqual([[]]);
    // An empty last dimension stops before walking the 2^27 chunks of the first.
    expect([...cartesian<DimChunkPart | number>([perDim[0]!, range(0, 0)])]).toEqual([]);
  });
});
