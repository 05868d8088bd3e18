import {
  decodeCompressedSegmentation,
  encodeMinishardIndex,
  encodeShardIndex,
  openPrecomputedImage,
  parsePrecomputedInfo,
  parseShardingSpec,
  synthesizeShards,
} from "@zarrkit/neuroglancer";
import { CorruptDataError, InvalidMetadataError, InvalidSelectionError, type Store } from "@zarrkit/registry";
import { gzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { memoryStore } from "./helpers.js";

// Findings 3 and 4 of the security probe: huge boxes enumerated before their
// size was checked, and hostile `info` files giving untyped errors or
// prototype members.

const sharding = {
  "@type": "neuroglancer_uint64_sharded_v1",
  hash: "identity",
  preshift_bits: 0,
  minishard_bits: 0,
  shard_bits: 0,
  data_encoding: "gzip",
  minishard_index_encoding: "gzip",
};

function validInfo() {
  const scale = {
    key: "s0",
    size: [8, 8, 8],
    voxel_offset: [0, 0, 0],
    chunk_sizes: [[4, 4, 4]],
    encoding: "raw",
    resolution: [1, 1, 1],
  };
  const scales: [typeof scale] = [scale];
  return { type: "image", data_type: "uint8", num_channels: 1, scales };
}

/** Expect parsePrecomputedInfo(info) to raise InvalidMetadataError with this field, naming it in the message. */
function expectRefused(info: unknown, field: string) {
  let error: unknown;
  try {
    parsePrecomputedInfo(info);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(InvalidMetadataError);
  expect(error).toMatchObject({ field });
  expect((error as Error).message).toContain(field);
}

const withScale = (patch: Record<string, unknown>) => {
  const info = validInfo();
  Object.assign(info.scales[0], patch);
  return info;
};

/** A store that counts reads, to show nothing was fetched. */
function countingStore(): Store & { reads: number } {
  const store = {
    reads: 0,
    get: async () => {
      store.reads++;
      return undefined;
    },
    getRange: async () => {
      store.reads++;
      return undefined;
    },
  };
  return store;
}

describe("huge boxes are refused before any chunk is enumerated (finding 3)", () => {
  const huge = {
    type: "image",
    data_type: "uint8",
    num_channels: 1,
    scales: [
      { key: "flat", size: [2 ** 14, 2 ** 14, 2 ** 12], chunk_sizes: [[1, 1, 1]], encoding: "raw" },
      { key: "sharded", size: [2 ** 14, 2 ** 14, 2 ** 12], chunk_sizes: [[1, 1, 1]], encoding: "raw", sharding },
    ],
  };

  it.each(["flat", "sharded"])(
    "a box of 2^40 voxels (%s scale) raises InvalidSelectionError at once, reading nothing",
    async (scale) => {
      const store = countingStore();
      const image = await openPrecomputedImage(store, { info: huge });
      const started = performance.now();
      await expect(image.read({ min: [0, 0, 0], max: [2 ** 14, 2 ** 14, 2 ** 12] }, { scale })).rejects.toThrow(
        new RegExp(
          `box of \\[16384,16384,4096\\] voxels x 1 channel\\(s\\) x 1 byte\\(s\\) in scale ${scale} is ` +
            `1099511627776 bytes`,
        ),
      );
      await expect(image.read({ min: [0, 0, 0], max: [2 ** 14, 2 ** 14, 2 ** 12] }, { scale })).rejects.toThrow(
        InvalidSelectionError,
      );
      expect(performance.now() - started).toBeLessThan(1000);
      expect(store.reads).toBe(0);
    },
  );

  it("a large num_channels makes a moderate box too large: InvalidSelectionError, not RangeError", async () => {
    const info = { ...validInfo(), num_channels: 2 ** 20 };
    info.scales[0].chunk_sizes = [[1, 1, 1]];
    info.scales[0].size = [64, 64, 64];
    const image = await openPrecomputedImage(countingStore(), { info });
    await expect(image.read({ min: [0, 0, 0], max: [64, 64, 64] })).rejects.toThrow(InvalidSelectionError);
  });

  it("maxBytes bounds one read exactly", async () => {
    const image = await openPrecomputedImage(memoryStore(), { info: validInfo() });
    await expect(image.read({ min: [0, 0, 0], max: [8, 8, 8] }, { maxBytes: 511 })).rejects.toThrow(
      /512 bytes, more than 511/,
    );
    expect((await image.read({ min: [0, 0, 0], max: [8, 8, 8] }, { maxBytes: 512 })).data).toEqual(new Uint8Array(512));
  });

  it("a large box of a few large chunks is read lazily in batches, with every chunk fetched once", async () => {
    // 40 x 40 x 1 chunks of 1 voxel: 1600 chunks, more than one batch of 1024.
    const info = {
      ...validInfo(),
      scales: [{ key: "s0", size: [40, 40, 1], chunk_sizes: [[1, 1, 1]], encoding: "raw" }],
    };
    const files = new Map<string, Uint8Array>();
    for (let y = 0; y < 40; y++)
      for (let x = 0; x < 40; x++) files.set(`s0/${x}-${x + 1}_${y}-${y + 1}_0-1`, Uint8Array.of((x + y * 40) & 0xff));
    const store = memoryStore(files);
    const gets: string[] = [];
    const get = store.get;
    store.get = (key, options) => {
      gets.push(key);
      return get(key, options);
    };
    const region = await (await openPrecomputedImage(store, { info })).read({ min: [0, 0, 0], max: [40, 40, 1] });
    expect(region.data).toEqual(Uint8Array.from({ length: 1600 }, (_, i) => i & 0xff));
    expect(new Set(gets).size).toBe(1600);
    expect(gets).toHaveLength(1600);
  });

  it(
    "a chunk shape decoding to more than maxChunkBytes is refused at read, naming scales[0].chunk_sizes[0], " +
      "reading nothing",
    async () => {
      const info = {
        ...validInfo(),
        scales: [{ key: "s0", size: [1024, 1024, 512], chunk_sizes: [[1024, 1024, 512]], encoding: "raw" }],
      };
      const store = countingStore();
      const image = await openPrecomputedImage(store, { info });
      await expect(image.read({ min: [0, 0, 0], max: [1, 1, 1] })).rejects.toMatchObject({
        field: "scales[0].chunk_sizes[0]",
        message: expect.stringContaining("more than maxChunkBytes (268435456)"),
      });
      expect(store.reads).toBe(0);
      const small = await openPrecomputedImage(store, { info, shardReader: { maxChunkBytes: 2 ** 29 } });
      expect((await small.read({ min: [0, 0, 0], max: [0, 0, 0] })).data.length).toBe(0);
    },
  );

  it(
    "a compressed_segmentation chunk too short for its block headers is refused before its output is " + "allocated",
    () => {
      // 64^3 uint64 voxels (2 MiB) with 8^3 blocks need 1 + 2 * 512 header words; 4 bytes cannot hold them.
      expect(() =>
        decodeCompressedSegmentation(new Uint8Array(4), [64, 64, 64], 1, [8, 8, 8], "uint64", "s0/chunk"),
      ).toThrow(
        /compressed_segmentation chunk s0\/chunk: 1 words is too short for the offsets and block headers of 1 channel\(s\) \(1025\)/,
      );
    },
  );

  it("a gzip chunk of a sharded image inflating past the chunk's size stops there with CorruptDataError", async () => {
    // One 4x4x4 uint8 chunk (64 bytes) stored as a gzip member that inflates to 32 MiB but claims 64 bytes.
    const bomb = gzipSync(new Uint8Array(32 * 2 ** 20), { level: 1 });
    bomb.set([64, 0, 0, 0], bomb.length - 4);
    const info = {
      ...validInfo(),
      scales: [{ key: "s0", size: [4, 4, 4], chunk_sizes: [[4, 4, 4]], encoding: "raw", sharding }],
    };
    const spec = parseShardingSpec(sharding);
    // synthesizeShards stores chunk bytes as given after gzip; build the file by hand so the stored bytes are the bomb.
    const shardWith = (stored: Uint8Array) => {
      const index = gzipSync(encodeMinishardIndex([{ id: 0n, start: 0, end: stored.length }]));
      const file = new Uint8Array(16 + stored.length + index.length);
      file.set(encodeShardIndex([[stored.length, stored.length + index.length]]));
      file.set(stored, 16);
      file.set(index, 16 + stored.length);
      return file;
    };
    // A valid shard of the same layout reads back.
    const good = synthesizeShards(spec, new Map([[0n, Uint8Array.from({ length: 64 }, (_, i) => i)]])).get(
      "0.shard",
    ) as Uint8Array;
    const goodImage = await openPrecomputedImage(memoryStore([["s0/0.shard", good]]), { info });
    expect((await goodImage.read({ min: [0, 0, 0], max: [4, 4, 4] })).data).toEqual(
      Uint8Array.from({ length: 64 }, (_, i) => i),
    );

    const image = await openPrecomputedImage(memoryStore([["s0/0.shard", shardWith(bomb)]]), { info });
    await expect(image.read({ min: [0, 0, 0], max: [4, 4, 4] })).rejects.toThrow(CorruptDataError);
    await expect(image.read({ min: [0, 0, 0], max: [4, 4, 4] })).rejects.toMatchObject({ key: "s0/0.shard" });
    // With an honest trailer, the declared 32 MiB is refused against the 64-byte chunk before inflating.
    const honest = gzipSync(new Uint8Array(32 * 2 ** 20), { level: 1 });
    const image2 = await openPrecomputedImage(memoryStore([["s0/0.shard", shardWith(honest)]]), { info });
    await expect(image2.read({ min: [0, 0, 0], max: [4, 4, 4] })).rejects.toThrow(
      /declares 33554432 bytes, more than 64 bytes, the limit/,
    );
  });
});

describe("hostile info files raise InvalidMetadataError naming the field (finding 4)", () => {
  it.each(["toString", "constructor", "__proto__", "valueOf", "hasOwnProperty", "isPrototypeOf"])(
    "data_type %s is refused (no Object.prototype lookup)",
    (name) => expectRefused({ ...validInfo(), data_type: name }, "data_type"),
  );

  it.each(["../outside", "/etc", "a/../../b", "a//b"])(
    "a scale key climbing out of the volume (%s) is refused",
    (key) => expectRefused({ ...validInfo(), scales: [{ ...validInfo().scales[0], key }] }, "scales[0].key"),
  );

  it("a compressed_segmentation block of more voxels than the decoder can address is refused", () =>
    expectRefused(
      {
        ...validInfo(),
        data_type: "uint32",
        scales: [
          {
            ...validInfo().scales[0],
            encoding: "compressed_segmentation",
            compressed_segmentation_block_size: [1024, 1024, 256],
          },
        ],
      },
      "scales[0].compressed_segmentation_block_size",
    ));

  it('data_type "constructor" does not open, so no ArrayBuffer comes back as data', async () => {
    await expect(
      openPrecomputedImage(memoryStore(), { info: { ...validInfo(), data_type: "constructor" } }),
    ).rejects.toThrow(InvalidMetadataError);
  });

  it.each([
    ["num_channels", 2 ** 21],
    ["num_channels", 2 ** 53 + 2],
    ["num_channels", 1.5],
    ["num_channels", 0],
    ["num_channels", 2n ** 60n],
    ["num_channels", "3"],
  ])("%s %s is refused", (field, value) => expectRefused({ ...validInfo(), [field]: value }, field));

  it.each([
    ["size", [8, 8], "scales[0].size"],
    ["size", [8, 8, 8, 8], "scales[0].size"],
    ["size", [8, -1, 8], "scales[0].size"],
    ["size", [8, 8.5, 8], "scales[0].size"],
    ["size", [8, 2 ** 53 + 2, 8], "scales[0].size"],
    ["size", [8n, 8n, 8n], "scales[0].size"],
    ["size", [8, 2n ** 64n, 8], "scales[0].size"],
    ["voxel_offset", [0, 0], "scales[0].voxel_offset"],
    ["voxel_offset", [0, 0, 2n ** 70n], "scales[0].voxel_offset"],
    ["voxel_offset", "0,0,0", "scales[0].voxel_offset"],
    ["chunk_sizes", [[4, 4]], "scales[0].chunk_sizes[0]"],
    [
      "chunk_sizes",
      [
        [4, 4, 4],
        [4, 0, 4],
      ],
      "scales[0].chunk_sizes[1]",
    ],
    ["chunk_sizes", [], "scales[0].chunk_sizes"],
    ["chunk_sizes", Array.from({ length: 65 }, () => [4, 4, 4]), "scales[0].chunk_sizes"],
    ["chunk_sizes", [[2 ** 20, 2 ** 20, 2 ** 20]], "scales[0].chunk_sizes[0]"],
    ["resolution", [1, 1, 1n], "scales[0].resolution"],
    ["key", 7n, "scales[0].key"],
    ["encoding", { toString: 1 }, "scales[0].encoding"],
    ["compressed_segmentation_block_size", undefined, "scales[0].compressed_segmentation_block_size"],
  ])("scales[0].%s = %s is refused naming %s", (name, value, field) => {
    const info = withScale({ [name]: value });
    if (name === "compressed_segmentation_block_size") info.scales[0].encoding = "compressed_segmentation";
    expectRefused(info, field);
  });

  it("a scale ending past 2^53 is refused naming scales[0].size", () => {
    expectRefused(withScale({ voxel_offset: [2 ** 52, 0, 0], size: [2 ** 52, 8, 8] }), "scales[0].size");
  });

  it("a sharded scale whose grid needs more than 64 Morton bits is refused naming scales[0].size", () => {
    expectRefused(
      withScale({ size: [2 ** 30, 2 ** 30, 2 ** 30], chunk_sizes: [[1, 1, 1]], sharding }),
      "scales[0].size",
    );
  });

  it.each([
    ["hash", "constructor", "scales[0].sharding.hash"],
    ["hash", "toString", "scales[0].sharding.hash"],
    ["preshift_bits", 2n ** 64n, "scales[0].sharding.preshift_bits"],
    ["minishard_bits", 1.5, "scales[0].sharding.minishard_bits"],
    ["data_encoding", "__proto__", "scales[0].sharding.data_encoding"],
    ["minishard_index_encoding", "valueOf", "scales[0].sharding.minishard_index_encoding"],
  ])("sharding.%s = %s is refused naming %s", (name, value, field) => {
    expectRefused(withScale({ sharding: { ...sharding, [name]: value } }), field);
  });

  it("a bigint sharding object is refused without JSON.stringify throwing TypeError", () => {
    expectRefused(withScale({ sharding: 5n }), "scales[0].sharding");
  });

  it("scales must be 1 to 256 objects", () => {
    expectRefused({ ...validInfo(), scales: Array.from({ length: 257 }, () => validInfo().scales[0]) }, "scales");
    expectRefused({ ...validInfo(), scales: [[]] }, "scales[0]");
    expectRefused({ ...validInfo(), scales: [null] }, "scales[0]");
  });

  it("fields inherited from a prototype are not fields", () => {
    const scale = Object.create(validInfo().scales[0]);
    expectRefused({ ...validInfo(), scales: [scale] }, "scales[0].key");
    const info = Object.create(validInfo());
    expectRefused(info, "data_type");
  });

  it(
    "holes in sparse arrays are refused, not skipped (found by the property test: scales[0] came back " + "undefined)",
    () => {
      const scales: unknown[] = [validInfo().scales[0], validInfo().scales[0]];
      delete scales[0];
      expectRefused({ ...validInfo(), scales }, "scales[0]");
      const size = [8, 8, 8];
      delete size[1];
      expectRefused(withScale({ size }), "scales[0].size");
      const chunks = [
        [4, 4, 4],
        [2, 2, 2],
      ];
      delete chunks[0];
      expectRefused(withScale({ chunk_sizes: chunks }), "scales[0].chunk_sizes[0]");
      const resolution = [1, 1, 1];
      delete resolution[2];
      expectRefused(withScale({ resolution }), "scales[0].resolution");
    },
  );

  it("error messages survive cyclic and bigint values", () => {
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    expectRefused(withScale({ size: cyclic }), "scales[0].size");
    expectRefused(withScale({ resolution: [1n, 2n, 3n] }), "scales[0].resolution");
  });
});
