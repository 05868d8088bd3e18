/**
 * The `rectilinear` chunk grid of the zarr-extensions repository: chunk edges
 * vary along each dimension. Also reads (and writes when asked) the ZEP 3
 * draft form `{"name": "rectangular", "configuration": {"chunk_shape": [...]}}`.
 *
 * An axis is kept as runs of equal edges, as the metadata's run-length pairs
 * are, so `[[1, 1000000]]` costs one run rather than a million edges; lookups
 * binary-search the runs' cumulative starts.
 */
import { type ChunkGrid, type DimChunking, InvalidMetadataError, showValue } from "@zarrkit/registry";

/**
 * One dimension's edges: a bare length m (repeated until it covers the dimension), or edge lengths and `[edge, count]`
 * runs.
 */
export type ChunkEdges = number | readonly (number | readonly [number, number])[];

/** The metadata name a rectilinear grid is written under. */
export type RectilinearGridName = "rectilinear" | "rectangular";

interface Run {
  readonly edge: number;
  readonly count: number;
}

interface Axis {
  readonly runs: readonly Run[];
  /** Chunk index of each run's first edge. */
  readonly firstIndex: readonly number[];
  /** Array coordinate where each run starts. */
  readonly firstCoord: readonly number[];
  readonly chunkCount: number;
  /** Sum of all edges. */
  readonly total: number;
}

function axisOf(runs: readonly Run[]): Axis {
  const merged: Run[] = [];
  for (const run of runs) {
    const last = merged[merged.length - 1];
    if (last && last.edge === run.edge) merged[merged.length - 1] = { edge: run.edge, count: last.count + run.count };
    else merged.push(run);
  }
  const firstIndex: number[] = [];
  const firstCoord: number[] = [];
  let index = 0;
  let coord = 0;
  for (const run of merged) {
    firstIndex.push(index);
    firstCoord.push(coord);
    index += run.count;
    coord += run.edge * run.count;
  }
  return { runs: merged, firstIndex, firstCoord, chunkCount: index, total: coord };
}

