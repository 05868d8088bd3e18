import {
  chunkGridParser,
  InvalidMetadataError,
  registeredChunkGrids,
  showValue,
  UnsupportedError,
} from "@zarrkit/registry";
import type { ArrayMetadata } from "../metadata/documents.js";
import type { DimChunking } from "../selection.js";

/** How an array of a given shape is divided into chunks. Regular grids ship with core; others register. */
export interface ChunkGrid {
  /** The grid's metadata name, e.g. "regular". */
  readonly name: string;
  /** Chunking of each dimension. */
  readonly dims: readonly DimChunking[];
  /** Number of chunks along each dimension. */
  gridShape(): number[];
  /** Full (unclipped) shape of the chunk at `coords`. */
  chunkShape(coords: readonly number[]): number[];
  /**
   * Grid coordinates of chunk 0 and, for each other edge length along each
   * dimension, of the first chunk with it (other coordinates 0). Checking the
   * codecs against these shapes checks every per-dimension constraint, such
   * as each shard being divisible by its inner chunks, without visiting
   * every chunk.
   */
  representativeChunks(): number[][];
  /** The `chunk_grid` metadata. */
  toJSON(): ArrayMetadata["chunk_grid"];
  /** The same grid for an array resized to `shape`. */
  resize(shape: readonly number[]): ChunkGrid;
}

/**
 * The chunk grid a `chunk_grid` document describes for an array of `shape` (an InvalidMetadataError naming `field`
 * otherwise).
 */
export function parseChunkGrid(value: unknown, shape: readonly number[], field = "chunk_grid"): ChunkGrid {
  const entry = typeof value === "string" ? { name: value } : value;
  if (typeof entry !== "object" || entry === null || typeof (entry as { name?: unknown }).name !== "string") {
    throw new InvalidMetadataError(`${field} must be {"name": ..., "configuration": {...}}`, { field });
  }
  const { name, configuration = {} } = entry as { name: string; configuration?: unknown };
  if (typeof configuration !== "object" || configuration === null || Array.isArray(configuration)) {
    const configField = `${field}.configuration`;
    throw new InvalidMetadataError(`${configField} must be an object, got ${showValue(configuration)}`, {
      field: configField,
    });
  }
  const parser = chunkGridParser(name);
  if (!parser) {
    throw new UnsupportedError(
      `${field}: unsupported chunk grid ${showValue(name)} (known: ${registeredChunkGrids().join(", ")})`,
      {
        field,
      },
    );
  }
  return parser(configuration as Record<string, unknown>, shape, `${field}.configuration`) as ChunkGrid;
}

/** Validate a list of positive safe integers of the array's rank. */
export function positiveIntegers(value: unknown, rank: number, field: string): number[] {
  if (!Array.isArray(value) || value.length !== rank || !value.every((v) => Number.isSafeInteger(v) && v > 0)) {
    throw new InvalidMetadataError(
      `${field} must be ${rank} positive integers (one per dimension), got ${showValue(value)}`,
      { field },
    );
  }
  return value as number[];
}
