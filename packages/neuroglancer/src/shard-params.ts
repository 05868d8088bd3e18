import { InvalidMetadataError, InvalidSelectionError, showValue } from "@zarrkit/registry";
import type { ShardingEncoding, ShardingSpec } from "./spec.js";

/**
 * Sharding parameter choice, following cloud-volume's
 * compute_shard_params_for_hashed / compute_shard_params_for_image
 * (including their float rounding) so results match datasets it made.
 */

/** What `labelShardParams` aims for. */
export interface LabelShardParamsOptions {
  /** Target size of the fixed shard index. Default 8192 (512 minishards). */
  shardIndexBytes?: number;
  /** Target size of one minishard index. Default 32768 (about 1365 labels). */
  minishardIndexBytes?: number;
  /** At least this many shard files. Default 1. */
  minShards?: number;
  /** Encoding of minishard indexes. Default gzip. */
  minishardIndexEncoding?: ShardingEncoding;
  /** Encoding of chunk data. Default gzip. */
  dataEncoding?: ShardingEncoding;
}

/**
 * A murmurhash3 spec for `numLabels` segment ids (meshes, skeletons): the
 * hash spreads ids evenly, so the bits follow from labels per minishard
 * (minishardIndexBytes / 24) and minishards per shard (shardIndexBytes / 16).
 * Both encodings default to gzip.
 */
export function computeShardParamsForLabels(numLabels: number, options: LabelShardParamsOptions = {}): ShardingSpec {
  const shardIndexBytes = options.shardIndexBytes ?? 2 ** 13;
  const minishardIndexBytes = options.minishardIndexBytes ?? 2 ** 15;
  const minShards = options.minShards ?? 1;
  if (!(minShards >= 1)) throw new InvalidSelectionError(`minShards must be at least 1, got ${minShards}`);
  const spec = (shardBits: number, minishardBits: number): ShardingSpec => ({
    "@type": "neuroglancer_uint64_sharded_v1",
    preshift_bits: 0,
    hash: "murmurhash3_x86_128",
    minishard_bits: minishardBits,
    shard_bits: shardBits,
    minishard_index_encoding: options.minishardIndexEncoding ?? "gzip",
    data_encoding: options.dataEncoding ?? "gzip",
  });
  if (numLabels <= 0) return spec(0, 0);

  const minishardsPerShard = shardIndexBytes / 2 / 8;
  const labelsPerMinishard = minishardIndexBytes / 3 / 8;
  const labelsPerShard = minishardsPerShard * labelsPerMinishard;
  let shardBits = 0;
  let minishardBits = 0;
  if (numLabels >= labelsPerShard) {
    minishardBits = Math.ceil(Math.log2(minishardsPerShard));
    shardBits = Math.ceil(Math.log2(numLabels / (labelsPerMinishard * 2 ** minishardBits)));
  } else if (numLabels >= labelsPerMinishard) {
    minishardBits = Math.ceil(Math.log2(numLabels / labelsPerMinishard));
  }
  // Pack shards towards capacity: drop a bit when at most 55% would be used.
  if (numLabels / (labelsPerShard * 2 ** shardBits) <= 0.55) shardBits -= 1;
  shardBits = Math.max(shardBits, 0);
  const minShardBits = Math.round(Math.log2(minShards));
  const delta = Math.max(minShardBits - shardBits, 0);
  shardBits = Math.max(shardBits + delta, minShardBits);
  minishardBits = Math.max(minishardBits - delta, 0);
  return spec(shardBits, minishardBits);
}

/** What `imageShardParams` aims for. */
export interface ImageShardParamsOptions {
  /** Scale size in voxels (x, y, z). */
  size: readonly number[];
  /** Chunk size in voxels (x, y, z). */
  chunkSize: readonly number[];
  /** Scale encoding: "raw", "jpeg", "compressed_segmentation", ... */
  encoding: string;
  /** Voxel data type name ("uint8", "float32", ...) or its byte width. */
  dataType: string | number;
  /** Target uncompressed bytes per shard. Default 3.5e9. */
  uncompressedShardBytes?: number;
  /** Largest fixed shard index. Default 8192. */
  maxShardIndexBytes?: number;
  /** Largest minishard index. Default 40000. */
  maxMinishardIndexBytes?: number;
  /** Most chunks per minishard. Default 4000. */
  maxLabelsPerMinishard?: number;
  /** Encoding of minishard indexes. Default gzip. */
  minishardIndexEncoding?: ShardingEncoding;
  /** Default gzip; always raw for encodings that are already compressed (jpeg, png, ...). */
  dataEncoding?: ShardingEncoding;
}

// A Map: a data type name must not find Object.prototype members ("constructor").
const BYTE_WIDTHS: ReadonlyMap<string, number> = new Map([
  ["uint8", 1],
  ["int8", 1],
  ["uint16", 2],
  ["int16", 2],
  ["uint32", 4],
  ["int32", 4],
  ["float32", 4],
  ["uint64", 8],
  ["int64", 8],
  ["float64", 8],
]);

