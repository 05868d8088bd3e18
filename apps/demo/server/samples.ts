// Writes the demo's sample data sets with zarrkit itself, into a folder the
// server serves under /data/. A few seconds and about 30 MiB.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { convert, downsample } from "@zarrkit/cli";
import { computeShardParamsForImage, compressedMortonCode, writeShards } from "@zarrkit/neuroglancer";
import * as zk from "zarrkit";
import { makeLabels, makeVolume, VOLUME_SHAPE } from "./volume.js";

export interface Sample {
  name: string;
  description: string;
  /** Source relative to the server's origin: "/data/..." or "precomputed:///data/...". */
  source: string;
}

const ZSTD = { name: "zstd", configuration: { level: 3, checksum: false } };
const BYTES = { name: "bytes", configuration: { endian: "little" } };
const DIMS = ["z", "y", "x"];

async function writeZarrSamples(dataDir: string, volume: Uint16Array): Promise<void> {
  const store = await zk.openStore(pathToFileURL(join(dataDir, "volume.zarr")).href);
  await zk.createGroup(store, "", { attributes: { description: "zarrkit demo volume" } });
  const shape = [...VOLUME_SHAPE];
  const sharded = await zk.createArray(store, "sharded", {
    shape,
    dataType: "uint16",
    chunkShape: [16, 64, 64],
    shardShape: [64, 128, 128],
    codecs: [BYTES, ZSTD],
    dimensionNames: DIMS,
    attributes: { description: "sharded: 64x128x128 shards of 16x64x64 zstd inner chunks" },
  });
  await sharded.set(null, { data: volume, shape });
  const plain = await zk.createArray(store, "unsharded", {
    shape,
    dataType: "uint16",
    chunkShape: [16, 64, 64],
    codecs: [BYTES, ZSTD],
    dimensionNames: DIMS,
    attributes: { description: "the same volume, one zstd file per 16x64x64 chunk" },
  });
  await plain.set(null, { data: volume, shape });
  const labelShape = [64, 128, 128];
  const labels = await zk.createArray(store, "labels", {
    shape: labelShape,
    dataType: "uint64",
    chunkShape: [16, 32, 32],
    shardShape: [32, 64, 64],
    codecs: [BYTES, ZSTD],
    dimensionNames: DIMS,
    attributes: { description: "uint64 labels of the spheres, at half resolution" },
  });
  await labels.set(null, { data: makeLabels(labelShape, 2), shape: labelShape });
  await zk.consolidateMetadata(store, "");

  const v2 = await zk.openStore(pathToFileURL(join(dataDir, "volume-v2.zarr")).href);
  const old = await zk.createArray(v2, "", {
    format: 2,
    shape,
    dataType: "<u2",
    chunkShape: [16, 64, 64],
    compressor: { id: "zlib", level: 1 },
  });
  await old.set(null, { data: volume, shape });
}

/** The middle z-plane of the volume on a rectilinear grid: chunks of varying size (ZEP 3). */
async function writeRectilinear(dataDir: string, volume: Uint16Array): Promise<void> {
  const [nz, ny, nx] = VOLUME_SHAPE;
  const z = nz / 2;
  const plane = volume.slice(z * ny * nx, (z + 1) * ny * nx);
  const store = await zk.openStore(pathToFileURL(join(dataDir, "rectilinear.zarr")).href);
  const array = await zk.createArray(store, "", {
    shape: [ny, nx],
    dataType: "uint16",
    chunkShape: [
      [32, 96, 128],
      [16, 48, 64, 128],
    ],
    codecs: [BYTES, ZSTD],
    dimensionNames: ["y", "x"],
    attributes: { description: `z = ${z} of the volume, on a rectilinear chunk grid` },
  });
  await array.set(null, { data: plane, shape: [ny, nx] });
}

/**
 * The mean of each 2x2x2 block of a (z, y, x) uint16 volume of even sizes, rounded to nearest (ties up), for the
 * precomputed sample's s1: zarrkit's `downsample`, level 1.
 */
export function halve(volume: Uint16Array, shape: readonly number[]): { data: Uint16Array; shape: number[] } {
  const { data, shape: half } = downsample({ data: volume, shape: [...shape] }, "uint16", 1);
  return { data: data as Uint16Array, shape: half };
}

/**
 * An OME-Zarr 0.5 image of the sharded volume, levels 0, 1, 2 (2x mean per
 * level), written by zarrkit's conversion library (what `zarrkit convert --multiscale 2` runs).
 */
async function writePyramid(dataDir: string): Promise<void> {
  await convert(join(dataDir, "volume.zarr", "sharded"), join(dataDir, "pyramid.ome.zarr"), {
    multiscale: 2,
    chunkShape: [16, 64, 64],
    shardShape: [64, 128, 128],
  });
}

/**
 * The 64^3 raw chunks of a (z, y, x) volume of `shape`, keyed by grid position [gx, gy, gz]: x fastest, as raw chunks
 * are.
 */
