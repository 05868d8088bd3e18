/**
 * Narrow binary floating-point formats (bfloat16, the float8, float6 and
 * float4 families of the zarr-extensions registry), held in memory as
 * numbers. Conversions follow ml_dtypes (the registry's reference): round to
 * nearest, ties to even, from the exact value; what happens past the largest
 * finite value depends on the format's `special` values (see `Special`).
 */

/**
 * How a format spends its special encodings:
 * - "ieee": the all-ones exponent holds +-infinity (mantissa 0) and NaN; overflow rounds to infinity.
 * - "fn": no infinity; only all-ones exponent and mantissa is NaN (float8_e4m3fn); overflow and infinity become NaN.
 * - "fnuz": no infinity, no negative zero; NaN is the sign bit alone (0x80); overflow and infinity become NaN.
 * - "finite": neither infinity nor NaN (float6, float4); overflow and infinity saturate to +-max, NaN has no encoding.
 */
export type Special = "ieee" | "fn" | "fnuz" | "finite";

/** A sign bit, `exponentBits` exponent bits with `bias`, and `mantissaBits` fraction bits, with subnormals. */
export interface MinifloatFormat {
  readonly name: string;
  readonly exponentBits: number;
  readonly mantissaBits: number;
  readonly bias: number;
  readonly special: Special;
  /** The bit pattern written for NaN (a positive quiet NaN, as ml_dtypes writes it); undefined for "finite". */
  readonly nanBits: number | undefined;
  /** The largest finite value. */
  readonly max: number;
  /** Bits in an encoding: 1 + exponentBits + mantissaBits. */
  readonly width: number;
}

function format(
  name: string,
  exponentBits: number,
  mantissaBits: number,
  bias: number,
  special: Special,
): MinifloatFormat {
  const width = 1 + exponentBits + mantissaBits;
  const topExponent = 2 ** exponentBits - 1;
  const fraction = 2 ** mantissaBits;
  // Largest exponent field and mantissa a finite value may use.
  const maxExponent = special === "ieee" ? topExponent - 1 : topExponent;
  const maxMantissa = special === "fn" ? fraction - 2 : fraction - 1;
  const max = (1 + maxMantissa / fraction) * 2 ** (maxExponent - bias);
  const nanBits =
    special === "ieee"
      ? (topExponent << mantissaBits) | (fraction >> 1)
      : special === "fn"
        ? (topExponent << mantissaBits) | (fraction - 1)
        : special === "fnuz"
          ? 1 << (width - 1)
          : undefined;
  return { name, exponentBits, mantissaBits, bias, special, nanBits, max, width };
}

/** Every narrow float format zarrkit reads and writes, by data type name. */
export const MINIFLOAT_FORMATS: ReadonlyMap<string, MinifloatFormat> = new Map(
  [
    format("bfloat16", 8, 7, 127, "ieee"),
    format("float8_e3m4", 3, 4, 3, "ieee"),
    format("float8_e4m3", 4, 3, 7, "ieee"),
    format("float8_e4m3fn", 4, 3, 7, "fn"),
    format("float8_e4m3fnuz", 4, 3, 8, "fnuz"),
    format("float8_e4m3b11fnuz", 4, 3, 11, "fnuz"),
    format("float8_e5m2", 5, 2, 15, "ieee"),
    format("float8_e5m2fnuz", 5, 2, 16, "fnuz"),
    format("float6_e2m3fn", 2, 3, 1, "finite"),
    format("float6_e3m2fn", 3, 2, 3, "finite"),
    format("float4_e2m1fn", 2, 1, 1, "finite"),
  ].map((f) => [f.name, f]),
);

