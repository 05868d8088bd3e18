import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ChunkGrid, InvalidMetadataError } from "../src/index.js";
import { parseArrayMetadata, parseChunkGrid, rectilinearChunkGrid } from "../src/internal.js";

/** Naive expansion of one axis of `chunk_shapes` (the reference the grid is checked against). */
function expand(entry: unknown, length: number): number[] {
  if (typeof entry === "number") return Array.from({ length: Math.max(1, Math.ceil(length / entry)) }, () => entry);
  return (entry as (number | [number, number])[]).flatMap((item) =>
    typeof item === "number" ? [item] : Array.from({ length: item[1] }, () => item[0]),
  );
}

/** Edges of the chunks holding data along dimension `d`, read through the grid's lookup. */
function usedEdges(grid: ChunkGrid, d: number): number[] {
  return Array.from({ length: grid.gridShape()[d]! }, (_, i) => grid.dims[d]!.chunkLength(i));
}

function chunkShapes(grid: ChunkGrid): unknown[] {
  return grid.toJSON().configuration.chunk_shapes as unknown[];
}

const rectilinear = (chunk_shapes: unknown, kind: unknown = "inline") => ({
  name: "rectilinear",
  configuration: { kind, chunk_shapes },
});

function metadataError(run: () => unknown): InvalidMetadataError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidMetadataError);
    return error as InvalidMetadataError;
  }
  throw new Error("expected an InvalidMetadataError");
}

describe("the extension's example", () => {
  const shape = [6, 6, 6, 6, 6];
  const grid = parseChunkGrid(rectilinear([4, [1, 2, 3], [[4, 2]], [[1, 3], 3], [4, 4, 4]]), shape);
  const expected = [
    [4, 4],
    [1, 2, 3],
    [4, 4],
    [1, 1, 1, 3],
    [4, 4, 4],
  ];

  it("expands every entry form", () => {
    expect(grid.name).toBe("rectilinear");
    expect(chunkShapes(grid).map((entry) => expand(entry, 6))).toEqual(expected);
  });

  it("looks chunks up along each dimension", () => {
    // [4, 4, 4] overshoots: its third chunk lies wholly past the array and holds no data.
    expect(grid.gridShape()).toEqual([2, 3, 2, 4, 2]);
    expect(expected.map((_, d) => usedEdges(grid, d))).toEqual(
      expected.map((edges, d) => edges.slice(0, grid.gridShape()[d])),
    );
    expect(grid.chunkShape([1, 2, 0, 3, 2])).toEqual([4, 3, 4, 3, 4]);
    expect(grid.dims[3]!.chunkIndex(2)).toBe(2);
    expect(grid.dims[3]!.chunkIndex(5)).toBe(3);
    expect(grid.dims[3]!.chunkStart(3)).toBe(3);
  });

  it("writes compactly and reads back the same grid", () => {
    expect(grid.toJSON()).toEqual(rectilinear([4, [1, 2, 3], 4, [1, 1, 1, 3], [4, 4, 4]]));
    const again = parseChunkGrid(grid.toJSON(), shape);
    expect(again.toJSON()).toEqual(grid.toJSON());
    expect(again.gridShape()).toEqual(grid.gridShape());
  });
});