/** Index of the last element of the ascending `starts` that is <= `value` (0 when none is). */
function lastAtOrBefore(starts: readonly number[], value: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function dimChunking(axis: Axis): DimChunking {
  const runAt = (index: number) => lastAtOrBefore(axis.firstIndex, index);
  return {
    chunkIndex: (coord) => {
      const r = lastAtOrBefore(axis.firstCoord, coord);
      return axis.firstIndex[r]! + Math.floor((coord - axis.firstCoord[r]!) / axis.runs[r]!.edge);
    },
    chunkStart: (index) => {
      const r = runAt(index);
      return axis.firstCoord[r]! + (index - axis.firstIndex[r]!) * axis.runs[r]!.edge;
    },
    chunkLength: (index) => axis.runs[runAt(index)]!.edge,
    maxChunkLength: axis.runs.reduce((max, r) => Math.max(max, r.edge), 0),
  };
}

/** Edges a bare length `edge` stands for along a dimension of `length`: at least one, so chunk 0 always exists. */
function bareCount(edge: number, length: number): number {
  return Math.max(1, Math.ceil(length / edge));
}

/** Chunks holding array data along a dimension of `length`. */
function usedChunks(dim: DimChunking, length: number): number {
  return length === 0 ? 0 : dim.chunkIndex(length - 1) + 1;
}

/** The axis for a new length: the edges that intersect it (at least one), plus one edge covering any growth. */
function resizeAxis(axis: Axis, dim: DimChunking, length: number): Axis {
  if (length > axis.total) return axisOf([...axis.runs, { edge: length - axis.total, count: 1 }]);
  let keep = Math.max(1, usedChunks(dim, length));
  const runs: Run[] = [];
  for (const run of axis.runs) {
    if (keep === 0) break;
    runs.push({ edge: run.edge, count: Math.min(run.count, keep) });
    keep -= Math.min(run.count, keep);
  }
  return axisOf(runs);
}

const digits = (n: number) => String(n).length;

/**
 * An axis in the metadata: the bare length when it describes the same edges, else edges with runs where `[edge, count]`
 * is shorter.
 */
function encodeAxis(axis: Axis, length: number, runLength: boolean): ChunkEdges {
  const [first] = axis.runs;
  if (axis.runs.length === 1 && first!.count === bareCount(first!.edge, length)) return first!.edge;
  const items: (number | [number, number])[] = [];
  for (const { edge, count } of axis.runs) {
    const explicit = count * digits(edge) + count - 1;
    if (runLength && digits(edge) + digits(count) + 3 < explicit) items.push([edge, count]);
    else for (let i = 0; i < count; i++) items.push(edge);
  }
  return items;
}

const isEdge = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 1;

function parseAxis(value: unknown, length: number, dim: number, field: string, runLength: boolean): Axis {
  const fail = (at: string, why: string): never => {
    throw new InvalidMetadataError(`${at} ${why}`, { field: at });
  };
  let runs: Run[];
  if (typeof value === "number" || typeof value === "bigint") {
    if (!isEdge(value)) fail(field, `must be an edge length >= 1 (or a list of edges), got ${showValue(value)}`);
    runs = [{ edge: value as number, count: bareCount(value as number, length) }];
  } else if (Array.isArray(value) && value.length > 0) {
    runs = value.map((item, i): Run => {
      if (isEdge(item)) return { edge: item, count: 1 };
      if (runLength && Array.isArray(item) && item.length === 2 && isEdge(item[0]) && isEdge(item[1])) {
        return { edge: item[0], count: item[1] };
      }
      const expected = runLength
        ? "an edge length >= 1 or a run [edge, count] of integers >= 1"
        : "an edge length >= 1";
      return fail(`${field}[${i}]`, `must be ${expected}, got ${showValue(item)}`);
    });
  } else {
    return fail(field, `must be an edge length or a non-empty list of edges, got ${showValue(value)}`);
  }
  const axis = axisOf(runs);
  if (!Number.isSafeInteger(axis.total)) fail(field, `edges sum to more than 2^53, got ${showValue(value)}`);
  if (axis.total < length) {
    fail(
      field,
      `edges sum to ${axis.total}, less than the array's length ${length} along dimension ${dim}: ${showValue(value)}`,
    );
  }
  return axis;
}

function gridOf(name: RectilinearGridName, shape: readonly number[], axes: readonly Axis[]): ChunkGrid {
  const dims = axes.map(dimChunking);
  return {
    name,
    dims,
    gridShape: () => axes.map((_, d) => usedChunks(dims[d]!, shape[d]!)),
    chunkShape: (coords) => dims.map((dim, d) => dim.chunkLength(coords[d]!)),
    representativeChunks: () => {
      const zeros = axes.map(() => 0);
      const coords = [zeros];
      axes.forEach((axis, d) => {
        const seen = new Set([axis.runs[0]!.edge]);
        axis.runs.forEach((run, r) => {
          if (seen.has(run.edge)) return;
          seen.add(run.edge);
          coords.push(zeros.map((z, e) => (e === d ? axis.firstIndex[r]! : z)));
        });
      });
      return coords;
    },
    toJSON: () => {
      const edges = axes.map((axis, d) => encodeAxis(axis, shape[d]!, name === "rectilinear"));
      return name === "rectilinear"
        ? { name, configuration: { kind: "inline", chunk_shapes: edges } }
        : { name, configuration: { chunk_shape: edges } };
    },
    resize: (newShape) =>
      gridOf(
        name,
        newShape,
        axes.map((axis, d) => resizeAxis(axis, dims[d]!, newShape[d]!)),
      ),
  };
}

/**
 * A rectilinear grid from per-dimension edges (see `ChunkEdges`), validated:
 * every edge >= 1, and the edges of each dimension sum to at least its length
 * (the last chunk may extend past the array). `name` is the form `toJSON`
 * writes; `field` names the edges in errors.
 */
export function rectilinearChunkGrid(
  shape: readonly number[],
  chunkShapes: readonly ChunkEdges[],
  name: RectilinearGridName = "rectilinear",
  field = "chunk_shapes",
): ChunkGrid {
  return buildGrid(shape, chunkShapes, name, field, true);
}

function buildGrid(
  shape: readonly number[],
  chunkShapes: unknown,
  name: RectilinearGridName,
  field: string,
  runLength: boolean,
): ChunkGrid {
  if (!Array.isArray(chunkShapes) || chunkShapes.length !== shape.length) {
    throw new InvalidMetadataError(
      `${field} must list the edges of each of the array's ${shape.length} dimensions, got ${showValue(chunkShapes)}`,
      { field },
    );
  }
  const axes = chunkShapes.map((edges, d) => parseAxis(edges, shape[d]!, d, `${field}[${d}]`, runLength));
  return gridOf(name, shape, axes);
}

/** The `rectilinear` grid (ZEP 3) of a `chunk_grid` configuration. */
export function parseRectilinearChunkGrid(
  configuration: Record<string, unknown>,
  shape: readonly number[],
  field: string,
): ChunkGrid {
  if (configuration.kind !== "inline") {
    throw new InvalidMetadataError(`${field}.kind must be "inline", got ${showValue(configuration.kind)}`, {
      field: `${field}.kind`,
    });
  }
  return buildGrid(shape, configuration.chunk_shapes, "rectilinear", `${field}.chunk_shapes`, true);
}

/** The ZEP 3 draft form: `chunk_shape` entries are an edge length or a list of edges (no runs). */
export function parseRectangularChunkGrid(
  configuration: Record<string, unknown>,
  shape: readonly number[],
  field: string,
): ChunkGrid {
  return buildGrid(shape, configuration.chunk_shape, "rectangular", `${field}.chunk_shape`, false);
}
