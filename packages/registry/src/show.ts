/**
 * A value read from a file or passed by a caller, as error messages show it:
 * JSON, with bigints (integers past 2^53 in zarr.json) as their digits.
 * Never throws (JSON.stringify alone throws TypeError on a bigint or a cycle).
 */
export function showValue(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? v.toString() : v)) ?? String(value);
  } catch {
    return String(value);
  }
}
