import { describe, expect, it } from "vitest";
import * as zk from "zarrkit";
import { arrayKeys, type CopyProgress, checkCopy, copyArray } from "../src/offline-copy.js";

async function sample() {
  const store = new zk.MemoryStore();
  const array = await zk.createArray(store, "group/a", {
    shape: [8, 8],
    dataType: "uint16",
    chunkShape: [2, 2],
    shardShape: [4, 4],
  });
  // Three of the four shards written: the fourth is never-written fill value.
  await array.set([zk.slice(0, 8), zk.slice(0, 4)], {
    data: Uint16Array.from({ length: 32 }, (_, i) => i + 1),
    shape: [8, 4],
  });
  await array.set([zk.slice(0, 4), zk.slice(4, 8)], 7);
  return { store, array };
}

describe("copying an array for offline use", () => {
  it("lists the metadata and every shard, relative to the array", async () => {
    const { array } = await sample();
    expect(arrayKeys(array)).toEqual(["zarr.json", "c/0/0", "c/0/1", "c/1/0", "c/1/1"]);
  });

  it("copies the stored bytes so the copy reads the same values, skipping missing keys", async () => {
    const { store, array } = await sample();
    const target = new zk.MemoryStore();
    const progress: CopyProgress[] = [];
    const bytes = await copyArray(store, array.path, arrayKeys(array), target, { onProgress: (p) => progress.push(p) });
    const copy = await zk.openArray(target, "");
    expect(await copy.get()).toEqual(await array.get());
    expect(await target.get("c/1/1")).toBeUndefined();
    expect(progress.map((p) => p.keysDone)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(progress.at(-1)!.bytes).toBe(bytes);
    expect(progress.at(-1)!.etaSeconds).toBe(0);
  });

  it("stops when aborted and resumes without copying again what is there", async () => {
    const { store, array } = await sample();
    const target = new zk.MemoryStore();
    const keys = arrayKeys(array);
    const controller = new AbortController();
    const first = copyArray(store, array.path, keys, target, {
      signal: controller.signal,
      onProgress: (p) => p.keysDone === 2 && controller.abort(),
    });
    await expect(first).rejects.toThrow(/abort/i);
    const present = new Set<string>();
    for await (const key of target.list!("")) present.add(key);
    expect([...present].sort()).toEqual(["c/0/0", "zarr.json"]);
    const reads: string[] = [];
    const counted = zk.withRequestLog(store, (r) => reads.push(r.key));
    await copyArray(counted, array.path, keys, target, { present });
    expect(reads).toEqual(["group/a/c/0/1", "group/a/c/1/0", "group/a/c/1/1"]);
    expect(await (await zk.openArray(target, "")).get()).toEqual(await array.get());
  });

  it("reads back what it stored: a store that keeps half of a value fails the copy", async () => {
    const { store, array } = await sample();
    const target = new zk.MemoryStore();
    const halving: zk.Store = {
      get: async (key) => {
        const value = await target.get(key);
        return value && key.startsWith("c/") ? value.subarray(0, value.byteLength >> 1) : value;
      },
      set: (key, value) => target.set(key, value),
    };
    await expect(copyArray(store, array.path, arrayKeys(array), halving)).rejects.toThrow(
      /The saved copy of c\/0\/0 is not what was read \(\d+ bytes stored of \d+\)/,
    );
  });

  it("checks that the copy can be read: a shard cut in half is found, a whole copy passes", async () => {
    const { store, array } = await sample();
    const target = new zk.MemoryStore();
    await copyArray(store, array.path, arrayKeys(array), target);
    await expect(checkCopy(target)).resolves.toBeUndefined();
    const shard = (await target.get("c/0/1"))!;
    await target.set("c/0/1", shard.subarray(0, shard.byteLength >> 1));
    await expect(checkCopy(target)).rejects.toBeInstanceOf(zk.ZarrkitError);
  });

  it("checks an unsharded copy by its metadata", async () => {
    const store = new zk.MemoryStore();
    const array = await zk.createArray(store, "", { shape: [4], dataType: "uint8", chunkShape: [2] });
    await array.set(null, 1);
    const target = new zk.MemoryStore();
    await copyArray(store, "", arrayKeys(array), target);
    await expect(checkCopy(target)).resolves.toBeUndefined();
  });
});
