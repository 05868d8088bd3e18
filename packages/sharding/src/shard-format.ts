import { CorruptDataError } from "@zarrkit/core";
import { concatBytes } from "@zarrkit/util";
import { chunkOrder } from "./chunk-order.js";
import type { ShardingConfig } from "./config.js";
import { decodeIndex, emptyIndex, encodeIndex, indexRange, type ShardIndex } from "./shard-index.js";

/** Encoded inner chunks of one shard, by C-order index; undefined: empty (the fill value), left out. */
export type EncodedChunks = (Uint8Array | undefined)[];

/**
 * The pieces of a shard, in the order they lie in it: the inner chunks in
 * `order` and the index at its end of the shard. Their concatenation is the
 * shard (`assembleShard`); a store that writes pieces takes them as they are.
 */
export async function shardPieces(
  config: ShardingConfig,
  chunks: EncodedChunks,
  order: "morton" | "c",
  key: string,
): Promise<Uint8Array[]> {
  const { indexSize, indexLocation } = config;
  const index = emptyIndex(config.chunkCount);
  const pieces: Uint8Array[] = [];
  let position = indexLocation === "start" ? indexSize : 0;
  for (const linear of chunkOrder(config.gridShape, order)) {
    const bytes = chunks[linear];
    if (!bytes) continue;
    pieces.push(bytes);
    index.offsets[linear] = position;
    index.lengths[linear] = bytes.length;
    position += bytes.length;
  }
  const encodedIndex = await encodeIndex(config, index, key);
  if (indexLocation === "start") pieces.unshift(encodedIndex);
  else pieces.push(encodedIndex);
  return pieces;
}

/** The shard `shardPieces` lays out, in one buffer. */
export async function assembleShard(
  config: ShardingConfig,
  chunks: EncodedChunks,
  order: "morton" | "c",
  key: string,
): Promise<Uint8Array> {
  return concatBytes(await shardPieces(config, chunks, order, key));
}

/** The checked index of a whole shard held in memory. */
export function indexOfShard(config: ShardingConfig, bytes: Uint8Array, key: string): Promise<ShardIndex> {
  if (bytes.length < config.indexSize) {
    throw new CorruptDataError(
      `Shard ${key} has ${bytes.length} bytes, fewer than its ${config.indexSize}-byte index`,
      { key },
    );
  }
  const [start, end] = indexRange(config, bytes.length);
  return decodeIndex(config, bytes.subarray(start, end), key, bytes.length);
}

/** The encoded inner chunks of a whole shard held in memory (views into `bytes`). */
export async function chunksOfShard(
  config: ShardingConfig,
  bytes: Uint8Array | undefined,
  key: string,
): Promise<EncodedChunks> {
  const chunks: EncodedChunks = new Array(config.chunkCount).fill(undefined);
  if (bytes === undefined) return chunks;
  const index = await indexOfShard(config, bytes, key);
  for (let i = 0; i < chunks.length; i++) {
    if (index.offsets[i]! >= 0) chunks[i] = bytes.subarray(index.offsets[i]!, index.offsets[i]! + index.lengths[i]!);
  }
  return chunks;
}
