import { InvalidMetadataError, UnsupportedError } from "@zarrkit/registry";
import { parseShardingSpec, shardIndexSize } from "@zarrkit/neuroglancer";
import { describe, expect, it } from "vitest";

const base = {
  "@type": "neuroglancer_uint64_sharded_v1",
  hash: "identity",
  preshift_bits: 0,
  minishard_bits: 2,
  shard_bits: 3,
};

describe("parseShardingSpec", () => {
  it("fills both encodings with raw when absent (sharded.md, tensorstore, neuroglancer)", () => {
    expect(parseShardingSpec(base)).toEqual({ ...base, minishard_index_encoding: "raw", data_encoding: "raw" });
  });

  it("keeps JSON member names so the spec serializes back", () => {
    const json = { ...base, hash: "murmurhash3_x86_128", minishard_index_encoding: "gzip", data_encoding: "raw" };
    expect(JSON.parse(JSON.stringify(parseShardingSpec(json)))).toEqual(json);
  });

  it.each([
    [{ ...base, "@type": "neuroglancer_uint64_sharded_v2" }, '["@type"]'],
    [{ ...base, hash: "Identity" }, "hash"],
    [{ ...base, hash: undefined }, "hash"],
    [{ ...base, preshift_bits: 65 }, "preshift_bits"],
    [{ ...base, preshift_bits: -1 }, "preshift_bits"],
    [{ ...base, preshift_bits: 1.5 }, "preshift_bits"],
    [{ ...base, minishard_bits: "2" }, "minishard_bits"],
    [{ ...base, shard_bits: undefined }, "shard_bits"],
    [{ ...base, minishard_bits: 30, shard_bits: 35 }, "shard_bits"],
    [{ ...base, data_encoding: "zstd" }, "data_encoding"],
    [{ ...base, minishard_index_encoding: null }, "minishard_index_encoding"],
  ])("rejects %j naming the field", (json, field) => {
    const error = (() => {
      try {
        parseShardingSpec(json, "info.sharding");
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InvalidMetadataError);
    expect((error as InvalidMetadataError).field).toBe(`info.sharding${field.startsWith("[") ? "" : "."}${field}`);
  });

  it("rejects non-objects", () => {
    for (const json of [null, 3, "x", []]) expect(() => parseShardingSpec(json)).toThrow(InvalidMetadataError);
  });

  it("accepts preshift_bits 64 (every id shifts to 0)", () => {
    expect(parseShardingSpec({ ...base, preshift_bits: 64 }).preshift_bits).toBe(64);
  });

  it("refuses minishard_bits above 32 as unsupported rather than invalid", () => {
    expect(() => parseShardingSpec({ ...base, minishard_bits: 33, shard_bits: 0 })).toThrow(UnsupportedError);
  });

  it("sizes the shard index at 16 bytes per minishard", () => {
    expect(shardIndexSize(parseShardingSpec(base))).toBe(64);
    expect(shardIndexSize(parseShardingSpec({ ...base, minishard_bits: 0 }))).toBe(16);
  });
});
