import type { ChunkGrid, DimChunking } from "@zarrkit/registry";
import { positiveIntegers } from "./chunk-grid.js";

function regularDim(size: number): DimChunking {
  return {
    chunkIndex: (coord) => Math.floor(coord / size),
    chunkStart: (index) => index * size,
    chunkLength: () => size,
    maxChunkLength: size,
  };
}

/** The regular grid of `chunkShape` chunks over an array of `shape`. */
export function regularChunkGrid(shape: readonly number[], chunkShape: readonly number[]): ChunkGrid {
  return {
    name: "regular",
    dims: chunkShape.map(regularDim),
    gridShape: () => shape.map((n, d) => Math.ceil(n / chunkShape[d]!)),
    chunkShape: () => [...chunkShape],
    representativeChunks: () => [chunkShape.map(() => 0)],
    toJSON: () => ({ name: "regular", configuration: { chunk_shape: [...chunkShape] } }),
    resize: (newShape) => regularChunkGrid(newShape, chunkShape),
  };
}

export function parseRegularChunkGrid(
  configuration: Record<string, unknown>,
  shape: readonly number[],
  field: string,
): ChunkGrid {
  return regularChunkGrid(shape, positiveIntegers(configuration.chunk_shape, shape.length, `${field}.chunk_shape`));
}
