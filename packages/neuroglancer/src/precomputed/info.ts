import { InvalidMetadataError, showValue, storeKeyProblem } from "@zarrkit/registry";
import { parseShardingSpec, type ShardingSpec } from "../spec.js";
import { compressedMortonBits } from "../morton.js";
import { own } from "../own.js";
import { bytesPerVoxel, DATA_TYPES, isPrecomputedDataType, type PrecomputedDataType } from "./data-type.js";

/** Three numbers, [x, y, z]. */
export type Vec3 = [number, number, number];

/** The axes of a Vec3, typed so that indexing a Vec3 with one is a number. */
export const DIMS = [0, 1, 2] as const;
export type Dim = (typeof DIMS)[number];

/** The Vec3 whose component d is f(d). */
export function mapVec3(f: (d: Dim) => number): Vec3 {
  return [f(0), f(1), f(2)];
}

/** One scale of a precomputed volume; members keep their `info` JSON names. */
export interface PrecomputedScale {
  /** Directory of the scale's chunks, relative to the volume. */
  key: string;
  /** Voxels along x, y, z. */
  size: Vec3;
  /** Coordinates of the first voxel; chunk keys and Morton codes are relative to it. Default [0, 0, 0]. */
  voxel_offset: Vec3;
  /** Chunk shapes (at least one); readers use the first. Sharded scales have exactly one. */
  chunk_sizes: [Vec3, ...Vec3[]];
  /** Chunk encoding: "raw", "jpeg", "compressed_segmentation", ... */
  encoding: string;
  /** Nanometres per voxel along x, y, z. */
  resolution?: Vec3;
  /** The scale's sharding, when its chunks are sharded. */
  sharding?: ShardingSpec;
  /** Block size of the compressed_segmentation encoding. */
  compressed_segmentation_block_size?: Vec3;
}

/** A precomputed volume's `info` document. */
export interface PrecomputedInfo {
  /** "image" or "segmentation". */
  type: string;
  /** The voxels' data type. */
  data_type: PrecomputedDataType;
  /** Channels per voxel. */
  num_channels: number;
  /** At least one scale; the first is the finest. */
  scales: [PrecomputedScale, ...PrecomputedScale[]];
}

/** More scales than any pyramid needs (each halves the volume): refused as corrupt rather than parsed. */
export const MAX_SCALES = 256;
/** More chunk shapes per scale than any writer emits; readers use the first. */
export const MAX_CHUNK_SIZES = 64;
/** Channels per voxel; far above any real volume, and keeps one voxel's size a small number. */
export const MAX_CHANNELS = 2 ** 20;
/** One decoded chunk (all channels) must fit in an allocatable typed array: 2 GiB - 1. */
export const MAX_CHUNK_DECODED_BYTES = 2 ** 31 - 1;

const invalid = (field: string, message: string) => new InvalidMetadataError(`${field} ${message}`, { field });

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function vec3(value: unknown, field: string, min: number): Vec3 {
  // Array.from visits holes of sparse arrays (as undefined); some() and map() would skip them.
  if (
    !Array.isArray(value) ||
    value.length !== 3 ||
    Array.from(value).some((n) => typeof n !== "number" || !Number.isSafeInteger(n) || n < min)
  ) {
    throw invalid(field, `must be 3 integers from ${min} to 2^53, got ${showValue(value, 80)}`);
  }
  return [value[0], value[1], value[2]];
}

