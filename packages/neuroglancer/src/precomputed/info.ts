import { InvalidMetadataError } from "@zarrkit/registry";
import { parseShardingSpec, type ShardingSpec } from "../spec.js";
import { DATA_TYPES, type PrecomputedDataType } from "./data-type.js";

export type Vec3 = [number, number, number];

/** One scale of a precomputed volume; members keep their `info` JSON names. */
export interface PrecomputedScale {
  /** Directory of the scale's chunks, relative to the volume. */
  key: string;
  size: Vec3;
  /** Coordinates of the first voxel; chunk keys and Morton codes are relative to it. Default [0, 0, 0]. */
  voxel_offset: Vec3;
  /** Chunk shapes; readers use the first. Sharded scales have exactly one. */
  chunk_sizes: Vec3[];
  encoding: string;
  resolution?: Vec3;
  sharding?: ShardingSpec;
  compressed_segmentation_block_size?: Vec3;
}

export interface PrecomputedInfo {
  type: string;
  data_type: PrecomputedDataType;
  num_channels: number;
  scales: PrecomputedScale[];
}

function vec3(value: unknown, field: string, min: number): Vec3 {
  if (
    !Array.isArray(value) ||
    value.length !== 3 ||
    value.some((n) => typeof n !== "number" || !Number.isSafeInteger(n) || n < min)
  ) {
    throw new InvalidMetadataError(`${field} must be 3 integers >= ${min}, got ${JSON.stringify(value)}`, { field });
  }
  return [value[0], value[1], value[2]];
}

function parseScale(json: unknown, field: string): PrecomputedScale {
  if (typeof json !== "object" || json === null) {
    throw new InvalidMetadataError(`${field} must be an object`, { field });
  }
  const obj = json as Record<string, unknown>;
  if (typeof obj.key !== "string" || obj.key === "") {
    throw new InvalidMetadataError(`${field}.key must be a non-empty string, got ${JSON.stringify(obj.key)}`, {
      field: `${field}.key`,
    });
  }
  if (typeof obj.encoding !== "string") {
    throw new InvalidMetadataError(`${field}.encoding must be a string, got ${JSON.stringify(obj.encoding)}`, {
      field: `${field}.encoding`,
    });
  }
  if (!Array.isArray(obj.chunk_sizes) || obj.chunk_sizes.length === 0) {
    throw new InvalidMetadataError(`${field}.chunk_sizes must be a non-empty array`, { field: `${field}.chunk_sizes` });
  }
  const scale: PrecomputedScale = {
    key: obj.key,
    size: vec3(obj.size, `${field}.size`, 0),
    voxel_offset: obj.voxel_offset === undefined ? [0, 0, 0] : vec3(obj.voxel_offset, `${field}.voxel_offset`, -(2 ** 52)),
    chunk_sizes: obj.chunk_sizes.map((c, i) => vec3(c, `${field}.chunk_sizes[${i}]`, 1)),
    encoding: obj.encoding,
  };
  if (obj.resolution !== undefined) {
    const r = obj.resolution;
    if (!Array.isArray(r) || r.length !== 3 || r.some((n) => typeof n !== "number" || !Number.isFinite(n))) {
      throw new InvalidMetadataError(`${field}.resolution must be 3 numbers, got ${JSON.stringify(r)}`, {
        field: `${field}.resolution`,
      });
    }
    scale.resolution = [r[0], r[1], r[2]];
  }
  if (obj.sharding !== undefined && obj.sharding !== null) {
    scale.sharding = parseShardingSpec(obj.sharding, `${field}.sharding`);
    if (scale.chunk_sizes.length !== 1) {
      throw new InvalidMetadataError(`${field}: a sharded scale must have exactly one chunk size`, {
        field: `${field}.chunk_sizes`,
      });
    }
  }
  if (obj.encoding === "compressed_segmentation") {
    scale.compressed_segmentation_block_size = vec3(
      obj.compressed_segmentation_block_size,
      `${field}.compressed_segmentation_block_size`,
      1,
    );
  }
  return scale;
}

/** Validate a precomputed volume `info` object (image or segmentation). */
export function parsePrecomputedInfo(json: unknown): PrecomputedInfo {
  if (typeof json !== "object" || json === null) throw new InvalidMetadataError("info must be an object");
  const obj = json as Record<string, unknown>;
  if (typeof obj.data_type !== "string" || !(obj.data_type in DATA_TYPES)) {
    throw new InvalidMetadataError(
      `data_type must be one of ${Object.keys(DATA_TYPES).join(", ")}, got ${JSON.stringify(obj.data_type)}`,
      { field: "data_type" },
    );
  }
  const numChannels = obj.num_channels ?? 1;
  if (typeof numChannels !== "number" || !Number.isSafeInteger(numChannels) || numChannels < 1) {
    throw new InvalidMetadataError(`num_channels must be a positive integer, got ${JSON.stringify(obj.num_channels)}`, {
      field: "num_channels",
    });
  }
  if (!Array.isArray(obj.scales) || obj.scales.length === 0) {
    throw new InvalidMetadataError("scales must be a non-empty array", { field: "scales" });
  }
  return {
    type: typeof obj.type === "string" ? obj.type : "image",
    data_type: obj.data_type as PrecomputedDataType,
    num_channels: numChannels,
    scales: obj.scales.map((s, i) => parseScale(s, `scales[${i}]`)),
  };
}