describe("writing metadata", () => {
  const written = (shape: number[], chunk_shapes: unknown) =>
    chunkShapes(parseChunkGrid(rectilinear(chunk_shapes), shape));

  it("writes an axis of equal edges as the bare integer when it stands for the same edges", () => {
    expect(written([40], [[10, 10, 10, 10]])).toEqual([10]);
    expect(written([35], [[[10, 4]]])).toEqual([10]);
    expect(written([0], [[5]])).toEqual([5]);
    expect(written([7000], [[[7, 1000]]])).toEqual([7]);
    // Four edges of 10 cover 30 with one to spare: the bare 10 would mean three.
    expect(written([30], [[10, 10, 10, 10]])).toEqual([[[10, 4]]]);
  });

  it("run-length encodes where that is shorter, and only there", () => {
    expect(written([350], [[100, 100, 100, 50]])).toEqual([[[100, 3], 50]]);
    expect(written([4], [[1, 1, 2]])).toEqual([[1, 1, 2]]);
    expect(written([6], [[[1, 3], 3]])).toEqual([[1, 1, 1, 3]]);
    expect(written([11], [[5, 5, 1]])).toEqual([[5, 5, 1]]);
    expect(written([24691], [[12345, 12345, 1]])).toEqual([[[12345, 2], 1]]);
    expect(written([24], [[1, 1, 1, 1, 20]])).toEqual([[[1, 4], 20]]);
    expect(
      written(
        [3000],
        [
          [
            [5, 100],
            [10, 250],
          ],
        ],
      ),
    ).toEqual([
      [
        [5, 100],
        [10, 250],
      ],
    ]);
  });

  it("keeps integer axes of a mixed grid as integers", () => {
    expect(written([1000, 10], [[100, 300, 500, 100], 10])).toEqual([[100, 300, 500, 100], 10]);
  });

  it("round-trips random edges exactly (fast-check)", () => {
    const edges = fc.array(
      fc.oneof(
        fc.integer({ min: 1, max: 12 }),
        fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 5 })),
      ),
      {
        minLength: 1,
        maxLength: 8,
      },
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.oneof(fc.integer({ min: 1, max: 9 }), edges), fc.nat()), { minLength: 1, maxLength: 3 }),
        (axes) => {
          const entries = axes.map(([entry]) => entry);
          // A length the edges cover: anything up to their sum (bare integers cover any length).
          const shape = axes.map(([entry, n]) => {
            const sum = typeof entry === "number" ? 50 : expand(entry, 0).reduce((a, b) => a + b, 0);
            return n % (sum + 1);
          });
          const grid = parseChunkGrid(rectilinear(entries), shape);
          const json = grid.toJSON();
          expect(chunkShapes(grid).map((entry, d) => expand(entry, shape[d]!))).toEqual(
            entries.map((entry, d) => expand(entry, shape[d]!)),
          );
          expect(parseChunkGrid(json, shape).toJSON()).toEqual(json);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("chunk lookup", () => {
  it("agrees with a linear scan over the cumulative edges (fast-check)", () => {
    const axis = fc.array(fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 4 })), {
      minLength: 1,
      maxLength: 12,
    });
    fc.assert(
      fc.property(axis, fc.nat(), (runs, cut) => {
        const edges = runs.flatMap(([edge, count]) => Array.from({ length: count }, () => edge));
        const sum = edges.reduce((a, b) => a + b, 0);
        const length = sum - (cut % edges[edges.length - 1]!);
        const grid = rectilinearChunkGrid([length], [runs]);
        const dim = grid.dims[0]!;
        let start = 0;
        edges.forEach((edge, i) => {
          expect(dim.chunkStart(i)).toBe(start);
          expect(dim.chunkLength(i)).toBe(edge);
          for (let c = start; c < Math.min(start + edge, length); c++) expect(dim.chunkIndex(c)).toBe(i);
          start += edge;
        });
        expect(dim.maxChunkLength).toBe(Math.max(...edges));
        expect(grid.gridShape()).toEqual([length === 0 ? 0 : dim.chunkIndex(length - 1) + 1]);
      }),
      { numRuns: 300 },
    );
  });

  it("handles runs of a million edges without expanding them", () => {
    const grid = rectilinearChunkGrid([3_000_010], [[[3, 1_000_000], 10, [1, 5]]]);
    const dim = grid.dims[0]!;
    expect(grid.gridShape()).toEqual([1_000_001]);
    expect(dim.chunkIndex(2_999_999)).toBe(999_999);
    expect(dim.chunkIndex(3_000_000)).toBe(1_000_000);
    expect(dim.chunkStart(1_000_000)).toBe(3_000_000);
    expect(dim.chunkLength(1_000_003)).toBe(1);
    expect(chunkShapes(grid)).toEqual([[[3, 1000000], 10, [1, 5]]]);
  });

  it("lists one chunk per distinct edge along each dimension for codec checks", () => {
    const grid = rectilinearChunkGrid([20, 10, 5], [[4, 4, 6, 4, 2], 10, [1, 2, 2]]);
    expect(grid.representativeChunks()).toEqual([
      [0, 0, 0],
      [2, 0, 0],
      [4, 0, 0],
      [0, 0, 1],
    ]);
  });
});

