import {
  computeShardParamsForImage,
  decodeCompressedSegmentation,
  openPrecomputedImage,
  parsePrecomputedInfo,
  parseShardingSpec,
  type Vec3,
} from "@zarrkit/neuroglancer";
import {
  CorruptDataError,
  InvalidMetadataError,
  InvalidSelectionError,
  NotFoundError,
  UnsupportedError,
} from "@zarrkit/registry";
import { countRequests as countingStore } from "@zarrkit/core";
import { describe, expect, it } from "vitest";
import { memoryStore } from "./helpers.js";
import { extract, fillVolume, type VolumeLayout, vec3, volumeFiles } from "./volume.js";

const value = (x: number, y: number, z: number, c: number) => (x * 7 + y * 13 + z * 31 + c * 1000) % 65521;

/** Boxes (volume-relative) crossing chunk edges, the clipped last chunks, single voxels and the whole volume. */
const boxes = (size: Vec3): [Vec3, Vec3][] => [
  [[0, 0, 0], size],
  [
    [0, 0, 0],
    [1, 1, 1],
  ],
  [[size[0] - 1, size[1] - 1, size[2] - 1], size],
  [
    [3, 5, 2],
    [size[0] - 2, size[1] - 1, size[2]],
  ],
  [
    [7, 0, 4],
    [9, size[1], 5],
  ],
  [
    [2, 2, 2],
    [2, 5, 5],
  ],
];

async function checkReads(layout: VolumeLayout, ranges = true) {
  const volume = fillVolume(layout, value);
  const store = memoryStore(volumeFiles(layout, volume, "vol/"), { ranges });
  const image = await openPrecomputedImage(store, { prefix: "vol" });
  for (const [start, end] of boxes(layout.size)) {
    const min = vec3((d) => start[d] + layout.offset[d]);
    const max = vec3((d) => end[d] + layout.offset[d]);
    const region = await image.read({ min, max });
    expect(region.shape).toEqual([...vec3((d) => end[d] - start[d]), layout.channels]);
    expect(region.dataType).toBe(layout.dataType);
    expect(region.data).toEqual(extract(volume, layout.size, layout.channels, start, end));
  }
}

const base: VolumeLayout = {
  dataType: "uint16",
  size: [21, 10, 9],
  offset: [100, -5, 3],
  chunk: [8, 4, 4],
  channels: 2,
  encoding: "raw",
};
// 3 x 3 x 3 chunks: 6 Morton bits.
const sharding = parseShardingSpec({
  "@type": "neuroglancer_uint64_sharded_v1",
  hash: "identity",
  preshift_bits: 2,
  minishard_bits: 1,
  shard_bits: 3,
  data_encoding: "gzip",
  minishard_index_encoding: "gzip",
});

