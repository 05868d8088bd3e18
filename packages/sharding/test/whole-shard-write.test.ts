import { describe, expect, it } from "vitest";
import { MemoryStore } from "@zarrkit/core";
import { counted, createArray, piecewise } from "./helpers.js";

/** An 8 x 12 uint16 array in shards of 4 x 6, of inner chunks of 2 x 3 with `codecs`; the index checksummed. */
function eightByTwelve(codecs: unknown[], indexLocation: "start" | "end" = "end") {
  return {
    shape: [8, 12],
    dataType: "uint16",
    chunkShape: [4, 6],
    fillValue: 0,
    codecs: [
      {
        name: "sharding_indexed",
        configuration: {
          chunk_shape: [2, 3],
          codecs,
          index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }],
          index_location: indexLocation,
        },
      },
    ],
  };
}

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

  for (const indexLocation of ["end", "start"] as const) {
    it(`hands a store that takes pieces the inner chunks and index as they are (index at the ${indexLocation})`, async () => {
      const definition = eightByTwelve(
        [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }],
        indexLocation,
      );
      // Some inner chunks all fill value: left out of the pieces.
      const data = Uint16Array.from({ length: 96 }, (_, i) => (i < 24 ? 0 : i * 13));
      const plain = new MemoryStore();
      await (await createArray(plain, "s", definition)).set(null, { data, shape: [8, 12] });
      const { store, inner, pieceCounts } = piecewise();
      const array = await createArray(store, "s", definition);
      await array.set(null, { data, shape: [8, 12] });
      // Four shards, each written in one request: its non-empty inner chunks and its index.
      expect(pieceCounts.length).toBe(4);
      expect(pieceCounts.every((count) => count > 1)).toBe(true);
      for (const key of ["s/c/0/0", "s/c/0/1", "s/c/1/0", "s/c/1/1"]) {
        expect(await inner.get(key), key).toEqual(await plain.get(key));
      }
      expect([...(await array.get()).data]).toEqual([...data]);
    });
  }

  describe("inner chunks of the bytes codec alone, laid out in pooled memory lent until the store has them", () => {
    const definition = (endian: string) => eightByTwelve([{ name: "bytes", configuration: { endian } }]);
    // Some inner chunks all fill value: left out.
    const values = () => Uint16Array.from({ length: 96 }, (_, i) => (i < 24 ? 0 : i * 13));
    const shared = () => {
      const data = new Uint16Array(new SharedArrayBuffer(2 * 96));
      data.set(values());
      return data;
    };
    for (const [what, data] of [
      ["an ordinary array", values],
      ["an array over shared memory", shared],
    ] as const) {
      it(`from ${what}: one buffer per shard, reused by the next write, the bytes of a plain write`, async () => {
        const plain = new MemoryStore();
        await (await createArray(plain, "s", definition("little"))).set(null, { data: values(), shape: [8, 12] });
        const { store, inner, buffers } = piecewise();
        const array = await createArray(store, "s", definition("little"));
        await array.set(null, { data: data(), shape: [8, 12] });
        // Each shard's inner chunks (all pieces but the index, last) lie in one buffer, a shard's own.
        const rooms = buffers.map((pieces) => new Set(pieces.slice(0, -1)));
        expect(rooms.map((room) => room.size)).toEqual([1, 1, 1, 1]);
        expect(new Set(rooms.flatMap((room) => [...room])).size).toBe(4);
        for (const key of ["s/c/0/0", "s/c/0/1", "s/c/1/0", "s/c/1/1"]) {
          expect(await inner.get(key), key).toEqual(await plain.get(key));
        }
        // Written again: the same buffers serve it.
        await array.set(null, { data: data().map((v) => v + 1), shape: [8, 12] });
        const again = new Set(buffers.slice(4).flatMap((pieces) => pieces.slice(0, -1)));
        expect(again).toEqual(new Set(rooms.flatMap((room) => [...room])));
        expect([...(await array.get()).data]).toEqual([...values().map((v) => v + 1)]);
      });
    }

    it("big-endian: swapped into buffers of their own, still the bytes of a plain write", async () => {
      const plain = new MemoryStore();
      await (await createArray(plain, "s", definition("big"))).set(null, { data: values(), shape: [8, 12] });
      const { store, inner } = piecewise();
      await (await createArray(store, "s", definition("big"))).set(null, { data: values(), shape: [8, 12] });
      for (const key of ["s/c/0/0", "s/c/0/1", "s/c/1/0", "s/c/1/1"]) {
        expect(await inner.get(key), key).toEqual(await plain.get(key));
      }
    });
  });
});
