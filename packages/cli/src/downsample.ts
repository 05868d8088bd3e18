import { type DataType, dataType, type NdArray, UnsupportedError } from "zarrkit";
import { boxes, type ConvertSource } from "./convert-source.js";

/** How a level's element is made of the elements below it: mean (images) or most frequent value (labels). */
export type Reduction = "mean" | "mode";

/** The most source elements one read of a level holds: a level's element must fit (see `checkFootprint`). */
export const BLOCK_ELEMENTS = 2 ** 24;

type Numeric = { [i: number]: number };
type Big = { [i: number]: bigint };

/** Source elements reduced into one element of `level` along each dimension: 2^level on spatial axes, else 1. */
export function footprint(level: number, spatial: readonly boolean[]): number[] {
  return spatial.map((s) => (s ? 2 ** level : 1));
}

/** Shape of a level: ceil(n / 2^level) on spatial axes. */
export function levelShape(shape: readonly number[], level: number, spatial: readonly boolean[]): number[] {
  const f = footprint(level, spatial);
  return shape.map((n, d) => Math.ceil(n / f[d]!));
}

/**
 * Level `level` of a pyramid, computed straight from `base` (level 0): each
 * element is the mean (or mode) of the base elements of its 2^level block
 * that exist (edges of odd sizes hold fewer). Computing from the base rather
 * than from level - 1 keeps every level's shards independent of each other
 * (parts need no ordering), and is exact for odd sizes, where a mean of means
 * is not, and for modes, which do not compose at all.
 */
export function downsampledSource(
  base: ConvertSource,
  level: number,
  spatial: readonly boolean[],
  method: Reduction,
): ConvertSource {
  const fp = footprint(level, spatial);
  const shape = levelShape(base.shape, level, spatial);
  const reduce = reducer(base.type, base.label, method, "--multiscale");
  return {
    label: `${base.label} level ${level}`,
    shape,
    dataType: base.dataType,
    type: base.type,
    chunkShape: base.chunkShape.map((n, d) => Math.min(n, shape[d]!)),
    fillValue: base.fillValue,
    attributes: {},
    ...(base.dimensionNames && { dimensionNames: base.dimensionNames }),
    ...(base.compression && { compression: base.compression }),
    async read(start, stop) {
      const outShape = start.map((s, d) => stop[d]! - s);
      const out = base.type.allocate(outShape.reduce((a, b) => a * b, 1));
      // Halve the block (its largest extent in base elements first) until one read of the base fits the budget.
      const block = [...outShape];
      while (block.reduce((a, n, d) => a * n * fp[d]!, 1) > BLOCK_ELEMENTS) {
        let widest = -1;
        for (let d = 0; d < block.length; d++)
          if (block[d]! > 1 && (widest < 0 || block[d]! * fp[d]! > block[widest]! * fp[widest]!)) widest = d;
        if (widest < 0) break;
        block[widest] = Math.ceil(block[widest]! / 2);
      }
      for (const sub of boxes(start, stop, block)) {
        const baseStart = sub.start.map((s, d) => s * fp[d]!);
        const baseStop = sub.stop.map((s, d) => Math.min(base.shape[d]!, s * fp[d]!));
        const src = await base.read(baseStart, baseStop);
        const subShape = sub.start.map((s, d) => sub.stop[d]! - s);
        const values = reduce(src, fp, subShape);
        // Copy the block's rows into the output box.
        const rank = outShape.length;
        const inner = subShape[rank - 1]!;
        const strides = outShape.map((_, d) => outShape.slice(d + 1).reduce((a, b) => a * b, 1));
        const target = out as unknown as { set(values: ArrayLike<unknown>, offset: number): void };
        const from = values as unknown as { subarray(begin: number, end: number): ArrayLike<unknown> };
        forEachRow(subShape, (row, index) => {
          let at = sub.start[rank - 1]! - start[rank - 1]!;
          for (let d = 0; d < rank - 1; d++) at += (index[d]! + sub.start[d]! - start[d]!) * strides[d]!;
          target.set(from.subarray(row * inner, row * inner + inner), at);
        });
      }
      return { data: out, shape: outShape };
    },
  };
}

