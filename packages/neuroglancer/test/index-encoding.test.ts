import { decodeMinishardIndex, decodeShardIndex, encodeMinishardIndex, encodeShardIndex } from "@zarrkit/neuroglancer";
import { CorruptDataError } from "@zarrkit/registry";
import { describe, expect, it } from "vitest";
import { describeVectors, hex, toHex, vectors } from "./helpers.js";

describeVectors("index encodings (tensorstore uint64_sharded_encoder_test)", () => {
  it.each(vectors?.minishard_index_encoding.vectors ?? [])("minishard index $name", (v) => {
    const entries = v.entries.map((e) => ({
      id: BigInt(e.chunk_id),
      start: e.start,
      end: e.end,
    }));
    expect(toHex(encodeMinishardIndex(entries))).toBe(v.encoded_hex);
    const decoded = decodeMinishardIndex(hex(v.encoded_hex), 0, "vector");
    expect([...decoded].map(([id, r]) => ({ id, start: r.offset, end: r.offset + r.length }))).toEqual(entries);
  });

  it("shard index EncodeShardIndexTest.Basic", () => {
    const { entries, encoded_hex } = vectors?.shard_index_encoding ?? { entries: [], encoded_hex: "" };
    expect(toHex(encodeShardIndex(entries))).toBe(encoded_hex);
    // Decoded ranges are absolute: relative to the end of the 32-byte index.
    expect(decodeShardIndex(hex(encoded_hex), "vector")).toEqual([
      { offset: 33, length: 4 },
      { offset: 39, length: 3 },
    ]);
  });
});

describe("minishard index decoding", () => {
  it("accepts ids and offsets in any order through wrapping deltas", () => {
    const entries = [
      { id: 9n, start: 100, end: 110 },
      { id: 2n, start: 0, end: 5 },
      { id: 2n ** 64n - 1n, start: 50, end: 50 },
    ];
    const decoded = decodeMinishardIndex(encodeMinishardIndex(entries), 16, "k");
    expect(decoded).toEqual(
      new Map([
        [9n, { offset: 116, length: 10 }],
        [2n, { offset: 16, length: 5 }],
        [2n ** 64n - 1n, { offset: 66, length: 0 }],
      ]),
    );
  });

  it("rejects lengths that are not a multiple of 24, duplicate ids and ranges past 2^53", () => {
    expect(() => decodeMinishardIndex(new Uint8Array(25), 0, "k")).toThrow(CorruptDataError);
    const duplicate = encodeMinishardIndex([
      { id: 4n, start: 0, end: 1 },
      { id: 4n, start: 1, end: 2 },
    ]);
    expect(() => decodeMinishardIndex(duplicate, 0, "k")).toThrow(/occurs more than once/);
    const huge = encodeMinishardIndex([{ id: 1n, start: 2 ** 60, end: 2 ** 60 + 1 }]);
    expect(() => decodeMinishardIndex(huge, 0, "k")).toThrow(CorruptDataError);
    // A size that wraps the uint64 end around is corrupt, not a short range.
    const wrapped = new Uint8Array(24);
    new DataView(wrapped.buffer).setBigUint64(16, 2n ** 64n - 1n, true);
    expect(() => decodeMinishardIndex(wrapped, 16, "k")).toThrow(CorruptDataError);
  });

  it("rejects shard index entries with start > end", () => {
    expect(() => decodeShardIndex(encodeShardIndex([[5, 4]]), "k")).toThrow(/start 5 > end 4/);
  });
});
