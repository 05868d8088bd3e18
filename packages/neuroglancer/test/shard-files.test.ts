import { disassembleShard, parseShardingSpec, ShardReader, synthesizeShards } from "@zarrkit/neuroglancer";
import { describe, expect, it } from "vitest";
import { describeVectors, hex, memoryStore, nonEmpty, type ShardFileVector, toHex, vectors } from "./helpers.js";
const fileVectors = vectors?.shard_files.vectors ?? [];
const chunksOf = (v: ShardFileVector) => new Map(v.chunks.map((c) => [BigInt(c.chunk_id), hex(c.data_hex)]));

describeVectors("byte-exact shard files (tensorstore tests)", () => {
  // ReadSizeBeforeChunk places the index before the data, which no canonical writer does.
  const canonical = fileVectors.filter((v) => v.name !== "ReadSizeBeforeChunk");

  it.each(canonical)("synthesizeShards reproduces $name", (v) => {
    const spec = parseShardingSpec(v.spec);
    const files = synthesizeShards(spec, chunksOf(v));
    expect(files.size).toBe(1);
    const [bytes] = nonEmpty(files.values());
    expect(bytes.length).toBe(v.size);
    expect(toHex(bytes)).toBe(v.file_hex);
  });

  it.each(fileVectors)("disassembleShard reads $name", (v) => {
    expect(disassembleShard(parseShardingSpec(v.spec), hex(v.file_hex))).toEqual(chunksOf(v));
  });

  it.each(fileVectors)("ShardReader reads $name with and without ranged reads", async (v) => {
    const spec = parseShardingSpec(v.spec);
    const chunks = chunksOf(v);
    const [name] = nonEmpty(synthesizeShards(spec, chunks).keys());
    for (const ranges of [true, false]) {
      const reader = new ShardReader(memoryStore([[`p/${name}`, hex(v.file_hex)]], { ranges }), spec, { prefix: "p" });
      for (const [id, data] of chunks) expect(await reader.get(id)).toEqual(data);
      expect(await reader.getMany([...chunks.keys(), 12345n])).toEqual(chunks);
      expect(await reader.listIds(name)).toEqual([...chunks.keys()].sort((a, b) => (a < b ? -1 : 1)));
    }
  });

  it("merging an existing shard reproduces WriteWithExistingShard", () => {
    const input = fileVectors.find((v) => v.name === "WriteWithExistingShard.input") as ShardFileVector;
    const expected = fileVectors.find((v) => v.name === "WriteWithExistingShard") as ShardFileVector;
    const spec = parseShardingSpec(expected.spec);
    const merged = new Map([...disassembleShard(spec, hex(input.file_hex)), [0x50n, hex("010203")]]);
    expect(toHex(synthesizeShards(spec, merged).get("0.shard") as Uint8Array)).toBe(expected.file_hex);
  });
});

describe("synthesizeShards", () => {
  const spec = parseShardingSpec({
    "@type": "neuroglancer_uint64_sharded_v1",
    hash: "identity",
    preshift_bits: 0,
    minishard_bits: 1,
    shard_bits: 2,
  });

  it("writes no file for shards without chunks and names files by shard", () => {
    const files = synthesizeShards(spec, new Map([[0b110n, hex("aa")]]));
    expect([...files.keys()]).toEqual(["3.shard"]);
    expect(synthesizeShards(spec, new Map()).size).toBe(0);
  });

  it("is independent of input order: ascending minishards, ascending ids", () => {
    const ids = [7n, 1n, 3n, 5n, 0n, 4n, 2n, 6n];
    const a = synthesizeShards(
      spec,
      ids.map((id) => [id, Uint8Array.of(Number(id))] as const),
    );
    const b = synthesizeShards(
      spec,
      [...ids].reverse().map((id) => [id, Uint8Array.of(Number(id))] as const),
    );
    expect(a).toEqual(b);
    // Shard 0 holds ids 0 (minishard 0) and 1 (minishard 1): data of 0, its index, data of 1, its index.
    const file = a.get("0.shard") as Uint8Array;
    expect(toHex(file.subarray(32))).toBe(
      `00${"00".repeat(8)}${"00".repeat(8)}0100000000000000` +
        `01${"01".repeat(1)}${"00".repeat(7)}1900000000000000${"01".padEnd(16, "0")}`,
    );
  });

  it("emits real gzip (1f 8b) that is deterministic", () => {
    const gz = parseShardingSpec({ ...spec, data_encoding: "gzip", minishard_index_encoding: "gzip" });
    const a = synthesizeShards(gz, new Map([[1n, new Uint8Array(100)]]));
    const b = synthesizeShards(gz, new Map([[1n, new Uint8Array(100)]]));
    expect(a).toEqual(b);
    const file = a.get("0.shard") as Uint8Array;
    expect(toHex(file.subarray(32, 34))).toBe("1f8b");
  });
});
