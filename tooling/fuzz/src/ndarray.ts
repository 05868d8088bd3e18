import { prng } from "@zarrkit/test-utils/noise";
// Reference values for the fuzz targets: typed data of a few data types, and
// the elements a selection picks, computed independently of zarrkit.
import { itemAt } from "./contract.js";

export type NumericDtype = "uint8" | "int16" | "int32" | "float32" | "float64" | "uint64";
export type Numeric = Uint8Array | Int16Array | Int32Array | Float32Array | Float64Array | BigUint64Array;

const CTORS = {
  uint8: Uint8Array,
  int16: Int16Array,
  int32: Int32Array,
  float32: Float32Array,
  float64: Float64Array,
  uint64: BigUint64Array,
} as const;

export function allocate(dtype: NumericDtype, n: number): Numeric {
  return new CTORS[dtype](n);
}

export function randomValue(dtype: NumericDtype, next: () => number): number | bigint {
  const r = next();
  switch (dtype) {
    case "uint8":
      return Math.floor(r * 256);
    case "int16":
      return Math.floor(r * 65536) - 32768;
    case "int32":
      return Math.floor(r * 2 ** 32) - 2 ** 31;
    case "float32":
      return Math.fround((r - 0.5) * 1e6);
    case "float64":
      return (r - 0.5) * 1e12;
    case "uint64":
      return BigInt(Math.floor(r * 2 ** 32)) * 2n ** 32n + BigInt(Math.floor(next() * 2 ** 32));
  }
}

export const product = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

/** C-order strides in elements. */
export function strides(shape: readonly number[]): number[] {
  const out = new Array<number>(shape.length);
  shape.reduceRight((step, n, d) => {
    out[d] = step;
    return step * n;
  }, 1);
  return out;
}

/**
 * Random data of `shape` where each chunk (of `chunk` shape) is, with
 * probability `emptyChance`, all `fill` (so the writer leaves it out).
 */
export function chunkedData(
  dtype: NumericDtype,
  shape: readonly number[],
  chunk: readonly number[],
  fill: number,
  seed: number,
  emptyChance: number,
): Numeric {
  const next = prng(seed);
  const n = product(shape);
  const out = allocate(dtype, n) as unknown as { [i: number]: number | bigint; length: number };
  const st = strides(shape);
  const grid = shape.map((s, d) => Math.ceil(s / itemAt(chunk, d)));
  const empty = new Set<number>();
  for (let c = 0; c < product(grid); c++) if (next() < emptyChance) empty.add(c);
  const gst = strides(grid);
  const dims = shape.map((size, d) => ({
    size,
    stride: itemAt(st, d),
    chunk: itemAt(chunk, d),
    gridStride: itemAt(gst, d),
  }));
  for (let i = 0; i < n; i++) {
    let c = 0;
    for (const dim of dims) c += Math.floor((Math.floor(i / dim.stride) % dim.size) / dim.chunk) * dim.gridStride;
    out[i] = empty.has(c) ? (dtype === "uint64" ? BigInt(fill) : fill) : randomValue(dtype, next);
  }
  return out as unknown as Numeric;
}

export type SelDim = { index: number } | { start: number | null; stop: number | null; step: number };

/** Indices along one dimension a selection picks (Python semantics; indices valid by construction). */
function pick(dim: SelDim, size: number): number[] {
  if ("index" in dim) return [dim.index < 0 ? dim.index + size : dim.index];
  const clamp = (v: number) => Math.min(Math.max(v < 0 ? v + size : v, 0), size);
  const start = clamp(dim.start ?? 0);
  const stop = Math.max(start, clamp(dim.stop ?? size));
  const out: number[] = [];
  for (let i = start; i < stop; i += dim.step) out.push(i);
  return out;
}

/** The reference result of selecting `sel` from `data` of `shape`. */
export function select(
  data: Numeric,
  shape: readonly number[],
  sel: readonly SelDim[],
): { data: Numeric; shape: number[] } {
  const st = strides(shape);
  const dims = shape.map((size, d) => {
    const s = sel[d];
    return {
      picks: pick(s ?? { start: null, stop: null, step: 1 }, size),
      dropped: s !== undefined && "index" in s,
      stride: itemAt(st, d),
    };
  });
  const outShape = dims.filter((dim) => !dim.dropped).map((dim) => dim.picks.length);
  const n = product(dims.map((dim) => dim.picks.length));
  const Ctor = data.constructor as new (n: number) => Numeric;
  const out = new Ctor(n) as unknown as { [i: number]: number | bigint };
  const src = data as unknown as ArrayLike<number | bigint>;
  // Visits the picked elements in C order (the last dimension fastest).
  let i = 0;
  const visit = (d: number, at: number): void => {
    const dim = dims[d];
    if (!dim) {
      out[i++] = itemAt(src, at);
      return;
    }
    for (const p of dim.picks) visit(d + 1, at + p * dim.stride);
  };
  visit(0, 0);
  return { data: out as unknown as Numeric, shape: outShape };
}