/**
 * Level `level` of an in-memory C-order array of Zarr v3 data type `dataTypeName`: each element the mean (integers
 * rounded to nearest, ties away from zero) or with `method` "mode" the most frequent value of its 2^level block on the
 * `spatial` axes (default: all), blocks at odd edges holding fewer. For arrays larger than memory,
 * `downsampledSource` computes a level box by box. A non-numeric data type is an `UnsupportedError`.
 */
export function downsample(
  array: NdArray,
  dataTypeName: string,
  level: number,
  options: { spatial?: readonly boolean[]; method?: Reduction } = {},
): NdArray {
  if (!Number.isSafeInteger(level) || level < 0) {
    throw new UnsupportedError(`downsample: level ${level} is not a non-negative integer`);
  }
  const spatial = options.spatial ?? array.shape.map(() => true);
  if (spatial.length !== array.shape.length) {
    throw new UnsupportedError(
      `downsample: spatial has ${spatial.length} entries, the array has ${array.shape.length} dimensions`,
    );
  }
  const shape = levelShape(array.shape, level, spatial);
  const reduce = reducer(dataType(dataTypeName), "downsample", options.method ?? "mean", "downsampling");
  return { data: reduce(array, footprint(level, spatial), shape), shape };
}

/**
 * A level must be computable within the read budget: one of its elements is 2^level per spatial axis of base elements.
 */
export function checkFootprint(levels: number, spatial: readonly boolean[]): boolean {
  return footprint(levels, spatial).reduce((a, b) => a * b, 1) <= BLOCK_ELEMENTS;
}

/** Calls `visit(rowIndex, index)` for every row (all dimensions but the last) of `shape`, in C order. */
function forEachRow(shape: readonly number[], visit: (row: number, index: number[]) => void): void {
  const rank = shape.length;
  if (shape.some((n) => n === 0)) return;
  const index = shape.map(() => 0);
  const rows = shape.slice(0, -1).reduce((a, b) => a * b, 1);
  for (let row = 0; row < rows; row++) {
    visit(row, index);
    for (let d = rank - 2; d >= 0; d--) {
      if (++index[d]! < shape[d]!) break;
      index[d] = 0;
    }
  }
}

/**
 * For every source row: its offset in the source and, per element of the row,
 * the output element it falls in (`outRow + lastOut[j]`).
 */
function forEachSourceRow(
  srcShape: readonly number[],
  fp: readonly number[],
  outShape: readonly number[],
  visit: (srcOffset: number, outRow: number, lastOut: Int32Array, length: number) => void,
): void {
  const rank = srcShape.length;
  const last = srcShape[rank - 1]!;
  const lastOut = Int32Array.from({ length: last }, (_, j) => Math.floor(j / fp[rank - 1]!));
  forEachRow(srcShape, (row, index) => {
    let outRow = 0;
    for (let d = 0; d < rank - 1; d++) outRow = outRow * outShape[d]! + Math.floor(index[d]! / fp[d]!);
    visit(row * last, outRow * outShape[rank - 1]!, lastOut, last);
  });
}

type Reduce = (src: NdArray, fp: readonly number[], outShape: readonly number[]) => NdArray["data"];

/** The reduction of `method` for `type`; `purpose` names what asked for it in the error for non-numeric types. */
function reducer(type: DataType, label: string, method: Reduction, purpose: string): Reduce {
  if (type.kind !== "int" && type.kind !== "uint" && type.kind !== "float") {
    throw new UnsupportedError(`${label}: ${purpose} needs a numeric array; ${type.name} has no ${method}`);
  }
  const big = type.name === "int64" || type.name === "uint64";
  if (method === "mode") return (src, fp, outShape) => mode(src, fp, outShape, type.allocate.bind(type));
  if (big) return (src, fp, outShape) => meanBig(src, fp, outShape, type.allocate.bind(type));
  const round = type.kind !== "float";
  return (src, fp, outShape) => meanNumber(src, fp, outShape, type.allocate.bind(type), round);
}