function parseScale(
  json: unknown,
  field: string,
  dataType: PrecomputedDataType,
  numChannels: number,
): PrecomputedScale {
  if (!isObject(json)) throw invalid(field, `must be an object, got ${showValue(json, 80)}`);
  const key = own(json, "key");
  if (typeof key !== "string" || key === "")
    throw invalid(`${field}.key`, `must be a non-empty string, got ${showValue(key, 80)}`);
  // A scale's key becomes a directory of the store: one climbing out of the volume ("..", "/x") is refused here,
  // whatever the store does.
  const problem = storeKeyProblem(key);
  if (problem)
    throw invalid(`${field}.key`, `must be a relative path inside the volume, got ${showValue(key, 80)}: ${problem}`);
  const encoding = own(json, "encoding");
  if (typeof encoding !== "string")
    throw invalid(`${field}.encoding`, `must be a string, got ${showValue(encoding, 80)}`);
  const chunkSizes = own(json, "chunk_sizes");
  if (!Array.isArray(chunkSizes) || chunkSizes.length === 0 || chunkSizes.length > MAX_CHUNK_SIZES) {
    throw invalid(
      `${field}.chunk_sizes`,
      `must be an array of 1 to ${MAX_CHUNK_SIZES} chunk shapes, got ${showValue(chunkSizes, 80)}`,
    );
  }
  const voxelOffset = own(json, "voxel_offset");
  const scale: PrecomputedScale = {
    key,
    size: vec3(own(json, "size"), `${field}.size`, 0),
    voxel_offset: voxelOffset === undefined ? [0, 0, 0] : vec3(voxelOffset, `${field}.voxel_offset`, -(2 ** 52)),
    chunk_sizes: [
      vec3(chunkSizes[0], `${field}.chunk_sizes[0]`, 1),
      // Array.from visits holes (as undefined), which vec3 refuses.
      ...Array.from(chunkSizes.slice(1), (c, i) => vec3(c, `${field}.chunk_sizes[${i + 1}]`, 1)),
    ],
    encoding,
  };
  for (const d of DIMS) {
    if (!Number.isSafeInteger(scale.voxel_offset[d] + scale.size[d])) {
      throw invalid(`${field}.size`, `[${scale.size}] from voxel_offset [${scale.voxel_offset}] ends past 2^53`);
    }
  }
  const voxelBytes = numChannels * bytesPerVoxel(dataType);
  scale.chunk_sizes.forEach((chunk, i) => {
    const bytes = chunk[0] * chunk[1] * chunk[2] * voxelBytes;
    if (!(bytes <= MAX_CHUNK_DECODED_BYTES)) {
      throw invalid(
        `${field}.chunk_sizes[${i}]`,
        `[${chunk}] of ${numChannels} ${dataType} channel(s) is ${bytes} bytes per chunk, more ` +
          `than ${MAX_CHUNK_DECODED_BYTES}`,
      );
    }
  });
  const r = own(json, "resolution");
  if (r !== undefined) {
    if (
      !Array.isArray(r) ||
      r.length !== 3 ||
      Array.from(r).some((n) => typeof n !== "number" || !Number.isFinite(n))
    ) {
      throw invalid(`${field}.resolution`, `must be 3 numbers, got ${showValue(r, 80)}`);
    }
    scale.resolution = [r[0], r[1], r[2]];
  }
  const sharding = own(json, "sharding");
  if (sharding !== undefined && sharding !== null) {
    scale.sharding = parseShardingSpec(sharding, `${field}.sharding`);
    if (scale.chunk_sizes.length !== 1) {
      throw invalid(`${field}.chunk_sizes`, "must hold exactly one chunk size in a sharded scale");
    }
    const chunk = scale.chunk_sizes[0];
    const grid = mapVec3((d) => Math.ceil(scale.size[d] / chunk[d]));
    const bits = compressedMortonBits(grid).reduce((a, b) => a + b, 0);
    if (bits > 64)
      throw invalid(
        `${field}.size`,
        `needs a grid of [${grid}] chunks, ${bits} Morton bits: more than a 64-bit chunk id`,
      );
  }
  if (encoding === "compressed_segmentation") {
    const block = vec3(
      own(json, "compressed_segmentation_block_size"),
      `${field}.compressed_segmentation_block_size`,
      1,
    );
    // The decoder addresses a block's bits with 32-bit arithmetic: 32 bits for each of 2^27 voxels is its limit.
    if (block[0] * block[1] * block[2] > 2 ** 27) {
      throw invalid(
        `${field}.compressed_segmentation_block_size`,
        `[${block}] holds more than 2^27 voxels per block (neuroglancer uses [8, 8, 8])`,
      );
    }
    scale.compressed_segmentation_block_size = block;
  }
  return scale;
}

/**
 * Validate a precomputed volume `info` object (image or segmentation). Every
 * malformed or absurd field raises InvalidMetadataError naming it; names from
 * the file are looked up as own properties or in Maps only.
 */
export function parsePrecomputedInfo(json: unknown): PrecomputedInfo {
  if (!isObject(json)) throw new InvalidMetadataError(`info must be an object, got ${showValue(json, 80)}`);
  const dataType = own(json, "data_type");
  if (!isPrecomputedDataType(dataType)) {
    throw invalid("data_type", `must be one of ${[...DATA_TYPES.keys()].join(", ")}, got ${showValue(dataType, 80)}`);
  }
  const numChannels = own(json, "num_channels") ?? 1;
  if (
    typeof numChannels !== "number" ||
    !Number.isSafeInteger(numChannels) ||
    numChannels < 1 ||
    numChannels > MAX_CHANNELS
  ) {
    throw invalid("num_channels", `must be an integer from 1 to ${MAX_CHANNELS}, got ${showValue(numChannels, 80)}`);
  }
  const scales = own(json, "scales");
  if (!Array.isArray(scales) || scales.length === 0 || scales.length > MAX_SCALES) {
    throw invalid("scales", `must be an array of 1 to ${MAX_SCALES} scales, got ${showValue(scales, 80)}`);
  }
  const type = own(json, "type");
  return {
    type: typeof type === "string" ? type : "image",
    data_type: dataType,
    num_channels: numChannels,
    scales: [
      parseScale(scales[0], "scales[0]", dataType, numChannels),
      // Array.from visits holes (as undefined), which parseScale refuses.
      ...Array.from(scales.slice(1), (s, i) => parseScale(s, `scales[${i + 1}]`, dataType, numChannels)),
    ],
  };
}
