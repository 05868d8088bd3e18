import { type DimChunking, type DimSlice, InvalidSelectionError } from "@zarrkit/registry";

/** A Python-style slice; omitted bounds mean the whole dimension. */
export interface Slice {
  /** Always "slice". */
  readonly kind: "slice";
  /** First index (negative: from the end); null: the start. */
  readonly start: number | null;
  /** Indices stay below this (negative: from the end); null: the end. */
  readonly stop: number | null;
  /** Distance between indices; null: 1. */
  readonly step: number | null;
}

/** `slice(stop)` or `slice(start, stop, step)`, with negative indices counting from the end. */
export function slice(start: number | null = null, stop?: number | null, step: number | null = null): Slice {
  if (stop === undefined) return { kind: "slice", start: null, stop: start, step };
  return { kind: "slice", start, stop, step };
}

/** Per dimension: an integer (dropped from the result shape), a slice, or null for everything. */
export type Selection = ReadonlyArray<number | Slice | null>;

/** A selection resolved against a shape: every dimension a DimSlice; `dropped` marks integer indices. */
export interface NormalizedSelection {
  /** The selected indices of each dimension. */
  slices: DimSlice[];
  /** Number of selected indices per dimension. */
  counts: number[];
  /** Dimensions indexed by an integer, absent from the result shape. */
  dropped: boolean[];
}

/**
 * A selection made explicit for `shape`: every dimension a clipped slice (an InvalidSelectionError for indices out of
 * range).
 */
export function normalizeSelection(
  selection: Selection | null | undefined,
  shape: readonly number[],
): NormalizedSelection {
  const sel = selection ?? [];
  if (sel.length > shape.length) {
    throw new InvalidSelectionError(`Selection has ${sel.length} dimensions but the array has ${shape.length}`);
  }
  const slices: DimSlice[] = [];
  const counts: number[] = [];
  const dropped: boolean[] = [];
  shape.forEach((size, dim) => {
    const s = sel[dim] ?? null;
    if (typeof s === "number") {
      if (!Number.isInteger(s) || s < -size || s >= size) {
        throw new InvalidSelectionError(`Index ${s} is out of bounds for dimension ${dim} of size ${size}`);
      }
      const i = s < 0 ? s + size : s;
      slices.push({ start: i, stop: i + 1, step: 1 });
      counts.push(1);
      dropped.push(true);
      return;
    }
    if (s !== null && (typeof s !== "object" || s.kind !== "slice")) {
      throw new InvalidSelectionError(`Dimension ${dim}: expected an integer, slice(...) or null, got ${String(s)}`);
    }
    const step = s?.step ?? 1;
    if (!Number.isInteger(step) || step < 1) {
      throw new InvalidSelectionError(`Dimension ${dim}: slice step must be an integer >= 1, got ${step}`);
    }
    const start = clampIndex(s?.start ?? 0, size, dim, "start");
    const stop = Math.max(start, clampIndex(s?.stop ?? size, size, dim, "stop"));
    slices.push({ start, stop, step });
    counts.push(Math.ceil((stop - start) / step));
    dropped.push(false);
  });
  return { slices, counts, dropped };
}

function clampIndex(value: number, size: number, dim: number, what: string): number {
  if (!Number.isInteger(value)) {
    throw new InvalidSelectionError(`Dimension ${dim}: slice ${what} must be an integer, got ${value}`);
  }
  const v = value < 0 ? value + size : value;
  return Math.min(Math.max(v, 0), size);
}

/** Along one dimension: which chunk, the part of the selection inside it, and where that part lands in the output. */
export interface DimChunkPart {
  /** The chunk's index along the dimension. */
  chunkIndex: number;
  /** Selection in chunk-local coordinates. */
  local: DimSlice;
  /** Position of the part's first selected index in the output. */
  outOffset: number;
  /** Indices selected in the chunk. */
  count: number;
}

/** Every part of `sel` along one dimension, in order (see `dimensionPartsOf` for a lazy form). */
export function dimensionParts(sel: DimSlice, chunking: DimChunking): DimChunkPart[] {
  return [...walkParts(sel, chunking)];
}

/**
 * The parts of `sel` along one dimension, computed as they are iterated and
 * again on every iteration: nothing proportional to the number of chunks is
 * held, so `cartesian` over these walks the chunks of a dimension of 2^33
 * elements without an array of 2^27 parts.
 */
export function dimensionPartsOf(sel: DimSlice, chunking: DimChunking): Iterable<DimChunkPart> {
  return { [Symbol.iterator]: () => walkParts(sel, chunking) };
}

function* walkParts(sel: DimSlice, chunking: DimChunking): Generator<DimChunkPart> {
  if (sel.stop <= sel.start) return;
  let next = sel.start;
  let outOffset = 0;
  while (next < sel.stop) {
    const chunkIndex = chunking.chunkIndex(next);
    const chunkStart = chunking.chunkStart(chunkIndex);
    const chunkEnd = Math.min(chunkStart + chunking.chunkLength(chunkIndex), sel.stop);
    const count = Math.ceil((chunkEnd - next) / sel.step);
    yield {
      chunkIndex,
      local: { start: next - chunkStart, stop: next - chunkStart + (count - 1) * sel.step + 1, step: sel.step },
      outOffset,
      count,
    };
    outOffset += count;
    next += count * sel.step;
  }
}

/** The integers start, start+1, ... below stop, as a re-iterable that holds none of them. */
export function range(start: number, stop: number): Iterable<number> {
  return {
    *[Symbol.iterator]() {
      for (let i = start; i < stop; i++) yield i;
    },
  };
}

/**
 * Every combination of per-dimension items (the chunks a selection touches),
 * in C order. Lists are arrays or re-iterables (each inner list is iterated
 * once per combination of the outer ones, as `dimensionPartsOf` and `range`
 * allow), so only one item per dimension is held at a time. Each combination
 * is a new array.
 */
export function* cartesian<T>(lists: readonly Iterable<T>[]): Generator<T[]> {
  const rank = lists.length;
  // An empty dimension means no combinations: stop before walking the others.
  if (lists.some((l) => l[Symbol.iterator]().next().done)) return;
  if (rank === 0) {
    yield [];
    return;
  }
  const iterators = new Array<Iterator<T>>(rank);
  const current = new Array<T>(rank);
  let d = 0;
  iterators[0] = lists[0]![Symbol.iterator]();
  while (d >= 0) {
    const next = iterators[d]!.next();
    if (next.done) {
      d--;
      continue;
    }
    current[d] = next.value;
    if (d === rank - 1) {
      yield current.slice();
    } else {
      d++;
      iterators[d] = lists[d]![Symbol.iterator]();
    }
  }
}

/** Indices a slice selects. */
export function sliceCount(s: DimSlice): number {
  return s.stop <= s.start ? 0 : Math.ceil((s.stop - s.start) / s.step);
}

/** The product of `values` (1 for none): elements of a shape. */
export function product(values: readonly number[]): number {
  let n = 1;
  for (const v of values) n *= v;
  return n;
}
