import "@zarrkit/codecs"; // gzip: an index codec of no fixed size
import { InvalidMetadataError, slice } from "@zarrkit/core";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_INDEX_CODECS,
  describeShard,
  packedShardByteSize,
  shardIndexByteSize,
  shardingConfiguration,
} from "../src/index.js";
import { BYTES, CRC, createArray, iota, MemoryStore } from "./helpers.js";

describe("shardIndexByteSize", () => {
  it("is 16 bytes per inner chunk, plus 4 for crc32c, from a count or the inner chunk grid", async () => {
    expect(await shardIndexByteSize(8)).toBe(8 * 16 + 4);
    expect(await shardIndexByteSize([2, 2, 2], DEFAULT_INDEX_CODECS)).toBe(8 * 16 + 4);
    expect(await shardIndexByteSize([4, 4], [BYTES])).toBe(16 * 16);
    expect(await shardIndexByteSize(3, [BYTES, CRC, CRC])).toBe(3 * 16 + 8);
  });

  it("refuses index codecs of no fixed size and counts that are not positive integers", async () => {
    const gzip = [BYTES, { name: "gzip", configuration: { level: 1 } }];
    await expect(shardIndexByteSize(4, gzip)).rejects.toThrow(/index_codecs bytes \+ gzip have no fixed encoded size/);
    await expect(shardIndexByteSize(0)).rejects.toThrow(InvalidMetadataError);
    await expect(shardIndexByteSize([2, 1.5])).rejects.toThrow(/chunksPerShard must be a positive integer/);
  });
});

describe("packedShardByteSize", () => {
  for (const indexCodecs of [[BYTES, CRC], [BYTES]]) {
    const names = indexCodecs.map((c) => c.name).join(" + ");
    it(`is the stored size of a shard assembled whole, index codecs ${names}`, async () => {
      const store = new MemoryStore();
      const arr = await createArray(store, "a", {
        shape: [16, 16],
        dataType: "int32",
        chunkShape: [4, 4],
        shardShape: [8, 16],
        indexCodecs,
      });
      // The second shard keeps some inner chunks empty (fill value), which take no bytes.
      await arr.set([slice(0, 8), null], iota(128));
      await arr.set([slice(8, 12), slice(0, 4)], iota(16));
      for (const coords of [
        [0, 0],
        [1, 0],
      ]) {
        const shard = await describeShard(arr, coords);
        expect(shard.indexBytes).toBe(await shardIndexByteSize(shard.chunksPerShard, indexCodecs));
        expect(packedShardByteSize(shard)).toBe((await store.get(shard.key))!.length);
      }
    });
  }

  it("is 0 for a shard that is not stored", async () => {
    const arr = await createArray(new MemoryStore(), "a", {
      shape: [8],
      dataType: "uint8",
      chunkShape: [2],
      shardShape: [4],
    });
    expect(packedShardByteSize(await describeShard(arr, [1]))).toBe(0);
  });
});

describe("shardingConfiguration", () => {
  it("reads a sharded array's configuration from its metadata; undefined when not sharded", async () => {
    const store = new MemoryStore();
    const sharded = await createArray(store, "s", {
      shape: [8, 8],
      dataType: "uint8",
      chunkShape: [2, 4],
      shardShape: [4, 8],
      indexLocation: "start",
    });
    const plain = await createArray(store, "p", { shape: [8], dataType: "uint8", chunkShape: [4] });
    const codecs = (a: typeof sharded) => (a.metadata.zarr_format === 3 ? a.metadata.codecs : []);
    expect(shardingConfiguration(codecs(sharded))).toEqual({
      chunkShape: [2, 4],
      codecs: [BYTES],
      indexCodecs: [...DEFAULT_INDEX_CODECS],
      indexLocation: "start",
    });
    expect(shardingConfiguration(codecs(plain))).toBeUndefined();
  });

  it("refuses a configuration without its required lists, naming the field", () => {
    const broken = [{ name: "sharding_indexed", configuration: { chunk_shape: [2], codecs: [BYTES] } }];
    expect(() => shardingConfiguration(broken)).toThrow(/configuration\.index_codecs must be a list/);
  });

  it("refuses an index_location other than start or end, naming it", () => {
    const codecs = [
      {
        name: "sharding_indexed",
        configuration: { chunk_shape: [2], codecs: [BYTES], index_codecs: [BYTES], index_location: "middle" },
      },
    ];
    expect(() => shardingConfiguration(codecs)).toThrow(/index_location must be "start" or "end", got "middle"/);
  });
});
