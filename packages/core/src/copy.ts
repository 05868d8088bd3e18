import type { ArrayData, ArrayRegion, Chunk, DimSlice, Scalar } from "@zarrkit/registry";
import type { DataType } from "./data-types.js";
import { fillData } from "./fill-value.js";
import { sliceCount } from "./selection.js";

interface Walk {
  counts: number[];
  srcStrides: number[];
  dstStrides: number[];
  srcStart: number;
  dstStart: number;
}

function cStrides(shape: readonly number[], lanes: number): number[] {
  const strides = new Array<number>(shape.length);
  let s = lanes;
  for (let d = shape.length - 1; d >= 0; d--) {
    strides[d] = s;
    s *= shape[d]!;
  }
  return strides;
}

/**
 * Merge dimensions that are contiguous in both source and destination, so the
 * innermost loop is one long typed-array `set` instead of many short ones.
 * Lanes become an explicit innermost dimension of stride 1.
 */
function simplify(walk: Walk, lanes: number): Walk {
  const counts = [...walk.counts, lanes];
  const src = [...walk.srcStrides, 1];
  const dst = [...walk.dstStrides, 1];
  for (let d = counts.length - 2; d >= 0; d--) {
    const inner = d + 1;
    if (src[d] === counts[inner]! * src[inner]! && dst[d] === counts[inner]! * dst[inner]!) {
      counts[d] = counts[d]! * counts[inner]!;
      src[d] = src[inner]!;
      dst[d] = dst[inner]!;
      counts.splice(inner, 1);
      src.splice(inner, 1);
      dst.splice(inner, 1);
    }
  }
  return { counts, srcStrides: src, dstStrides: dst, srcStart: walk.srcStart, dstStart: walk.dstStart };
}

function run(walk: Walk, inner: (src: number, dst: number, n: number, srcStride: number, dstStride: number) => void): void {
  const rank = walk.counts.length;
  const last = rank - 1;
  if (walk.counts.some((c) => c === 0)) return;
  const idx = new Array<number>(rank).fill(0);
  let src = walk.srcStart;
  let dst = walk.dstStart;
  while (true) {
    inner(src, dst, walk.counts[last]!, walk.srcStrides[last]!, walk.dstStrides[last]!);
    let d = last - 1;
    while (d >= 0) {
      idx[d]!++;
      src += walk.srcStrides[d]!;
      dst += walk.dstStrides[d]!;
      if (idx[d]! < walk.counts[d]!) break;
      src -= walk.srcStrides[d]! * walk.counts[d]!;
      dst -= walk.dstStrides[d]! * walk.counts[d]!;
      idx[d] = 0;
      d--;
    }
    if (d < 0) return;
  }
}

/**
 * Copy the elements `srcSel` picks from `src` to the positions `dstSel` picks
 * in `dst` (both select the same number of elements per dimension). Every
 * chunk <-> array transfer goes through here, in both directions.
 */
export function copyStrided(
  src: Chunk,
  srcSel: readonly DimSlice[],
  dst: Chunk,
  dstSel: readonly DimSlice[],
  type: DataType,
): void {
  const lanes = type.lanes;
  const srcStrides = cStrides(src.shape, lanes);
  const dstStrides = cStrides(dst.shape, lanes);
  let srcStart = 0;
  let dstStart = 0;
  srcSel.forEach((s, d) => {
    srcStart += s.start * srcStrides[d]!;
    dstStart += dstSel[d]!.start * dstStrides[d]!;
  });
  const walk = simplify(
    {
      counts: srcSel.map(sliceCount),
      srcStrides: srcSel.map((s, d) => s.step * srcStrides[d]!),
      dstStrides: dstSel.map((s, d) => s.step * dstStrides[d]!),
      srcStart,
      dstStart,
    },
    lanes,
  );
  const from = src.data;
  const to = dst.data;
  run(walk, (s, d, n, ss, ds) => {
    if (ss === 1 && ds === 1 && !Array.isArray(from)) {
      (to as Uint8Array).set((from as Uint8Array).subarray(s, s + n), d);
      return;
    }
    for (let i = 0; i < n; i++) (to as unknown[])[d + i * ds] = (from as unknown[])[s + i * ss];
  });
}

/** The dense block of `counts` elements starting at `offset`, as slices. */
export function blockSlices(offset: readonly number[], counts: readonly number[]): DimSlice[] {
  return counts.map((n, d) => ({ start: offset[d]!, stop: offset[d]! + n, step: 1 }));
}

/** Copy `selection` of `src` into `out`, its first element landing at `out.offset`. */
export function copySelection(src: Chunk, selection: readonly DimSlice[], out: ArrayRegion, type: DataType): void {
  copyStrided(src, selection, out.chunk, blockSlices(out.offset, selection.map(sliceCount)), type);
}

/** Copy from a region of a caller's array into `selection` of `dst`: the inverse of copySelection. */
export function copyIntoSelection(src: ArrayRegion, dst: Chunk, selection: readonly DimSlice[], type: DataType): void {
  copyStrided(src.chunk, blockSlices(src.offset, selection.map(sliceCount)), dst, selection, type);
}

/** Set every element `selection` picks in `dst` to `value`. */
export function fillSelection(dst: Chunk, selection: readonly DimSlice[], value: Scalar, type: DataType): void {
  const strides = cStrides(dst.shape, 1);
  let start = 0;
  selection.forEach((s, d) => {
    start += s.start * strides[d]!;
  });
  const stepped = selection.map((s, d) => s.step * strides[d]!);
  const walk = simplify({ counts: selection.map(sliceCount), srcStrides: stepped, dstStrides: stepped, srcStart: start, dstStart: start }, 1);
  const data: ArrayData = dst.data;
  run(walk, (_s, d, n, _ss, ds) => {
    if (ds === 1) fillData(data, value, type, d, d + n);
    else for (let i = 0; i < n; i++) fillData(data, value, type, d + i * ds, d + i * ds + 1);
  });
}

/** The array with axes reordered: result axis d is input axis `order[d]` (used by the transpose codec). */
export function transposeChunk(chunk: Chunk, order: readonly number[], type: DataType): Chunk {
  const lanes = type.lanes;
  const shape = order.map((axis) => chunk.shape[axis]!);
  const srcStrides = cStrides(chunk.shape, lanes);
  const data = type.allocate(chunk.data.length / lanes);
  const walk = simplify(
    {
      counts: shape,
      srcStrides: order.map((axis) => srcStrides[axis]!),
      dstStrides: cStrides(shape, lanes),
      srcStart: 0,
      dstStart: 0,
    },
    lanes,
  );
  const from = chunk.data as unknown[];
  const to = data as unknown[];
  run(walk, (s, d, n, ss, ds) => {
    for (let i = 0; i < n; i++) to[d + i * ds] = from[s + i * ss];
  });
  return { data, shape };
}
