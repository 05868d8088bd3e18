import type { ArrayData, ArrayRegion, Chunk, DimSlice, NumericArray, Scalar } from "@zarrkit/registry";
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

function run(
  walk: Walk,
  inner: (src: number, dst: number, n: number, srcStride: number, dstStride: number) => void,
): void {
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
 * Typed data as integers of at most 32 bits (8-byte elements as two), with
 * `lanes` scaled to match: JavaScript reads a float element as a number,
 * which quiets a signalling NaN (its bits change), so copies move integers.
 */
function integerUnits(
  data: NumericArray,
  lanes: number,
): { units: Uint8Array | Uint16Array | Int32Array; lanes: number } {
  const width = data.BYTES_PER_ELEMENT;
  const { buffer, byteOffset, byteLength } = data;
  if (width === 1) return { units: new Uint8Array(buffer, byteOffset, byteLength), lanes };
  if (width === 2) return { units: new Uint16Array(buffer, byteOffset, byteLength / 2), lanes };
  return { units: new Int32Array(buffer, byteOffset, byteLength / 4), lanes: (lanes * width) / 4 };
}

/** The strides, start offsets and counts of a copy, in `lanes` slots per element. */
function copyWalk(
  src: Chunk,
  srcSel: readonly DimSlice[],
  dst: Chunk,
  dstSel: readonly DimSlice[],
  lanes: number,
): Walk {
  const srcStrides = cStrides(src.shape, lanes);
  const dstStrides = cStrides(dst.shape, lanes);
  let srcStart = 0;
  let dstStart = 0;
  srcSel.forEach((s, d) => {
    srcStart += s.start * srcStrides[d]!;
    dstStart += dstSel[d]!.start * dstStrides[d]!;
  });
  return simplify(
    {
      counts: srcSel.map(sliceCount),
      srcStrides: srcSel.map((s, d) => s.step * srcStrides[d]!),
      dstStrides: dstSel.map((s, d) => s.step * dstStrides[d]!),
      srcStart,
      dstStart,
    },
    lanes,
  );
}

/**
 * Copy the elements `srcSel` picks from `src` to the positions `dstSel` picks
 * in `dst` (both select the same number of elements per dimension). Every
 * chunk <-> array transfer goes through here, in both directions. Typed data
 * is copied bit for bit.
 */
export function copyStrided(
  src: Chunk,
  srcSel: readonly DimSlice[],
  dst: Chunk,
  dstSel: readonly DimSlice[],
  type: DataType,
): void {
  if (Array.isArray(src.data) || Array.isArray(dst.data)) {
    const from = src.data as unknown[];
    const to = dst.data as unknown[];
    run(copyWalk(src, srcSel, dst, dstSel, type.lanes), (s, d, n, ss, ds) => {
      for (let i = 0; i < n; i++) to[d + i * ds] = from[s + i * ss];
    });
    return;
  }
  const { units: from, lanes } = integerUnits(src.data as NumericArray, type.lanes);
  const { units: to } = integerUnits(dst.data as NumericArray, type.lanes);
  const walk = copyWalk(src, srcSel, dst, dstSel, lanes);
  const last = walk.counts.length - 1;
  if (walk.srcStrides[last] === 1 && walk.dstStrides[last] === 1) {
    const words = wordRuns(walk, from, to);
    if (words) copyWordRuns(words);
    else run(walk, (s, d, n) => (to as Uint8Array).set((from as Uint8Array).subarray(s, s + n), d));
    return;
  }
  run(walk, (s, d, n, ss, ds) => {
    for (let i = 0; i < n; i++) (to as Uint8Array)[d + i * ds] = (from as Uint8Array)[s + i * ss]!;
  });
}

/** A walk of contiguous runs re-expressed in words (32 or 64 bits) of both arrays. */
interface WordRuns {
  from: Int32Array | Float64Array;
  to: Int32Array | Float64Array;
  walk: Walk;
}

/**
 * Whether this engine moves float64 elements bit for bit, NaN payloads
 * included (V8 does; engines that canonicalize NaNs on loads, such as
 * SpiderMonkey and JavaScriptCore, do not): then runs are copied in 64-bit
 * words, half the loop of 32-bit ones.
 */
const doublesKeepBits: boolean = (() => {
  const bits = new Uint32Array([1, 0x7ff00000, 0xabc, 0xfff40000]);
  const from = new Float64Array(bits.buffer);
  const to = new Float64Array(2);
  for (let i = 0; i < 2; i++) to[i] = from[i]!;
  const back = new Uint32Array(to.buffer);
  return bits.every((word, i) => back[i] === word);
})();

/**
 * The walk in words when its contiguous runs are short enough to copy word
 * by word and everything lies on word boundaries (64-bit ones where the
 * engine keeps their bits and the layout allows); undefined otherwise.
 */
function wordRuns(
  walk: Walk,
  from: Uint8Array | Uint16Array | Int32Array,
  to: Uint8Array | Uint16Array | Int32Array,
): WordRuns | undefined {
  const size = from.BYTES_PER_ELEMENT;
  const last = walk.counts.length - 1;
  const runBytes = walk.counts[last]! * size;
  if (runBytes > SHORT_RUN_BYTES) return undefined;
  const outerSrc = walk.srcStrides.slice(0, last);
  const outerDst = walk.dstStrides.slice(0, last);
  const offsets = [walk.srcStart, walk.dstStart, walk.counts[last]!, ...outerSrc, ...outerDst];
  const fits = (word: number) =>
    from.byteOffset % word === 0 && to.byteOffset % word === 0 && offsets.every((n) => (n * size) % word === 0);
  const word = doublesKeepBits && fits(8) ? 8 : fits(4) ? 4 : 0;
  if (word === 0) return undefined;
  const words = ({ buffer, byteOffset, byteLength }: ArrayBufferView) =>
    word === 8
      ? new Float64Array(buffer as ArrayBuffer, byteOffset, Math.floor(byteLength / 8))
      : new Int32Array(buffer as ArrayBuffer, byteOffset, Math.floor(byteLength / 4));
  const inWords = (elements: number) => (elements * size) / word;
  return {
    from: words(from),
    to: words(to),
    walk: {
      counts: [...walk.counts.slice(0, last), inWords(walk.counts[last]!)],
      srcStrides: [...outerSrc.map(inWords), 1],
      dstStrides: [...outerDst.map(inWords), 1],
      srcStart: inWords(walk.srcStart),
      dstStart: inWords(walk.dstStart),
    },
  };
}

/**
 * `run` specialised to contiguous word runs: the two innermost dimensions
 * (a run, and the rows of runs) go to `copyRows`, the outer ones are walked
 * here. The same loop as `run` with the copy passed in as a callback
 * measured 38% slower (18.5 against 13.3 ms per 32 MiB of 64-byte rows).
 */
function copyWordRuns({ from, to, walk }: WordRuns): void {
  const { counts, srcStrides, dstStrides } = walk;
  if (counts.some((c) => c === 0)) return;
  const last = counts.length - 1;
  const width = counts[last]!;
  const rows = last > 0 ? counts[last - 1]! : 1;
  const rowSrc = last > 0 ? srcStrides[last - 1]! : 0;
  const rowDst = last > 0 ? dstStrides[last - 1]! : 0;
  const outer = Math.max(last - 1, 0);
  const idx = new Array<number>(outer).fill(0);
  let src = walk.srcStart;
  let dst = walk.dstStart;
  while (true) {
    copyRows(from, to, src, dst, rows, rowSrc, rowDst, width);
    let d = outer - 1;
    while (d >= 0) {
      idx[d]!++;
      src += srcStrides[d]!;
      dst += dstStrides[d]!;
      if (idx[d]! < counts[d]!) break;
      src -= srcStrides[d]! * counts[d]!;
      dst -= dstStrides[d]! * counts[d]!;
      idx[d] = 0;
      d--;
    }
    if (d < 0) return;
  }
}

/**
 * `rows` runs of `width` words, `rowSrc` and `rowDst` words apart. The common
 * widths (the rows of 32^3 and 64^3 chunks of 1-, 2- and 4-byte types) are
 * unrolled: a loop of 8 words per 64-byte row took 30-33 ms per 32 MiB of
 * rows gathered from a 256^3 uint16 array, unrolled 7.1-7.7 ms (Node 20).
 * Each width has a body of its own: 16 words as two passes of the 8-word
 * body took 12.3 ms against 10.5, and 8 words through that loop 11 against 7-8.
 */
function copyRows(
  from: Int32Array | Float64Array,
  to: Int32Array | Float64Array,
  s: number,
  t: number,
  rows: number,
  rowSrc: number,
  rowDst: number,
  width: number,
): void {
  if (width === 4) {
    for (let r = 0; r < rows; r++, s += rowSrc, t += rowDst) {
      to[t] = from[s]!;
      to[t + 1] = from[s + 1]!;
      to[t + 2] = from[s + 2]!;
      to[t + 3] = from[s + 3]!;
    }
  } else if (width === 8) {
    for (let r = 0; r < rows; r++, s += rowSrc, t += rowDst) {
      to[t] = from[s]!;
      to[t + 1] = from[s + 1]!;
      to[t + 2] = from[s + 2]!;
      to[t + 3] = from[s + 3]!;
      to[t + 4] = from[s + 4]!;
      to[t + 5] = from[s + 5]!;
      to[t + 6] = from[s + 6]!;
      to[t + 7] = from[s + 7]!;
    }
  } else if (width === 16) {
    for (let r = 0; r < rows; r++, s += rowSrc, t += rowDst) {
      to[t] = from[s]!;
      to[t + 1] = from[s + 1]!;
      to[t + 2] = from[s + 2]!;
      to[t + 3] = from[s + 3]!;
      to[t + 4] = from[s + 4]!;
      to[t + 5] = from[s + 5]!;
      to[t + 6] = from[s + 6]!;
      to[t + 7] = from[s + 7]!;
      to[t + 8] = from[s + 8]!;
      to[t + 9] = from[s + 9]!;
      to[t + 10] = from[s + 10]!;
      to[t + 11] = from[s + 11]!;
      to[t + 12] = from[s + 12]!;
      to[t + 13] = from[s + 13]!;
      to[t + 14] = from[s + 14]!;
      to[t + 15] = from[s + 15]!;
    }
  } else {
    for (let r = 0; r < rows; r++, s += rowSrc, t += rowDst) for (let i = 0; i < width; i++) to[t + i] = from[s + i]!;
  }
}

/**
 * Contiguous runs up to this long are copied as words in a loop: a
 * typed-array `set` costs a view (garbage) and a call per run. Measured
 * gathering the chunks of a 256^3 uint16 array (32 MiB; Node 20, 2-core VM):
 * 64-byte rows (32^3 chunks) 37 ms with `set` against 10-19 as words,
 * 128-byte rows (64^3) 20.7 against 7.0. Per 32 MiB of runs of one length,
 * words take 6.2-6.7 ms whatever the length; `set` 8.3 for 256-byte runs,
 * 7.0-7.2 for 2 KiB, 4.6 for 4 KiB and 2.2-2.9 from 8 KiB on (a memcpy).
 */
const SHORT_RUN_BYTES = 2048;

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
  const walk = simplify(
    { counts: selection.map(sliceCount), srcStrides: stepped, dstStrides: stepped, srcStart: start, dstStart: start },
    1,
  );
  const data: ArrayData = dst.data;
  run(walk, (_s, d, n, _ss, ds) => {
    if (ds === 1) fillData(data, value, type, d, d + n);
    else for (let i = 0; i < n; i++) fillData(data, value, type, d + i * ds, d + i * ds + 1);
  });
}

/** The array with axes reordered: result axis d is input axis `order[d]` (used by the transpose codec). */
export function transposeChunk(chunk: Chunk, order: readonly number[], type: DataType): Chunk {
  const shape = order.map((axis) => chunk.shape[axis]!);
  const data = type.allocate(chunk.data.length / type.lanes);
  const typed = !Array.isArray(data);
  const lanes = typed ? integerUnits(data as NumericArray, type.lanes).lanes : type.lanes;
  const srcStrides = cStrides(chunk.shape, lanes);
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
  const from = (typed ? integerUnits(chunk.data as NumericArray, type.lanes).units : chunk.data) as unknown[];
  const to = (typed ? integerUnits(data as NumericArray, type.lanes).units : data) as unknown[];
  run(walk, (s, d, n, ss, ds) => {
    for (let i = 0; i < n; i++) to[d + i * ds] = from[s + i * ss];
  });
  return { data, shape };
}
