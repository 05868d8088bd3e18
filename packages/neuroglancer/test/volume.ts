import {
  compressedMortonCode,
  type PrecomputedDataType,
  type ShardingSpec,
  synthesizeShards,
  type Vec3,
} from "@zarrkit/neuroglancer";

/** Test volumes: whole-volume voxel arrays cut into precomputed chunks, raw or compressed_segmentation. */

export interface VolumeLayout {
  dataType: PrecomputedDataType;
  size: Vec3;
  offset: Vec3;
  chunk: Vec3;
  channels: number;
  encoding: "raw" | "compressed_segmentation";
  blockSize?: Vec3;
  sharding?: ShardingSpec;
}

/** The Vec3 whose component d is f(d). */
export const vec3 = (f: (d: 0 | 1 | 2) => number): Vec3 => [f(0), f(1), f(2)];

const CTORS = {
  uint8: Uint8Array,
  int8: Int8Array,
  uint16: Uint16Array,
  int16: Int16Array,
  uint32: Uint32Array,
  int32: Int32Array,
  uint64: BigUint64Array,
  float32: Float32Array,
};

/** A [channel][z][y][x] array of the whole volume with voxel values from `value`. */
export function fillVolume(layout: VolumeLayout, value: (x: number, y: number, z: number, c: number) => number) {
  const [sx, sy, sz] = layout.size;
  const out = new CTORS[layout.dataType](sx * sy * sz * layout.channels);
  let i = 0;
  for (let c = 0; c < layout.channels; c++)
    for (let z = 0; z < sz; z++)
      for (let y = 0; y < sy; y++)
        for (let x = 0; x < sx; x++) {
          const v = value(x + layout.offset[0], y + layout.offset[1], z + layout.offset[2], c);
          (out as unknown as { [i: number]: number | bigint })[i++] = layout.dataType === "uint64" ? BigInt(v) : v;
        }
  return out;
}

type Volume = ReturnType<typeof fillVolume>;

/** The box [start, end) (volume-relative) of a [channel][z][y][x] array of shape `shape`. */
export function extract(volume: Volume, shape: Vec3, channels: number, start: Vec3, end: Vec3): Volume {
  const Ctor = volume.constructor as new (n: number) => Volume;
  const [ex, ey, ez] = [end[0] - start[0], end[1] - start[1], end[2] - start[2]];
  const out = new Ctor(ex * ey * ez * channels);
  const dst = out as unknown as { [i: number]: number | bigint };
  const src = volume as unknown as { [i: number]: number | bigint };
  let i = 0;
  for (let c = 0; c < channels; c++)
    for (let z = start[2]; z < end[2]; z++)
      for (let y = start[1]; y < end[1]; y++)
        for (let x = start[0]; x < end[0]; x++) dst[i++] = src[((c * shape[2] + z) * shape[1] + y) * shape[0] + x]!;
  return out;
}