describe("openPrecomputedImage read by bounding box", () => {
  it.each([
    ["uint8", 1],
    ["int8", 1],
    ["uint16", 2],
    ["int16", 1],
    ["uint32", 1],
    ["int32", 3],
    ["uint64", 1],
    ["float32", 2],
  ] as const)("raw %s with %i channel(s), unsharded and sharded", async (dataType, channels) => {
    await checkReads({ ...base, dataType, channels });
    await checkReads({ ...base, dataType, channels, sharding });
  });

  it("reads sharded scales from stores without getRange", async () => {
    await checkReads({ ...base, sharding }, false);
  });

  it("reads compressed_segmentation (uint32 and uint64), blocks overhanging edge chunks", async () => {
    for (const dataType of ["uint32", "uint64"] as const) {
      const layout: VolumeLayout = { ...base, dataType, encoding: "compressed_segmentation", blockSize: [3, 2, 3] };
      await checkReads(layout);
      await checkReads({ ...layout, sharding });
    }
  });

  it("fetches a sharded box with one coalesced read per shard for each level", async () => {
    const layout: VolumeLayout = { ...base, size: [64, 64, 64], offset: [0, 0, 0], chunk: [16, 16, 16], channels: 1 };
    const spec = computeShardParamsForImage({
      size: layout.size,
      chunkSize: layout.chunk,
      encoding: "raw",
      dataType: "uint16",
    });
    expect(spec.shard_bits).toBe(0);
    const store = countingStore(memoryStore(volumeFiles({ ...layout, sharding: spec }, fillVolume(layout, value), "")));
    const image = await openPrecomputedImage(store);
    store.reset();
    await image.read({ min: [0, 0, 0], max: [64, 64, 64] });
    expect(store.reads()).toBe(3);
    store.reset();
    await image.read({ min: [0, 0, 0], max: [64, 64, 64] });
    expect(store.reads()).toBe(1);
  });

  it("fills missing chunks with zeros unless fillMissing is false", async () => {
    for (const layout of [base, { ...base, sharding }]) {
      const files = volumeFiles(
        layout,
        fillVolume(layout, () => 9),
        "",
      );
      const chunkKey = [...files.keys()].find((k) => k.startsWith("s0/") && !layout.sharding) ?? "s0/0.shard";
      files.delete(chunkKey);
      const image = await openPrecomputedImage(memoryStore(files));
      const box = { min: base.offset, max: vec3((d) => base.offset[d] + base.size[d]) };
      const { data } = await image.read(box);
      expect(Array.from(data as Uint16Array).filter((v) => v === 0).length).toBeGreaterThan(0);
      expect(Array.from(data as Uint16Array).every((v) => v === 0 || v === 9)).toBe(true);
      await expect(image.read(box, { fillMissing: false })).rejects.toMatchObject({
        constructor: NotFoundError,
        key: chunkKey,
      });
    }
  });

  it("selects scales by index or key", async () => {
    const files = volumeFiles(base, fillVolume(base, value), "");
    const info = JSON.parse(new TextDecoder().decode(files.get("info")));
    info.scales.push({ ...info.scales[0], key: "s1", size: [1, 1, 1] });
    const image = await openPrecomputedImage(memoryStore(files), { info });
    const box = { min: base.offset, max: base.offset.map((o) => o + 1) };
    expect((await image.read(box, { scale: "s0" })).data).toEqual((await image.read(box)).data);
    await expect(image.read(box, { scale: 1 })).resolves.toBeDefined();
    await expect(image.read(box, { scale: "s9" })).rejects.toThrow(InvalidSelectionError);
    await expect(image.read(box, { scale: 2 })).rejects.toThrow(InvalidSelectionError);
  });

  it("rejects boxes outside the scale", async () => {
    const image = await openPrecomputedImage(memoryStore(volumeFiles(base, fillVolume(base, value), "")));
    const [ox, oy, oz] = base.offset;
    for (const box of [
      { min: [ox - 1, oy, oz], max: [ox + 1, oy + 1, oz + 1] },
      { min: [ox, oy, oz], max: [ox + 22, oy + 1, oz + 1] },
      { min: [ox + 2, oy, oz], max: [ox + 1, oy + 1, oz + 1] },
      { min: [ox, oy], max: [ox + 1, oy + 1] },
    ]) {
      await expect(image.read(box)).rejects.toThrow(InvalidSelectionError);
    }
  });

  it("reports corrupt chunks, unsupported encodings and missing or broken info", async () => {
    const files = volumeFiles(base, fillVolume(base, value), "");
    files.set("s0/100-108_-5--1_3-7", new Uint8Array(5));
    const box = { min: base.offset, max: base.offset.map((o) => o + 1) };
    await expect((await openPrecomputedImage(memoryStore(files))).read(box)).rejects.toThrow(CorruptDataError);

    const info = JSON.parse(new TextDecoder().decode(files.get("info")));
    info.scales[0].encoding = "jpeg";
    await expect((await openPrecomputedImage(memoryStore(files), { info })).read(box)).rejects.toMatchObject({
      constructor: UnsupportedError,
      field: "scales[0].encoding",
    });

    await expect(openPrecomputedImage(memoryStore(), { prefix: "nope" })).rejects.toMatchObject({
      constructor: NotFoundError,
      key: "nope/info",
    });
    await expect(openPrecomputedImage(memoryStore([["info", Uint8Array.of(123)]]))).rejects.toThrow(
      InvalidMetadataError,
    );
  });
});

