/**
 * A value read from a file or passed by a caller, as error messages show it:
 * JSON, with bigints (integers past 2^53 in zarr.json) as their digits, cut
 * after `max` characters (hostile input can be arbitrarily long). Never
 * throws (JSON.stringify alone throws TypeError on a bigint or a cycle).
 */
export function showValue(value: unknown, max = Number.POSITIVE_INFINITY): string {
  let text: string;
  try {
    text = JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? v.toString() : v)) ?? String(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
