export {
  type ShardingEncoding,
  type ShardingHash,
  type ShardingSpec,
  parseShardingSpec,
  shardIndexSize,
} from "./spec.js";
export { murmurHash3_x86_128 } from "./murmurhash3.js";
export { type ShardLocation, hashChunkId, murmurHash3ChunkId, shardFileName, shardLocation } from "./location.js";
export type { ByteRange } from "@zarrkit/util";
export { decodeShardIndex, encodeShardIndex } from "./shard-index.js";
export { decodeMinishardIndex, encodeMinishardIndex, type MinishardEntry } from "./minishard-index.js";
export { ShardReader, type ShardReaderOptions, type StoredChunk } from "./shard-reader.js";
export { disassembleShard } from "./disassemble.js";
export { synthesizeShards, writeShards, type WriteShardsOptions } from "./synthesize.js";
export { compressedMortonBits, compressedMortonCode } from "./morton.js";
export {
  computeShardParamsForImage,
  computeShardParamsForLabels,
  type ImageShardParamsOptions,
  type LabelShardParamsOptions,
} from "./shard-params.js";
export {
  type PrecomputedInfo,
  type PrecomputedScale,
  parsePrecomputedInfo,
  type Vec3,
} from "./precomputed/info.js";
export type { PrecomputedDataType, PrecomputedTypedArray } from "./precomputed/data-type.js";
export { decodeCompressedSegmentation } from "./precomputed/compressed-segmentation.js";
export {
  type ImageRegion,
  type OpenPrecomputedImageOptions,
  openPrecomputedImage,
  type PrecomputedImage,
  type ReadImageOptions,
  type VoxelBox,
} from "./precomputed/image.js";