describe("decodeCompressedSegmentation", () => {
  // Channel words from neuroglancer's encode_uint32/uint64 "encodeChannel basic" tests (volume 2x2x2,
  // blocks 2x2x1), prefixed with the one-channel offset word.
  it("decodes neuroglancer's uint32 known answer", () => {
    const words = Uint32Array.of(1, 5 | (2 << 24), 4, 9 | (1 << 24), 8, 0b01100001, 3, 4, 5, 0b1110, 1, 3);
    const out = decodeCompressedSegmentation(new Uint8Array(words.buffer), [2, 2, 2], 1, [2, 2, 1], "uint32", "k");
    expect(Array.from(new Uint32Array(out.buffer))).toEqual([4, 3, 5, 4, 1, 3, 3, 3]);
  });

  it("decodes neuroglancer's uint64 known answer", () => {
    const words = Uint32Array.of(
      1,
      5 | (2 << 24),
      4,
      12 | (1 << 24),
      11,
      0b01100001,
      3,
      0,
      4,
      0,
      5,
      0,
      0b1110,
      1,
      0,
      3,
      0,
    );
    const out = decodeCompressedSegmentation(new Uint8Array(words.buffer), [2, 2, 2], 1, [2, 2, 1], "uint64", "k");
    expect(Array.from(new BigUint64Array(out.buffer))).toEqual([4n, 3n, 5n, 4n, 1n, 3n, 3n, 3n]);
  });

  it("rejects offsets and widths that point outside the chunk", () => {
    const decode = (words: number[]) => () =>
      decodeCompressedSegmentation(
        new Uint8Array(Uint32Array.from(words).buffer),
        [2, 2, 1],
        1,
        [2, 2, 1],
        "uint32",
        "k",
      );
    expect(decode([1, 3 | (1 << 24), 9, 0, 7])).toThrow(CorruptDataError); // values past the end
    expect(decode([1, 3 | (3 << 24), 3, 0, 7])).toThrow(/3 bits/);
    expect(decode([1, 90 | (1 << 24), 3, 0b10, 7])).toThrow(/table entry/);
    expect(decode([1, 3])).toThrow(/block header/);
    expect(() => decodeCompressedSegmentation(new Uint8Array(5), [1, 1, 1], 1, [1, 1, 1], "uint32", "k")).toThrow(
      CorruptDataError,
    );
  });
});

describe("parsePrecomputedInfo", () => {
  const scale = { key: "s0", size: [4, 4, 4], chunk_sizes: [[2, 2, 2]], encoding: "raw" };
  const info = { type: "segmentation", data_type: "uint64", num_channels: 1, scales: [scale] };

  it("fills voxel_offset and keeps sharding parsed", () => {
    const parsed = parsePrecomputedInfo({ ...info, scales: [{ ...scale, sharding: { ...sharding } }] });
    expect(parsed.scales[0].voxel_offset).toEqual([0, 0, 0]);
    expect(parsed.scales[0].sharding).toEqual(sharding);
  });

  it.each([
    [{ ...info, data_type: "float64" }, "data_type"],
    [{ ...info, num_channels: 0 }, "num_channels"],
    [{ ...info, scales: [] }, "scales"],
    [{ ...info, scales: [{ ...scale, key: "" }] }, "scales[0].key"],
    [{ ...info, scales: [{ ...scale, size: [4, 4] }] }, "scales[0].size"],
    [{ ...info, scales: [{ ...scale, chunk_sizes: [[0, 2, 2]] }] }, "scales[0].chunk_sizes[0]"],
    [{ ...info, scales: [{ ...scale, resolution: ["4", 4, 4] }] }, "scales[0].resolution"],
    [
      { ...info, scales: [{ ...scale, encoding: "compressed_segmentation" }] },
      "scales[0].compressed_segmentation_block_size",
    ],
    [{ ...info, scales: [{ ...scale, sharding: { ...sharding, hash: "md5" } }] }, "scales[0].sharding.hash"],
    [
      {
        ...info,
        scales: [
          {
            ...scale,
            chunk_sizes: [
              [2, 2, 2],
              [4, 4, 4],
            ],
            sharding,
          },
        ],
      },
      "scales[0].chunk_sizes",
    ],
  ])("rejects %j naming %s", (json, field) => {
    expect(() => parsePrecomputedInfo(json)).toThrow(expect.objectContaining({ field }));
    expect(() => parsePrecomputedInfo(json)).toThrow(InvalidMetadataError);
  });
});
