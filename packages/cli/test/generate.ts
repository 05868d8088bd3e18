import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { compressedMortonCode, parseShardingSpec, writeShards } from "@zarrkit/neuroglancer";
import { createArray, createGroup, FileSystemStore, slice } from "zarrkit";

/** The generated sharded array's known layout: what info --json must report. */
export const SHARDED = {
  shape: [10, 12],
  shardShape: [4, 6],
  chunkShape: [2, 3],
  // 3 x 2 shards; 5 x 4 inner chunks cover the array.
  shards: { total: 6, present: 3 },
  innerChunks: { total: 20, present: 9 },
  // Uncompressed int32 inner chunks of 2 x 3 (24 bytes); index: 4 entries x 16 bytes + crc32c.
  bytes: 4 * 24 + 68 + (4 * 24 + 68) + (24 + 68),
};

export const VOLUME = { size: [8, 6, 4] as const, chunk: [4, 3, 2] as const, offset: [10, 20, 30] as const };
/** Voxel value of the generated precomputed volume (volume-relative coordinates). */
export const voxel = (x: number, y: number, z: number) => x + 10 * y + 100 * z;

/**
 * Under `root`: gen.zarr (v3 group: sharded int32, plain uint16, complex64,
 * big-endian float16), gen-v2.zarr (v2 big-endian int32 array), vol (a sharded
 * precomputed uint16 volume written with @zarrkit/neuroglancer's writeShards).
 */
export async function generate(root: string): Promise<void> {
  const v3 = new FileSystemStore(join(root, "gen.zarr"));
  await createGroup(v3, "", { attributes: { made: "by test" } });
  await createGroup(v3, "sub");
  const sharded = await createArray(v3, "sub/sharded", {
    zarr_format: 3,
    node_type: "array",
    shape: SHARDED.shape,
    data_type: "int32",
    chunk_grid: { name: "regular", configuration: { chunk_shape: SHARDED.shardShape } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: 0,
    codecs: [
      {
        name: "sharding_indexed",
        configuration: {
          chunk_shape: SHARDED.chunkShape,
          codecs: [{ name: "bytes", configuration: { endian: "little" } }],
          index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }],
          index_location: "end",
        },
      },
    ],
    attributes: {},
  });
  // Rows 0-3: shards (0,0) and (0,1), 4 inner chunks each; one value in shard (2,1).
  await sharded.set([slice(0, 4), null], { data: Int32Array.from({ length: 48 }, (_, i) => i + 1), shape: [4, 12] });
  await sharded.set([9, 11], 7);

  const plain = await createArray(v3, "plain", { shape: [5, 4], dataType: "uint16", chunkShape: [2, 2] });
  await plain.set(null, { data: Uint16Array.from({ length: 20 }, (_, i) => i), shape: [5, 4] });
  const complex = await createArray(v3, "complex", { shape: [3], dataType: "complex64", chunkShape: [2] });
  await complex.set(null, { data: Float32Array.from([1, 2, -3, 4.5, 0, -1]), shape: [3] });
  const half = await createArray(v3, "half-be", {
    shape: [3],
    dataType: "float16",
    chunkShape: [3],
    codecs: [{ name: "bytes", configuration: { endian: "big" } }],
  });
  await half.set(null, { data: Float32Array.from([1.5, -2, 0.25]), shape: [3] });

  const v2 = new FileSystemStore(join(root, "gen-v2.zarr"));
  const a2 = await createArray(v2, "", {
    zarr_format: 2,
    shape: [4, 3],
    chunks: [2, 2],
    dtype: ">i4",
    compressor: null,
    fill_value: 0,
    order: "C",
    filters: null,
  });
  await a2.set(null, { data: Int32Array.from({ length: 12 }, (_, i) => i - 5), shape: [4, 3] });

  await writeVolume(join(root, "vol"));
}

async function writeVolume(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const sharding = parseShardingSpec({
    "@type": "neuroglancer_uint64_sharded_v1",
    hash: "identity",
    preshift_bits: 1,
    minishard_bits: 1,
    shard_bits: 1,
    minishard_index_encoding: "raw",
    data_encoding: "raw",
  });
  const { size, chunk, offset } = VOLUME;
  const info = {
    "@type": "neuroglancer_multiscale_volume",
    type: "image",
    data_type: "uint16",
    num_channels: 1,
    scales: [
      {
        key: "s0",
        size,
        voxel_offset: offset,
        chunk_sizes: [chunk],
        resolution: [4, 4, 40],
        encoding: "raw",
        sharding,
      },
    ],
  };
  await writeFile(join(dir, "info"), JSON.stringify(info));
  const grid = [0, 1, 2].map((d) => Math.ceil(size[d]! / chunk[d]!)) as [number, number, number];
  const chunks = new Map<bigint, Uint8Array>();
  for (let gz = 0; gz < grid[2]; gz++)
    for (let gy = 0; gy < grid[1]; gy++)
      for (let gx = 0; gx < grid[0]; gx++) {
        const voxels = new Uint16Array(chunk[0] * chunk[1] * chunk[2]);
        let i = 0;
        for (let z = 0; z < chunk[2]; z++)
          for (let y = 0; y < chunk[1]; y++)
            for (let x = 0; x < chunk[0]; x++)
              voxels[i++] = voxel(gx * chunk[0] + x, gy * chunk[1] + y, gz * chunk[2] + z);
        chunks.set(compressedMortonCode([gx, gy, gz], grid), new Uint8Array(voxels.buffer));
      }
  await writeShards(new FileSystemStore(dir), sharding, chunks, { prefix: "s0" });
}
