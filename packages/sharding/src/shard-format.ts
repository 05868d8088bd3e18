import { CorruptDataError } from "@zarrkit/core";
import { chunkOrder } from "./chunk-order.js";
import type { ShardingConfig } from "./config.js";
import { decodeIndex, emptyIndex, encodeIndex, indexRange, type ShardIndex } from "./shard-index.js";

/** Encoded inner chunks of one shard, by C-order index; undefined: empty (the fill value), left out. */
export type EncodedChunks = (Uint8Array | undefined)[];

/** Lay inner chunks out in `order` with the index at its end of the shard. */
export async function assembleShard(
  config: ShardingConfig,
  chunks: EncodedChunks,
  order: "morton" | "c",
  key: string,
): Promise<Uint8Array> {
  const { indexSize, indexLocation } = config;
  const dataBytes = chunks.reduce((n, c) => n + (c?.length ?? 0), 0);
  const shard = new Uint8Array(dataBytes + indexSize);
  const index = emptyIndex(config.chunkCount);
  let position = indexLocation === "start" ? indexSize : 0;
  for (const linear of chunkOrder(config.gridShape, order)) {
    const bytes = chunks[linear];
    if (!bytes) continue;
    shard.set(bytes, position);
    index.offsets[linear] = position;
    index.lengths[linear] = bytes.length;
    position += bytes.length;
  }
  shard.set(await encodeIndex(config, index, key), indexLocation === "start" ? 0 : dataBytes);
  return shard;
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
