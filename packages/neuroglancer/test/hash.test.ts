import {
  hashChunkId,
  murmurHash3_x86_128,
  murmurHash3ChunkId,
  parseShardingSpec,
  shardFileName,
  shardLocation,
} from "@zarrkit/neuroglancer";
import { InvalidSelectionError } from "@zarrkit/registry";
import { describe, expect, it } from "vitest";
import { describeVectors, vectors } from "./helpers.js";

const u64le = (value: bigint) => {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return bytes;
};
const words = (value: bigint, seed: number) =>
  murmurHash3_x86_128(u64le(value), seed).map((w) => `0x${w.toString(16).padStart(8, "0")}`);

describeVectors("MurmurHash3_x86_128 known answers", () => {
  it.each(vectors?.murmurhash3_x86_128_u64le.vectors ?? [])("tensorstore: $input_u64 seed $seed", (v) => {
    expect(words(BigInt(v.input_u64), v.seed)).toEqual(v.h_words_u32);
    if (v.seed === 0) expect(murmurHash3ChunkId(BigInt(v.input_u64))).toBe(BigInt(v.sharding_hash_u64_low64));
  });

  it.each(vectors?.murmurhash3_x86_128_u64le_derived.vectors ?? [])("derived: $input_u64", (v) => {
    expect(murmurHash3ChunkId(BigInt(v.input_u64))).toBe(BigInt(v.sharding_hash_u64_low64));
  });
});

describe("MurmurHash3_x86_128 on other lengths", () => {
  it("hashes the empty input with seed 0 to zero (smhasher)", () => {
    expect(murmurHash3_x86_128(new Uint8Array(0))).toEqual([0, 0, 0, 0]);
  });

  it("depends on every byte of inputs spanning blocks and tails", () => {
    for (const length of [1, 5, 9, 13, 15, 16, 17, 31, 32, 33, 47]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 37 + 11) & 0xff);
      const reference = murmurHash3_x86_128(bytes, 7);
      for (let i = 0; i < length; i++) {
        const flipped = bytes.slice();
        flipped[i]! ^= 1;
        expect(murmurHash3_x86_128(flipped, 7)).not.toEqual(reference);
      }
    }
  });
});

describeVectors("shardLocation known answers", () => {
  it.each(vectors?.shard_location.vectors ?? [])("$chunk_id with $spec.hash → $shard_file", (v) => {
    const spec = parseShardingSpec({ "@type": "neuroglancer_uint64_sharded_v1", ...v.spec });
    expect(shardLocation(spec, BigInt(v.chunk_id))).toEqual({
      shard: BigInt(v.shard),
      minishard: BigInt(v.minishard),
      key: v.shard_file,
    });
  });
});

describe("shard numbers", () => {
  const spec = (json: object) =>
    parseShardingSpec({ "@type": "neuroglancer_uint64_sharded_v1", hash: "identity", preshift_bits: 0, ...json });

  it("pads file names to ceil(shard_bits/4) lowercase hex digits", () => {
    expect(shardFileName(spec({ minishard_bits: 0, shard_bits: 7 }), 0x42n)).toBe("42.shard");
    expect(shardFileName(spec({ minishard_bits: 0, shard_bits: 9 }), 0xan)).toBe("00a.shard");
    expect(shardFileName(spec({ minishard_bits: 0, shard_bits: 0 }), 0n)).toBe("0.shard");
  });

  it("ignores hash bits above minishard_bits + shard_bits", () => {
    const s = spec({ minishard_bits: 4, shard_bits: 4 });
    expect(shardLocation(s, 0xfff_a5n)).toEqual({ shard: 0xan, minishard: 5n, key: "a.shard" });
  });

  it("uses wrapping uint64: the top id and a 64-bit wide shard field", () => {
    const s = spec({ minishard_bits: 0, shard_bits: 64 });
    expect(shardLocation(s, 2n ** 64n - 1n)).toEqual({
      shard: 2n ** 64n - 1n,
      minishard: 0n,
      key: "ffffffffffffffff.shard",
    });
  });

  it("shifts by preshift_bits before hashing; 64 leaves 0 for every id", () => {
    const murmur = { hash: "murmurhash3_x86_128", minishard_bits: 3, shard_bits: 3 };
    expect(hashChunkId(spec({ ...murmur, preshift_bits: 4 }), 0x35n)).toBe(murmurHash3ChunkId(3n));
    expect(hashChunkId(spec({ ...murmur, preshift_bits: 64 }), 2n ** 64n - 1n)).toBe(murmurHash3ChunkId(0n));
  });

  it("rejects ids outside uint64", () => {
    const s = spec({ minishard_bits: 1, shard_bits: 1 });
    expect(() => shardLocation(s, -1n)).toThrow(InvalidSelectionError);
    expect(() => shardLocation(s, 2n ** 64n)).toThrow(InvalidSelectionError);
  });
});
