/**
 * float8_e8m0fnu, the OCP MX scale format: eight exponent bits with bias
 * 127 and nothing else, so every value is a power of two from 2^-127 to
 * 2^127; 0xff is NaN, and there is no zero, sign or infinity. Conversions
 * follow ml_dtypes (what tensorstore writes), which rounds a significand of
 * 1.5 or more up (not to even), and below 2^-126 gives 2^-126 for anything
 * above 2^-127 and 2^-127 for the rest.
 */

export const E8M0_NAN = 0xff;
const view = new DataView(new ArrayBuffer(8));

/** The number stored as `bits`. */
export function e8m0ToNumber(bits: number): number {
  const b = bits & 0xff;
  return b === E8M0_NAN ? Number.NaN : 2 ** (b - 127);
}

/**
 * The encoding of `value`; undefined for values it has no encoding for (zero,
 * negatives, infinities). NaN and values rounding past 2^127 are NaN.
 */
export function numberToE8m0(value: number): number | undefined {
  if (Number.isNaN(value)) return E8M0_NAN;
  if (!(value > 0) || value === Number.POSITIVE_INFINITY) return undefined;
  if (value < 2 ** -126) return value > 2 ** -127 ? 1 : 0;
  view.setFloat64(0, value);
  const exponent = ((view.getUint32(0) >>> 20) & 0x7ff) - 1023; // value is a normal float64 here
  const roundsUp = value / 2 ** exponent >= 1.5;
  const biased = exponent + 127 + (roundsUp ? 1 : 0);
  return biased > 254 ? E8M0_NAN : biased;
}
