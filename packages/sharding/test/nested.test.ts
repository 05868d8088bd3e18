import { openArray, slice } from "@zarrkit/core";
import { describe, expect, it } from "vitest";
import { BYTES, counted, createArray, iota } from "./helpers.js";

const nestedCodecs = (depth: number): object[] =>
  depth === 0
    ? [BYTES]
    : [
        {
          name: "sharding_indexed",
          configuration: {
            chunk_shape: depth === 2 ? [4, 4] : [2, 2],
            codecs: nestedCodecs(depth - 1),
            index_codecs: [BYTES],
          },
        },
      ];

describe("nested sharding", () => {
  it("round trips and reads partially at every level", async () => {
    const c = counted();
    // shards 16x16 -> inner shards 8x8 -> inner-inner chunks 4x4 -> 2x2 chunks
    const arr = await createArray(c.store, "n", {
      shape: [16, 16],
      dataType: "int32",
      chunkShape: [8, 8],
      shardShape: [16, 16],
      codecs: nestedCodecs(2) as never,
      indexCodecs: [BYTES],
    });
    await arr.set(null, iota(256));
    expect(Array.from((await arr.get()).data as Int32Array)).toEqual(Array.from(iota(256)));
    const fresh = await openArray(c.store, "n");
    c.reset();
    const one = await fresh.get([9, 10]);
    expect(Array.from(one.data as Int32Array)).toEqual([9 * 16 + 10 + 1]);
    // outer index, inner index, inner-inner index, data: each a small ranged read
    expect(c.reads()).toBe(4);
    expect(c.log.every((r) => r.method.startsWith("getRange") && r.bytes <= 16 * 4)).toBe(true);
    c.reset();
    await fresh.get([9, 11]);
    expect(c.reads()).toBe(1);
  });

  it("partial writes inside nested shards keep everything else", async () => {
    const c = counted();
    const arr = await createArray(c.store, "n", {
      shape: [8, 8],
      dataType: "int32",
      chunkShape: [4, 4],
      shardShape: [8, 8],
      codecs: nestedCodecs(1) as never,
      indexCodecs: [BYTES],
    });
    await arr.set(null, iota(64));
    await arr.set([slice(1, 3), 5], Int32Array.of(-1, -2));
    const expected = Array.from(iota(64));
    expected[13] = -1;
    expected[21] = -2;
    expect(Array.from((await (await openArray(c.store, "n")).get()).data as Int32Array)).toEqual(expected);
  });
});
