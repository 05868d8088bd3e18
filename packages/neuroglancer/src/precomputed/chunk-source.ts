import type { Store } from "@zarrkit/registry";
import { shardLocation } from "../location.js";
import { compressedMortonCode } from "../morton.js";
import type { ShardReader } from "../shard-reader.js";
import type { ShardingSpec } from "../spec.js";
import { joinKey } from "../store-key.js";
import type { Vec3 } from "./info.js";

/** One chunk of a scale: its grid position and its voxel box, clipped to the scale. */
export interface Cell {
  grid: Vec3;
  start: Vec3;
  end: Vec3;
}

/**
 * A stored chunk as a read found it: its bytes (undefined: missing), the store key holding it, and how errors name it.
 */
export interface StoredCell {
  bytes: Uint8Array | undefined;
  key: string;
  name: string;
}

/**
 * The chunks of one scale as a key-value source keyed by grid cell, whether
 * the scale stores one file per chunk or the sharded format (where a cell's
 * key is its chunk id, found through the shard and minishard indexes): the
 * image reader never asks which.
 */
export interface ChunkSource {
  /** The stored chunks of `cells`, fetched together (a sharded scale batches its lookups per shard). */
  read(cells: readonly Cell[], options: { signal?: AbortSignal; maxDecodedBytes: number }): Promise<StoredCell[]>;
}

/** One file per chunk, named `<scale key>/x0-x1_y0-y1_z0-z1`. */
export function fileChunks(store: Store, directory: string): ChunkSource {
  return {
    read: (cells, { signal }) =>
      Promise.all(
        cells.map(async (cell) => {
          const key = joinKey(
            directory,
            `${cell.start[0]}-${cell.end[0]}_${cell.start[1]}-${cell.end[1]}_${cell.start[2]}-${cell.end[2]}`,
          );
          return { bytes: await store.get(key, { signal }), key, name: key };
        }),
      ),
  };
}

/** The sharded format: a cell's chunk id is its compressed Morton code in the grid of `gridSize` chunks. */
export function shardedChunks(reader: ShardReader, sharding: ShardingSpec, gridSize: readonly number[]): ChunkSource {
  return {
    async read(cells, { signal, maxDecodedBytes }) {
      const ids = cells.map((cell) => compressedMortonCode(cell.grid, gridSize));
      const found = await reader.getMany(ids, { signal, maxDecodedBytes });
      return ids.map((id, i) => {
        const key = reader.fileKey(shardLocation(sharding, id).key);
        return { bytes: found.get(id), key, name: `chunk ${id} (grid [${cells[i]!.grid}]) in ${key}` };
      });
    },
  };
}