/** The number the low `format.width` bits of `bits` stand for (higher bits are ignored, as the registry says). */
export function minifloatToNumber(format: MinifloatFormat, bits: number): number {
  const { exponentBits, mantissaBits, bias, special, width } = format;
  const b = bits & ((1 << width) - 1);
  const negative = (b >> (width - 1)) & 1;
  if (special === "fnuz" && b === 1 << (width - 1)) return Number.NaN;
  const exponent = (b >> mantissaBits) & ((1 << exponentBits) - 1);
  const mantissa = b & ((1 << mantissaBits) - 1);
  const top = (1 << exponentBits) - 1;
  if (exponent === top && special === "ieee") return mantissa ? Number.NaN : negative ? -Infinity : Infinity;
  if (exponent === top && special === "fn" && mantissa === (1 << mantissaBits) - 1) return Number.NaN;
  const magnitude =
    exponent === 0
      ? mantissa * 2 ** (1 - bias - mantissaBits)
      : (1 + mantissa / 2 ** mantissaBits) * 2 ** (exponent - bias);
  return negative ? -magnitude : magnitude;
}

const view = new DataView(new ArrayBuffer(8));

/** 2^k for the exponents these formats meet (k from -160 to 1100): a table, as Math.pow is slow per element. */
const POW2_LOW = -160;
const POW2 = Float64Array.from({ length: 1261 }, (_, i) => 2 ** (i + POW2_LOW));
const pow2 = (k: number) => POW2[k - POW2_LOW]!;

/** The exponent of `a` (finite, > 0): 2^e <= a < 2^(e+1), exactly (Math.log2 rounds). */
function exponentOf(a: number): number {
  view.setFloat64(0, a);
  const field = (view.getUint32(0) >>> 20) & 0x7ff;
  if (field !== 0) return field - 1023;
  // A float64 subnormal: scaled into the normal range first.
  view.setFloat64(0, a * 2 ** 64);
  return ((view.getUint32(0) >>> 20) & 0x7ff) - 1023 - 64;
}

/** `x` rounded to the nearest integer, ties to even. */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const rest = x - floor;
  if (rest > 0.5 || (rest === 0.5 && floor % 2 !== 0)) return floor + 1;
  return floor;
}

/**
 * |value| rounded to nearest, ties to even, with the format's precision but
 * an unbounded exponent: above `format.max` when the value overflows.
 */
function roundedMagnitude(format: MinifloatFormat, value: number): number {
  const a = Math.abs(value);
  if (a === 0 || a === Number.POSITIVE_INFINITY) return a;
  // The spacing of representable values around `a`: 2^(e - mantissaBits), no finer than the subnormals'.
  const exponent = Math.max(exponentOf(a), 1 - format.bias);
  const quantum = pow2(exponent - format.mantissaBits);
  return roundHalfEven(a / quantum) * quantum; // both steps exact: a power-of-two scaling and an integer
}

/** Whether `value` (not NaN) rounds past the format's largest finite value. */
export function overflowsMinifloat(format: MinifloatFormat, value: number): boolean {
  return roundedMagnitude(format, value) > format.max;
}

/**
 * The encoding of `value` nearest it (ties to even), or undefined for NaN in
 * a format without NaN. Past the largest finite value (after rounding):
 * infinity ("ieee"), NaN ("fn", "fnuz") or the largest value ("finite").
 * "fnuz" has no negative zero: negative values that round to zero give 0.
 */
export function numberToMinifloat(format: MinifloatFormat, value: number): number | undefined {
  const { special, width, max } = format;
  if (Number.isNaN(value)) return format.nanBits;
  const sign = value < 0 || Object.is(value, -0) ? 1 << (width - 1) : 0;
  const rounded = roundedMagnitude(format, value);
  if (rounded > max) {
    if (special === "ieee") return sign | (((1 << format.exponentBits) - 1) << format.mantissaBits);
    if (special === "finite") return sign | encodeMagnitude(format, max);
    return special === "fn" ? sign | format.nanBits! : format.nanBits; // ml_dtypes keeps the sign where NaN has one
  }
  if (rounded === 0) return special === "fnuz" ? 0 : sign;
  return sign | encodeMagnitude(format, rounded);
}

/** The bits (without sign) of `a`, a positive finite value the format holds exactly. */
function encodeMagnitude(format: MinifloatFormat, a: number): number {
  const { mantissaBits, bias } = format;
  const exponent = exponentOf(a);
  if (exponent < 1 - bias) return a / pow2(1 - bias - mantissaBits); // subnormal: the mantissa alone
  return ((exponent + bias) << mantissaBits) | ((a / pow2(exponent) - 1) * pow2(mantissaBits));
}
