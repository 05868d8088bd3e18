import { type ChunkGrid, type ChunkGridParser, type DimChunking, registerChunkGrid } from "@zarrkit/registry";
import { describe, expect, it } from "vitest";
import { createArray, InvalidMetadataError, MemoryStore, openArray, UnsupportedError } from "../src/index.js";
import { parseChunkGrid } from "../src/internal.js";

/** One chunk of `edge` elements along every dimension, whatever the shape: a grid core does not ship. */
function fixedDim(edge: number): DimChunking {
  return {
    chunkIndex: (coord) => Math.floor(coord / edge),
    chunkStart: (index) => index * edge,
    chunkLength: () => edge,
    maxChunkLength: edge,
  };
}

function cubeGrid(shape: readonly number[], edge: number): ChunkGrid {
  return {
    name: "example.cube",
    dims: shape.map(() => fixedDim(edge)),
    gridShape: () => shape.map((n) => Math.ceil(n / edge)),
    chunkShape: () => shape.map(() => edge),
    representativeChunks: () => [shape.map(() => 0)],
    toJSON: () => ({ name: "example.cube", configuration: { edge } }),
    resize: (newShape) => cubeGrid(newShape, edge),
  };
}

// Typed as the registry's parser: it must return a ChunkGrid, so core takes its result without a cast.
const parseCube: ChunkGridParser = (configuration, shape, field) => {
  const edge = configuration.edge;
  if (!(Number.isSafeInteger(edge) && (edge as number) > 0)) {
    throw new InvalidMetadataError(`${field}.edge must be a positive integer`, { field: `${field}.edge` });
  }
  return cubeGrid(shape, edge as number);
};

describe("a chunk grid registered by another package", () => {
  registerChunkGrid("example.cube", parseCube);

  it("is what parseChunkGrid returns for its name", () => {
    const grid = parseChunkGrid({ name: "example.cube", configuration: { edge: 4 } }, [10, 3]);
    expect(grid.name).toBe("example.cube");
    expect(grid.gridShape()).toEqual([3, 1]);
    expect(grid.dims[0]!.chunkIndex(9)).toBe(2);
    expect(grid.toJSON()).toEqual({ name: "example.cube", configuration: { edge: 4 } });
  });

  it("reports its own configuration errors under the field core gives it", () => {
    expect(() => parseChunkGrid({ name: "example.cube", configuration: { edge: 0 } }, [10])).toThrow(
      expect.objectContaining({ field: "chunk_grid.configuration.edge" }),
    );
  });

  it("stores and reads an array's data", async () => {
    const store = new MemoryStore();
    const written = await createArray(store, "a", { shape: [6], dataType: "uint8", chunkShape: [4] });
    await written.set(null, { data: Uint8Array.of(1, 2, 3, 4, 5, 6), shape: [6] });
    const metadata = JSON.parse(new TextDecoder().decode(await store.get("a/zarr.json")));
    metadata.chunk_grid = { name: "example.cube", configuration: { edge: 4 } };
    await store.set("a/zarr.json", new TextEncoder().encode(JSON.stringify(metadata)));
    const read = await openArray(store, "a");
    expect(read.chunkShape).toEqual([4]);
    expect(read.gridShape).toEqual([2]);
    expect(Array.from((await read.get()).data as Uint8Array)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("leaves unknown names an UnsupportedError listing the registered ones", () => {
    expect(() => parseChunkGrid({ name: "example.none", configuration: {} }, [4])).toThrow(UnsupportedError);
    expect(() => parseChunkGrid({ name: "example.none", configuration: {} }, [4])).toThrow(/example\.cube/);
  });
});