/** Store files (`info` and chunks, under `prefix`) of a one-scale volume with key "s0". */
export function volumeFiles(layout: VolumeLayout, volume: Volume, prefix: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const scale = {
    key: "s0",
    size: layout.size,
    voxel_offset: layout.offset,
    chunk_sizes: [layout.chunk],
    resolution: [4, 4, 40],
    encoding: layout.encoding,
    ...(layout.blockSize && { compressed_segmentation_block_size: layout.blockSize }),
    ...(layout.sharding && { sharding: layout.sharding }),
  };
  const info = { type: "image", data_type: layout.dataType, num_channels: layout.channels, scales: [scale] };
  files.set(`${prefix}info`, new TextEncoder().encode(JSON.stringify(info)));

  const grid = vec3((d) => Math.ceil(layout.size[d] / layout.chunk[d]));
  const sharded = new Map<bigint, Uint8Array>();
  for (let gz = 0; gz < grid[2]; gz++)
    for (let gy = 0; gy < grid[1]; gy++)
      for (let gx = 0; gx < grid[0]; gx++) {
        const g: Vec3 = [gx, gy, gz];
        const start = vec3((d) => g[d] * layout.chunk[d]);
        const end = vec3((d) => Math.min(start[d] + layout.chunk[d], layout.size[d]));
        const voxels = extract(volume, layout.size, layout.channels, start, end);
        const shape = vec3((d) => end[d] - start[d]);
        const bytes =
          layout.encoding === "raw"
            ? new Uint8Array(voxels.buffer)
            : encodeCompressedSegmentation(
                voxels as Uint32Array | BigUint64Array,
                shape,
                layout.channels,
                layout.blockSize as Vec3,
              );
        if (layout.sharding) {
          sharded.set(compressedMortonCode(g, grid), bytes);
        } else {
          const abs = ([0, 1, 2] as const).map((d) => `${start[d] + layout.offset[d]}-${end[d] + layout.offset[d]}`);
          files.set(`${prefix}s0/${abs.join("_")}`, bytes);
        }
      }
  if (layout.sharding) {
    for (const [name, bytes] of synthesizeShards(layout.sharding, sharded)) files.set(`${prefix}s0/${name}`, bytes);
  }
  return files;
}

/**
 * A straightforward compressed_segmentation encoder (tests only): per block a
 * table of its distinct values in first-seen order and the narrowest allowed
 * bit width; voxels of a block overhanging the chunk use index 0.
 */
export function encodeCompressedSegmentation(
  voxels: Uint32Array | BigUint64Array,
  shape: Vec3,
  channels: number,
  block: Vec3,
): Uint8Array {
  const width = voxels instanceof BigUint64Array ? 2 : 1;
  const words = new Uint32Array(voxels.buffer, voxels.byteOffset, voxels.length * width);
  const out: number[] = new Array(channels).fill(0);
  const grid = vec3((d) => Math.ceil(shape[d] / block[d]));
  const perChannel = shape[0] * shape[1] * shape[2];
  for (let c = 0; c < channels; c++) {
    out[c] = out.length;
    const base = out.length;
    const headers = out.length;
    out.push(...new Array(2 * grid[0] * grid[1] * grid[2]).fill(0));
    let b = 0;
    for (let gz = 0; gz < grid[2]; gz++)
      for (let gy = 0; gy < grid[1]; gy++)
        for (let gx = 0; gx < grid[0]; gx++, b++) {
          const table = new Map<string, number>();
          const indices: number[] = [];
          for (let z = gz * block[2]; z < (gz + 1) * block[2]; z++)
            for (let y = gy * block[1]; y < (gy + 1) * block[1]; y++)
              for (let x = gx * block[0]; x < (gx + 1) * block[0]; x++) {
                if (x >= shape[0] || y >= shape[1] || z >= shape[2]) {
                  indices.push(0);
                  continue;
                }
                const at = (c * perChannel + x + shape[0] * (y + shape[1] * z)) * width;
                const key = Array.from(words.subarray(at, at + width)).join();
                const index = table.get(key) ?? table.size;
                table.set(key, index);
                indices.push(index);
              }
          const bits = [0, 1, 2, 4, 8, 16, 32].find((n) => 2 ** n >= table.size) as number;
          const valuesOffset = out.length - base;
          const packed = new Uint32Array(Math.ceil((indices.length * bits) / 32));
          // With 0 bits (one value) there is nothing to pack: every index is 0.
          if (bits > 0) {
            indices.forEach((index, i) => {
              packed[(i * bits) >>> 5]! |= index << ((i * bits) & 31);
            });
          }
          out.push(...packed);
          const tableOffset = out.length - base;
          for (const key of table.keys()) out.push(...key.split(",").map(Number));
          out[headers + 2 * b] = tableOffset | (bits << 24);
          out[headers + 2 * b + 1] = valuesOffset;
        }
  }
  return new Uint8Array(Uint32Array.from(out).buffer);
}
