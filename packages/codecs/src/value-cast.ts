// Casting numeric arrays by value, with the rounding and out-of-range rules of the `cast_value` codec.
import type { NumericArray } from "@zarrkit/registry";
import type { NumericType } from "./numeric-types.js";

export const ROUNDINGS = [
  "nearest-even",
  "towards-zero",
  "towards-positive",
  "towards-negative",
  "nearest-away",
] as const;
export type Rounding = (typeof ROUNDINGS)[number];
export const OUT_OF_RANGE = ["error", "clamp", "wrap"] as const;
export type OutOfRange = (typeof OUT_OF_RANGE)[number];

export interface CastRules {
  readonly rounding: Rounding;
  readonly outOfRange: OutOfRange;
}

/** Why element `index` cannot be cast; the caller throws it as its own typed error. */
export type Refusal = (index: number, why: string) => never;

function nearestEven(x: number): number {
  const floor = Math.floor(x);
  const rest = x - floor;
  return rest > 0.5 || (rest === 0.5 && floor % 2 !== 0) ? floor + 1 : floor;
}

function nearestAway(x: number): number {
  const t = Math.trunc(x);
  return Math.abs(x - t) >= 0.5 ? t + Math.sign(x) : t;
}

const ROUND: Record<Rounding, (x: number) => number> = {
  "nearest-even": nearestEven,
  "towards-zero": Math.trunc,
  "towards-positive": Math.ceil,
  "towards-negative": Math.floor,
  "nearest-away": nearestAway,
};

const FLOAT32_MAX = 3.4028234663852886e38;

function integerRange(type: NumericType): [bigint, bigint] {
  const bits = BigInt(type.byteSize * 8);
  return type.kind === "int" ? [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n] : [0n, (1n << bits) - 1n];
}

/**
 * `values` (of `from`) cast to `to` by value: floats to integers rounded by
 * `rules.rounding`, integers to floats to nearest, and anything outside the
 * target's range (±infinity included; for float32, finite values that round
 * past its largest) refused, clamped or wrapped modulo 2^bits by `rules.outOfRange`.
 * NaN into an integer type is always refused.
 */
export function castValues(
  values: NumericArray,
  from: NumericType,
  to: NumericType,
  rules: CastRules,
  refuse: Refusal,
): NumericArray {
  const n = values.length;
  const out = to.allocate(n) as NumericArray;
  const read = from.bigint ? (i: number) => (values as BigInt64Array)[i]! : (i: number) => (values as Float64Array)[i]!;
  if (to.kind === "float") {
    const o = out as Float64Array;
    for (let i = 0; i < n; i++) {
      const x = Number(read(i)); // integers round to the nearest double here (int64 beyond 2^53)
      if (to.byteSize === 8 || !Number.isFinite(x) || Number.isFinite(Math.fround(x))) o[i] = x;
      else if (rules.outOfRange === "clamp") o[i] = Math.sign(x) * FLOAT32_MAX;
      else refuse(i, `${x} is beyond the range of float32`);
    }
    return out;
  }
  const [lo, hi] = integerRange(to);
  const span = hi - lo + 1n;
  const round = ROUND[rules.rounding];
  const o = out as unknown as { [i: number]: number | bigint };
  for (let i = 0; i < n; i++) {
    const v = read(i);
    let k: bigint;
    if (typeof v === "bigint") k = v;
    else if (Number.isNaN(v)) return refuse(i, `NaN has no value in ${to.name}`);
    else if (!Number.isFinite(v)) {
      if (rules.outOfRange !== "clamp") return refuse(i, `${v} is outside the range of ${to.name}`);
      k = v > 0 ? hi : lo;
    } else k = BigInt(round(v));
    if (k < lo || k > hi) {
      if (rules.outOfRange === "error") return refuse(i, `${k} is outside [${lo}, ${hi}] of ${to.name}`);
      k = rules.outOfRange === "clamp" ? (k < lo ? lo : hi) : ((((k - lo) % span) + span) % span) + lo;
    }
    o[i] = to.bigint ? k : Number(k);
  }
  return out;
}
