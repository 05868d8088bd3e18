/**
 * The chunk grid contract: how an array of a given shape is divided into
 * chunks. Core ships the regular and rectilinear grids; a package adds another
 * with `registerChunkGrid(name, parser)`.
 */

/** How one dimension is divided into chunks: edges may vary (rectilinear grids). */
export interface DimChunking {
  /** Index of the chunk holding coordinate `coord`. */
  chunkIndex(coord: number): number;
  /** First coordinate of chunk `index`. */
  chunkStart(index: number): number;
  /** Full (unclipped) length of chunk `index`. */
  chunkLength(index: number): number;
  /** The longest chunk along this dimension. */
  readonly maxChunkLength: number;
}

/** The `chunk_grid` field of zarr.json. */
export interface ChunkGridMetadata {
  /** "regular", "rectilinear", ... */
  name: string;
  /** The grid's parameters, e.g. `chunk_shape`. */
  configuration: Record<string, unknown>;
}

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
  toJSON(): ChunkGridMetadata;
  /** The same grid for an array resized to `shape`. */
  resize(shape: readonly number[]): ChunkGrid;
}

/**
 * Parses a `chunk_grid` configuration for an array of `shape` into its grid, or throws an `InvalidMetadataError`
 * naming `field` (the configuration's path, e.g. "chunk_grid.configuration").
 */
export type ChunkGridParser = (
  configuration: Record<string, unknown>,
  shape: readonly number[],
  field: string,
) => ChunkGrid;