describe("the ZEP 3 draft form (rectangular)", () => {
  const draft = { name: "rectangular", configuration: { chunk_shape: [[5, 5, 5, 15], 10] } };

  it("reads and writes it back in the same form", () => {
    const grid = parseChunkGrid(draft, [30, 25]);
    expect(grid.name).toBe("rectangular");
    expect(grid.gridShape()).toEqual([4, 3]);
    expect(grid.chunkShape([3, 2])).toEqual([15, 10]);
    expect(grid.toJSON()).toEqual(draft);
    expect(grid.resize([40, 25]).toJSON()).toEqual({
      name: "rectangular",
      configuration: { chunk_shape: [[5, 5, 5, 15, 10], 10] },
    });
  });

  it("writes runs out in full, since the draft has none", () => {
    const grid = rectilinearChunkGrid([65], [[[10, 6], 5]], "rectangular");
    expect(grid.toJSON()).toEqual({
      name: "rectangular",
      configuration: { chunk_shape: [[10, 10, 10, 10, 10, 10, 5]] },
    });
  });

  it("rejects run-length pairs", () => {
    const error = metadataError(() =>
      parseChunkGrid({ name: "rectangular", configuration: { chunk_shape: [[[5, 2]]] } }, [10]),
    );
    expect(error.field).toBe("chunk_grid.configuration.chunk_shape[0][0]");
  });
});

describe("validation", () => {
  const cases: { name: string; shape: number[]; grid: unknown; field: string; mentions: string[] }[] = [
    {
      name: "a zero edge",
      shape: [6],
      grid: rectilinear([[2, 0, 4]]),
      field: "chunk_grid.configuration.chunk_shapes[0][1]",
      mentions: ["0"],
    },
    {
      name: "a negative edge",
      shape: [6, 6],
      grid: rectilinear([6, [-2, 8]]),
      field: "chunk_grid.configuration.chunk_shapes[1][0]",
      mentions: ["-2"],
    },
    {
      name: "a zero bare edge",
      shape: [6],
      grid: rectilinear([0]),
      field: "chunk_grid.configuration.chunk_shapes[0]",
      mentions: ["0"],
    },
    {
      name: "a fractional edge",
      shape: [6],
      grid: rectilinear([[2.5, 4]]),
      field: "chunk_grid.configuration.chunk_shapes[0][0]",
      mentions: ["2.5"],
    },
    {
      name: "a zero run count",
      shape: [6],
      grid: rectilinear([[[3, 0], 6]]),
      field: "chunk_grid.configuration.chunk_shapes[0][0]",
      mentions: ["[3,0]"],
    },
    {
      name: "a zero run edge",
      shape: [6],
      grid: rectilinear([[[0, 3], 6]]),
      field: "chunk_grid.configuration.chunk_shapes[0][0]",
      mentions: ["[0,3]"],
    },
    {
      name: "a run of three",
      shape: [6],
      grid: rectilinear([[[3, 1, 1]]]),
      field: "chunk_grid.configuration.chunk_shapes[0][0]",
      mentions: ["[3,1,1]"],
    },
    {
      name: "an empty list",
      shape: [0],
      grid: rectilinear([[]]),
      field: "chunk_grid.configuration.chunk_shapes[0]",
      mentions: ["[]"],
    },
    {
      name: "edges short of the shape",
      shape: [6, 10],
      grid: rectilinear([6, [[3, 2], 2]]),
      field: "chunk_grid.configuration.chunk_shapes[1]",
      mentions: ["sum to 8", "length 10", "dimension 1"],
    },
    {
      name: "an unknown kind",
      shape: [6],
      grid: rectilinear([6], "file"),
      field: "chunk_grid.configuration.kind",
      mentions: ['"file"', '"inline"'],
    },
    {
      name: "a missing kind",
      shape: [6],
      grid: { name: "rectilinear", configuration: { chunk_shapes: [6] } },
      field: "chunk_grid.configuration.kind",
      mentions: ["inline"],
    },
    {
      name: "too few dimensions",
      shape: [6, 6, 6],
      grid: rectilinear([6, 6]),
      field: "chunk_grid.configuration.chunk_shapes",
      mentions: ["3 dimensions", "[6,6]"],
    },
    {
      name: "too many dimensions",
      shape: [6],
      grid: rectilinear([6, [6]]),
      field: "chunk_grid.configuration.chunk_shapes",
      mentions: ["1 dimensions"],
    },
    {
      name: "missing chunk_shapes",
      shape: [6],
      grid: { name: "rectilinear", configuration: { kind: "inline" } },
      field: "chunk_grid.configuration.chunk_shapes",
      mentions: ["undefined"],
    },
  ];
  for (const c of cases) {
    it(`rejects ${c.name}`, () => {
      const error = metadataError(() => parseChunkGrid(c.grid, c.shape));
      expect(error.field).toBe(c.field);
      expect(error.message).toContain(c.field);
      for (const text of c.mentions) expect(error.message).toContain(text);
    });
  }

  it("names the zarr.json key when the grid comes with an array", () => {
    const doc = {
      zarr_format: 3,
      node_type: "array",
      shape: [10],
      data_type: "uint8",
      chunk_grid: rectilinear([[5, 0, 5]]),
      chunk_key_encoding: { name: "default" },
      fill_value: 0,
      codecs: [{ name: "bytes" }],
    };
    const error = metadataError(() => parseArrayMetadata(doc, "a/zarr.json"));
    expect(error.key).toBe("a/zarr.json");
    expect(error.field).toBe("chunk_grid.configuration.chunk_shapes[0][1]");
    expect(error.message).toMatch(/^a\/zarr\.json: chunk_grid\.configuration\.chunk_shapes\[0\]\[1\] must be/);
  });
});

