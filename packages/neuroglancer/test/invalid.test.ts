import { disassembleShard, parseShardingSpec, ShardReader } from "@zarrkit/neuroglancer";
import { CorruptDataError } from "@zarrkit/registry";
import { expect, it } from "vitest";
import { describeVectors, hex, memoryStore, vectors } from "./helpers.js";

// tensorstore's RawEncodingTest spec "raw00": one shard, one minishard, identity, raw.
const spec = parseShardingSpec({
  "@type": "neuroglancer_uint64_sharded_v1",
  hash: "identity",
  preshift_bits: 0,
  minishard_bits: 0,
  shard_bits: 0,
});

describeVectors("malformed shard files give typed errors, never a chunk", () => {
  const cases = vectors?.shard_files.invalid_inputs.cases ?? [];

  it("covers all six tensorstore cases", () => {
    expect(cases.map((c) => c.name)).toEqual([
      "ShardIndexTooShort",
      "ShardIndexInvalidByteRange",
      "MinishardIndexOutOfRange",
      "MinishardIndexInvalidSize",
      "MinishardIndexEntryByteRangeOutOfRange",
      "MinishardIndexWithDuplicateChunkId",
    ]);
  });

  it.each(cases)("$name ($expect)", async ({ name, file_hex }) => {
    const file = hex(file_hex);
    expect(() => disassembleShard(spec, file, "0.shard")).toThrow(CorruptDataError);
    for (const ranges of [true, false]) {
      const reader = new ShardReader(memoryStore([["0.shard", file]], { ranges }), spec);
      // Chunk 10 is the one the last two cases index.
      await expect(reader.get(10n)).rejects.toThrow(CorruptDataError);
      await expect(reader.getMany([10n, 11n])).rejects.toThrow(CorruptDataError);
      await expect(reader.get(10n)).rejects.toMatchObject({ key: "0.shard" });
      if (name === "MinishardIndexEntryByteRangeOutOfRange") {
        // Only chunk 10's data range is bad: looking up chunk 11 and listing ids read the (valid) index only.
        expect(await reader.exists(11n)).toBeUndefined();
        expect(await reader.listIds("0.shard")).toEqual([10n]);
      } else {
        await expect(reader.exists(11n)).rejects.toThrow(CorruptDataError);
        await expect(reader.listIds("0.shard")).rejects.toThrow(CorruptDataError);
      }
    }
  });
});
