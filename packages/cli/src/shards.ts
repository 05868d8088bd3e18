import { forEachConcurrent } from "@zarrkit/core/internal";
import { describeShard, shardingConfiguration } from "@zarrkit/sharding";
import type { Store, ZarrArray } from "zarrkit";

/** Grid coordinates in C order. */
export function* gridCoords(gridShape: readonly number[]): Generator<number[]> {
  const total = gridShape.reduce((a, b) => a * b, 1);
  if (total === 0) return;
  const coords = gridShape.map(() => 0);
  for (let n = 0; n < total; n++) {
    yield [...coords];
    for (let d = coords.length - 1; d >= 0; d--) {
      if (++coords[d]! < gridShape[d]!) break;
      coords[d] = 0;
    }
  }
}

/** The keys below `prefix` when the store can list, else undefined (probe instead). */
export async function listedKeys(store: Store, prefix: string): Promise<Set<string> | undefined> {
  if (!store.list) return undefined;
  const keys = new Set<string>();
  for await (const key of store.list(prefix)) keys.add(key);
  return keys;
}

/**
 * The grid coordinates and keys of every chunk (shard) of the array that may be
 * stored: from one listing where the store lists, else all of them (callers probe).
 */
export async function candidateChunks(array: ZarrArray): Promise<{ coords: number[]; key: string }[]> {
  const listed = await listedKeys(array.store, array.path === "" ? "" : `${array.path}/`);
  const out: { coords: number[]; key: string }[] = [];
  for (const coords of gridCoords(array.gridShape)) {
    const key = array.chunkKey(coords);
    if (!listed || listed.has(key)) out.push({ coords, key });
  }
  return out;
}

/** Inner chunks covering the array along each dimension (shards clipped to the array, rectilinear grids included). */
export function innerChunksPerDimension(array: ZarrArray, inner: readonly number[]): number[] {
  const shape = array.shape;
  const grid = array.gridShape;
  return shape.map((size, d) => {
    let count = 0;
    let origin = 0;
    for (let i = 0; i < grid[d]!; i++) {
      const coords = shape.map((_, e) => (e === d ? i : 0));
      const extent = array.chunkSpec(coords).shape[d]!;
      count += Math.ceil(Math.max(0, Math.min(extent, size - origin)) / inner[d]!);
      origin += extent;
    }
    return count;
  });
}

export interface ShardStatistics {
  shards: { total: number; present: number; bytes: number };
  innerChunks: { total: number; present: number; bytes: number };
  /** Mean stored bytes per present inner chunk (null when none is present). */
  bytesPerInnerChunk: number | null;
  /**
   * Decoded bytes of the present inner chunks over their stored bytes (null when unknown: variable-size types, nothing
   * stored).
   */
  compressionRatio: number | null;
  indexLocation: "start" | "end";
}

/**
 * Read every present shard's index (at most `concurrency` at once) and sum up
 * what is stored. Shards come from one listing, or where the store cannot list,
 * from probing every key of the grid.
 */
export async function shardStatistics(
  array: ZarrArray,
  options: { concurrency?: number } = {},
): Promise<ShardStatistics> {
  const inner = array.chunkShape;
  const candidates = await candidateChunks(array);
  const perDim = innerChunksPerDimension(array, inner);
  const stats: ShardStatistics = {
    shards: { total: array.gridShape.reduce((a, b) => a * b, 1), present: 0, bytes: 0 },
    innerChunks: { total: perDim.reduce((a, b) => a * b, 1), present: 0, bytes: 0 },
    bytesPerInnerChunk: null,
    compressionRatio: null,
    indexLocation: metadataIndexLocation(array),
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? 16, candidates.length));
  await forEachConcurrent(candidates, workers, async ({ coords, key }) => {
    const shard = await describeShard(array, coords);
    stats.indexLocation = shard.indexLocation;
    if (!shard.exists) return;
    stats.shards.present++;
    let chunkBytes = 0;
    for (const chunk of shard.chunks) {
      if ("empty" in chunk) continue;
      stats.innerChunks.present++;
      chunkBytes += chunk.nbytes;
    }
    stats.innerChunks.bytes += chunkBytes;
    // Awaited before the sum: `total += await x` reads the total before waiting and loses concurrent additions.
    const stored = (await array.store.size?.(key)) ?? chunkBytes;
    stats.shards.bytes += stored;
  });
  const present = stats.innerChunks.present;
  if (present > 0) {
    stats.bytesPerInnerChunk = stats.innerChunks.bytes / present;
    const elementBytes = array.chunkSpec(array.shape.map(() => 0)).dataType.byteSize;
    if (elementBytes !== undefined && stats.innerChunks.bytes > 0) {
      stats.compressionRatio = (present * inner.reduce((a, b) => a * b, 1) * elementBytes) / stats.innerChunks.bytes;
    }
  }
  return stats;
}

/** The sharding codec's index_location in the metadata ("end" when unset). */
function metadataIndexLocation(array: ZarrArray): "start" | "end" {
  const metadata = array.metadata;
  if (metadata.zarr_format !== 3) return "end";
  return shardingConfiguration(metadata.codecs)?.indexLocation ?? "end";
}

export interface ChunkStatistics {
  chunks: { total: number; present: number; bytes: number };
  /** Decoded bytes of the present chunks over their stored bytes (null: variable-size types, nothing stored). */
  compressionRatio: number | null;
}

/**
 * What an unsharded array stores: its chunks present and their bytes, from
 * one listing and one size per chunk (at most `concurrency` at once).
 * Undefined where the store cannot list (probing every key of the grid is
 * left to sharded arrays, whose grids are small).
 */
export async function chunkStatistics(
  array: ZarrArray,
  options: { concurrency?: number } = {},
): Promise<ChunkStatistics | undefined> {
  const listed = await listedKeys(array.store, array.path === "" ? "" : `${array.path}/`);
  if (!listed) return undefined;
  const keys: string[] = [];
  for (const coords of gridCoords(array.gridShape)) {
    const key = array.chunkKey(coords);
    if (listed.has(key)) keys.push(key);
  }
  const total = array.gridShape.reduce((a, b) => a * b, 1);
  const stats: ChunkStatistics = { chunks: { total, present: 0, bytes: 0 }, compressionRatio: null };
  await forEachConcurrent(keys, Math.max(1, Math.min(options.concurrency ?? 16, keys.length)), async (key) => {
    const size = array.store.size ? await array.store.size(key) : (await array.store.get(key))?.length;
    if (size === undefined) return;
    stats.chunks.present++;
    stats.chunks.bytes += size;
  });
  const elementBytes = array.chunkSpec(array.shape.map(() => 0)).dataType.byteSize;
  if (elementBytes !== undefined && stats.chunks.bytes > 0) {
    const chunkBytes = array.chunkShape.reduce((a, b) => a * b, 1) * elementBytes;
    stats.compressionRatio = (stats.chunks.present * chunkBytes) / stats.chunks.bytes;
  }
  return stats;
}