describe("resizing the grid", () => {
  const edges = (grid: ChunkGrid) => chunkShapes(grid);

  it("appends one edge covering the growth", () => {
    const grid = rectilinearChunkGrid([10, 10], [[2, 3, 5], 10]);
    expect(edges(grid.resize([16, 25]))).toEqual([
      [2, 3, 5, 6],
      [10, 15],
    ]);
  });

  it("adds nothing while the edges still cover the new length", () => {
    const grid = rectilinearChunkGrid([7], [[4, 4]]);
    expect(edges(grid.resize([8]))).toEqual([4]);
    const bare = rectilinearChunkGrid([25], [10]);
    expect(edges(bare.resize([30]))).toEqual([10]);
    expect(edges(bare.resize([35]))).toEqual([[[10, 3], 5]]);
  });

  it("drops edges wholly outside and keeps the one the new length ends in", () => {
    const grid = rectilinearChunkGrid([10], [[2, 3, 5]]);
    expect(edges(grid.resize([5]))).toEqual([[2, 3]]);
    expect(edges(grid.resize([6]))).toEqual([[2, 3, 5]]);
    expect(edges(grid.resize([1]))).toEqual([2]);
    expect(grid.resize([1]).gridShape()).toEqual([1]);
    // A zero-length dimension keeps its first edge, so chunk 0 always has a shape.
    expect(edges(grid.resize([0]))).toEqual([2]);
    expect(grid.resize([0]).gridShape()).toEqual([0]);
    expect(edges(grid.resize([0]).resize([9]))).toEqual([[2, 7]]);
  });

  it("drops overshooting edges of foreign metadata on any resize", () => {
    const grid = parseChunkGrid(rectilinear([[4, 4, 4]]), [6]);
    expect(edges(grid.resize([7]))).toEqual([4]);
  });
});