function rawChunks(volume: Uint16Array, shape: readonly number[]): { grid: number[]; chunks: Map<string, Uint8Array> } {
  const [nz, ny, nx] = shape as [number, number, number];
  const grid = [nx / 64, ny / 64, nz / 64];
  const chunks = new Map<string, Uint8Array>();
  for (let gz = 0; gz < grid[2]!; gz++) {
    for (let gy = 0; gy < grid[1]!; gy++) {
      for (let gx = 0; gx < grid[0]!; gx++) {
        const block = new Uint16Array(64 ** 3);
        let i = 0;
        for (let z = gz * 64; z < gz * 64 + 64; z++) {
          for (let y = gy * 64; y < gy * 64 + 64; y++) {
            const row = (z * ny + y) * nx + gx * 64;
            block.set(volume.subarray(row, row + 64), i);
            i += 64;
          }
        }
        chunks.set(`${gx},${gy},${gz}`, new Uint8Array(block.buffer));
      }
    }
  }
  return { grid, chunks };
}

/**
 * The volume as a Neuroglancer precomputed image of two scales: s0 sharded
 * (gzip data), s1 at half resolution (the 2x mean) unsharded, one file per chunk.
 */
async function writePrecomputed(
  dataDir: string,
  volume: Uint16Array,
  half: { data: Uint16Array; shape: number[] },
): Promise<void> {
  const [nz, ny, nx] = VOLUME_SHAPE;
  const size = [nx, ny, nz];
  const halfSize = [nx / 2, ny / 2, nz / 2];
  const chunk = [64, 64, 64];
  const sharding = computeShardParamsForImage({
    size,
    chunkSize: chunk,
    encoding: "raw",
    dataType: "uint16",
    uncompressedShardBytes: 4 * 64 ** 3 * 2,
    dataEncoding: "gzip",
  });
  const info = {
    "@type": "neuroglancer_multiscale_volume",
    type: "image",
    data_type: "uint16",
    num_channels: 1,
    scales: [
      {
        key: "s0",
        size,
        voxel_offset: [0, 0, 0],
        chunk_sizes: [chunk],
        resolution: [1, 1, 1],
        encoding: "raw",
        sharding,
      },
      {
        key: "s1",
        size: halfSize,
        voxel_offset: [0, 0, 0],
        chunk_sizes: [chunk],
        resolution: [2, 2, 2],
        encoding: "raw",
      },
    ],
  };
  const store = await zk.openStore(pathToFileURL(join(dataDir, "precomputed")).href);
  await store.set!("info", new TextEncoder().encode(JSON.stringify(info)));
  const s0 = rawChunks(volume, VOLUME_SHAPE);
  const byId = new Map(
    [...s0.chunks].map(([position, bytes]) => [compressedMortonCode(position.split(",").map(Number), s0.grid), bytes]),
  );
  await writeShards(store, sharding, byId, { prefix: "s0" });
  for (const [position, bytes] of rawChunks(half.data, half.shape).chunks) {
    const name = position
      .split(",")
      .map((g) => `${Number(g) * 64}-${Number(g) * 64 + 64}`)
      .join("_");
    await store.set!(`s1/${name}`, bytes);
  }
}

export const SAMPLES: readonly Sample[] = [
  {
    name: "Sharded volume",
    description: "uint16 128x256x256, shards of 64x128x128, zstd inner chunks of 16x64x64",
    source: "/data/volume.zarr/sharded",
  },
  {
    name: "Unsharded volume",
    description: "the same volume, one file per chunk",
    source: "/data/volume.zarr/unsharded",
  },
  { name: "Labels", description: "uint64 labels 64x128x128, sharded", source: "/data/volume.zarr/labels" },
  {
    name: "Group (consolidated)",
    description: "the group holding the three arrays above",
    source: "/data/volume.zarr",
  },
  { name: "Zarr v2", description: "the volume as a Zarr v2 array, zlib", source: "/data/volume-v2.zarr" },
  {
    name: "OME-Zarr pyramid",
    description: "OME-Zarr 0.5 multiscale image, 3 levels (2x mean), sharded, by zarrkit convert --multiscale",
    source: "/data/pyramid.ome.zarr",
  },
  {
    name: "Rectilinear grid",
    description: "a 256x256 plane in chunks of varying size (rows 32, 96, 128; columns 16, 48, 64, 128)",
    source: "/data/rectilinear.zarr",
  },
  {
    name: "Neuroglancer precomputed",
    description: "the volume as a precomputed image: s0 sharded, s1 (half resolution) unsharded",
    source: "precomputed:///data/precomputed",
  },
];

/** Write every sample into `dataDir` (replacing what is there) and the list the start page shows. */
export async function writeSamples(dataDir: string): Promise<readonly Sample[]> {
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const volume = makeVolume();
  await writeZarrSamples(dataDir, volume);
  await writePyramid(dataDir);
  const half = halve(volume, VOLUME_SHAPE);
  await writeRectilinear(dataDir, volume);
  await writePrecomputed(dataDir, volume, half);
  // Written last: its presence means the samples are complete.
  await writeFile(join(dataDir, "samples.json"), JSON.stringify(SAMPLES, null, 2));
  return SAMPLES;
}