type Allocate = (n: number) => NdArray["data"];

/** Mean; integers round to nearest, ties away from zero (2.5 -> 3, -2.5 -> -3). */
function meanNumber(
  src: NdArray,
  fp: readonly number[],
  outShape: readonly number[],
  allocate: Allocate,
  round: boolean,
): NdArray["data"] {
  const n = outShape.reduce((a, b) => a * b, 1);
  const sums = new Float64Array(n);
  const counts = new Float64Array(n);
  const data = src.data as unknown as Numeric;
  forEachSourceRow(src.shape, fp, outShape, (s, o, lastOut, last) => {
    for (let j = 0; j < last; j++) {
      const at = o + lastOut[j]!;
      sums[at]! += data[s + j]!;
      counts[at]!++;
    }
  });
  const out = allocate(n) as unknown as Numeric;
  for (let i = 0; i < n; i++) {
    const q = sums[i]! / counts[i]!;
    out[i] = round ? Math.sign(q) * Math.round(Math.abs(q)) : q;
  }
  return out as unknown as NdArray["data"];
}

/** Mean of 64-bit integers in bigint arithmetic (exact), rounded as `meanNumber`. */
function meanBig(
  src: NdArray,
  fp: readonly number[],
  outShape: readonly number[],
  allocate: Allocate,
): NdArray["data"] {
  const n = outShape.reduce((a, b) => a * b, 1);
  const sums: bigint[] = new Array(n).fill(0n);
  const counts = new Float64Array(n);
  const data = src.data as unknown as Big;
  forEachSourceRow(src.shape, fp, outShape, (s, o, lastOut, last) => {
    for (let j = 0; j < last; j++) {
      const at = o + lastOut[j]!;
      sums[at] = sums[at]! + data[s + j]!;
      counts[at]!++;
    }
  });
  const out = allocate(n) as unknown as Big;
  for (let i = 0; i < n; i++) {
    const sum = sums[i]!;
    const count = BigInt(counts[i]!);
    const magnitude = ((sum < 0n ? -sum : sum) * 2n + count) / (2n * count);
    out[i] = sum < 0n ? -magnitude : magnitude;
  }
  return out as unknown as NdArray["data"];
}

/** The most frequent value of each block; on a tie, the smallest of the most frequent. */
function mode(src: NdArray, fp: readonly number[], outShape: readonly number[], allocate: Allocate): NdArray["data"] {
  const n = outShape.reduce((a, b) => a * b, 1);
  const data = src.data as unknown as Numeric & { length: number };
  // Group the values by output element (counting sort), then sort each group and take its longest run.
  const starts = new Float64Array(n + 1);
  forEachSourceRow(src.shape, fp, outShape, (_, o, lastOut, last) => {
    for (let j = 0; j < last; j++) starts[o + lastOut[j]! + 1]!++;
  });
  for (let i = 0; i < n; i++) starts[i + 1]! += starts[i]!;
  const fill = Float64Array.from(starts.subarray(0, n));
  const grouped = allocate(data.length) as unknown as Numeric & {
    subarray(a: number, b: number): Numeric & { sort(): unknown };
  };
  forEachSourceRow(src.shape, fp, outShape, (s, o, lastOut, last) => {
    for (let j = 0; j < last; j++) grouped[fill[o + lastOut[j]!]!++] = data[s + j]!;
  });
  const out = allocate(n) as unknown as Numeric;
  for (let i = 0; i < n; i++) {
    const group = grouped.subarray(starts[i]!, starts[i + 1]!);
    group.sort();
    const size = starts[i + 1]! - starts[i]!;
    let best = group[0]!;
    let bestRun = 0;
    for (let j = 0; j < size; ) {
      let k = j + 1;
      while (k < size && group[k] === group[j]) k++;
      if (k - j > bestRun) {
        bestRun = k - j;
        best = group[j]!;
      }
      j = k;
    }
    out[i] = best;
  }
  return out as unknown as NdArray["data"];
}