const PRECOMPRESSED = new Set(["jpeg", "png", "kempressed", "fpzip", "zfpc"]);

/**
 * An identity-hash spec for a precomputed image scale (chunk ids are
 * compressed Morton codes): shards of about `uncompressedShardBytes`, a shard
 * index within `maxShardIndexBytes`, minishards of at most
 * `maxLabelsPerMinishard` chunks, and every Morton bit used.
 */
export function computeShardParamsForImage(options: ImageShardParamsOptions): ShardingSpec {
  const { size, chunkSize, encoding, dataType } = options;
  const uncompressedShardBytes = options.uncompressedShardBytes ?? 3.5e9;
  const maxShardIndexBytes = options.maxShardIndexBytes ?? 8192;
  const maxMinishardIndexBytes = options.maxMinishardIndexBytes ?? 40000;
  const maxLabelsPerMinishard = options.maxLabelsPerMinishard ?? 4000;
  const byteWidth = typeof dataType === "number" ? dataType : BYTE_WIDTHS.get(dataType);
  if (!byteWidth) throw new InvalidSelectionError(`unknown data type ${showValue(dataType, 80)}`);
  if (size.length !== 3 || chunkSize.length !== 3 || [...size, ...chunkSize].some((n) => !(n >= 1))) {
    throw new InvalidSelectionError(`size [${size}] and chunkSize [${chunkSize}] must be three positive numbers each`);
  }

  // size and chunkSize both have 3 entries, checked above.
  const grid = size.map((n, d) => Math.ceil(n / chunkSize[d]!));
  const numChunks = grid.reduce((a, b) => a * b, 1);
  let maxBits = grid.reduce((sum, n) => sum + Math.ceil(Math.log2(n)), 0);
  const chunkBytes = chunkSize.reduce((a, b) => a * b, 1) * byteWidth;

  let chunksPerShard = 2 ** Math.trunc(Math.log2(Math.ceil(uncompressedShardBytes / chunkBytes)));
  if (numChunks < chunksPerShard) chunksPerShard = 2 ** Math.ceil(Math.log2(numChunks));
  // Approximate; rounding slack is absorbed by shard_bits at the end.
  let numShards = numChunks / chunksPerShard;
  let shardBits = 0;
  let preshiftBits = 0;
  const updateBits = () => {
    shardBits = Math.ceil(Math.log2(numShards));
    preshiftBits = Math.min(Math.ceil(Math.log2(chunksPerShard)), maxBits - shardBits);
  };
  updateBits();

  // Each chunk is one Morton code, so chunks are the "labels" of the minishard index.
  let labelsPerMinishard = chunksPerShard;
  let minishardBits = 0;
  while (labelsPerMinishard > maxLabelsPerMinishard) {
    labelsPerMinishard /= 2;
    minishardBits += 1;
    const minishardIndexTooBig = 3 * 8 * labelsPerMinishard > maxMinishardIndexBytes && minishardBits > preshiftBits;
    if (minishardIndexTooBig || 2 * 8 * 2 ** minishardBits > maxShardIndexBytes) {
      minishardBits -= 1;
      numShards *= 2;
      updateBits();
    }
  }

  // preshift + minishard bits index the chunks of a shard, so minishard bits come out of preshift.
  preshiftBits -= minishardBits;
  if (size[2] === chunkSize[2]) {
    // cloud-volume's adjustment for single-slice volumes, kept for identical results.
    const additionalBits = Math.floor(preshiftBits / 3);
    for (let i = 0; i < additionalBits; ) {
      maxBits += 1;
      preshiftBits += 1;
      if (preshiftBits % 3 !== 0) i += 1;
    }
  }
  shardBits = Math.max(maxBits - preshiftBits - minishardBits, 0);

  if (maxBits > 64) {
    throw new InvalidMetadataError(
      `a grid of [${grid}] chunks needs ${maxBits} Morton bits, more than 64; use larger chunks`,
    );
  }
  if (preshiftBits < 0 || preshiftBits + shardBits + minishardBits > maxBits) {
    throw new InvalidMetadataError(
      `no valid sharding for size [${size}] and chunk size [${chunkSize}]: preshift ${preshiftBits}, ` +
        `minishard ${minishardBits}, shard ${shardBits} bits of ${maxBits}`,
    );
  }
  return {
    "@type": "neuroglancer_uint64_sharded_v1",
    preshift_bits: preshiftBits,
    hash: "identity",
    minishard_bits: minishardBits,
    shard_bits: shardBits,
    minishard_index_encoding: options.minishardIndexEncoding ?? "gzip",
    data_encoding: PRECOMPRESSED.has(encoding) ? "raw" : (options.dataEncoding ?? "gzip"),
  };
}
