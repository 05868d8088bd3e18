import { describe, expect, it } from "vitest";
import { counted, createArray } from "./helpers.js";

describe("writing a whole shard at once (chunkRegions + set)", () => {
  it(
    "encodes each shard in memory and stores it with one write; only shards clipped by the array's edge are " +
      "read first",
    async () => {
      const { store, log, reads, reset } = counted();
      const arr = await createArray(store, "s", {
        shape: [10, 12],
        dataType: "uint16",
        chunkShape: [2, 3],
        shardShape: [4, 6],
      });
      reset();
      const regions = [...arr.chunkRegions()];
      expect(regions.map((r) => r.shape)).toEqual([
        [4, 6],
        [4, 6],
        [4, 6],
        [4, 6],
        [2, 6],
        [2, 6],
      ]);
      for (const region of regions) {
        const n = region.shape[0]! * region.shape[1]!;
        await arr.set(region.selection, {
          data: Uint16Array.from({ length: n }, (_, i) => i + 1 + region.coords[0]! * 100),
          shape: region.shape,
        });
      }
      // The two shards of the last row hold only 2 of their 4 rows: a partial write, so read (absent here) before the
      // one
      // write.
      expect(log.filter((r) => r.method === "get" || r.method === "getVersioned").map((r) => r.key)).toEqual([
        regions[4]!.key,
        regions[5]!.key,
      ]);
      expect(reads()).toBe(2);
      const writes = log.filter(
        (r) => r.method === "set" || r.method === "delete" || r.method === "setRange" || r.method === "append",
      );
      expect(writes.map((r) => r.method)).toEqual(regions.map(() => "set"));
      expect(writes.map((r) => r.key)).toEqual(regions.map((r) => r.key));
      const back = await arr.get(regions[5]!.selection);
      expect([...back.data]).toEqual(Array.from({ length: 12 }, (_, i) => i + 201));
    },
  );

  it("a part of a shard is read, modified and written (the whole-shard path needs the whole region)", async () => {
    const { store, reads, reset } = counted();
    const arr = await createArray(store, "s", {
      shape: [4, 6],
      dataType: "uint16",
      chunkShape: [2, 3],
      shardShape: [4, 6],
    });
    await arr.set(null, 1);
    reset();
    await arr.set([null, { kind: "slice", start: 0, stop: 3, step: null }], 2);
    expect(reads()).toBeGreaterThan(0);
  });
});
