import { type RangeQuery, StoreError } from "@zarrkit/registry";

/** The Range header for `range`, or undefined for an empty range (which HTTP cannot express). */
export function rangeHeader(key: string, range: RangeQuery): string | undefined {
  const isSuffix = "suffixLength" in range;
  const length = isSuffix ? range.suffixLength : range.length;
  const numbers = isSuffix ? [length] : [range.offset, length];
  if (!numbers.every((n) => Number.isSafeInteger(n) && n >= 0)) {
    throw new StoreError(`Invalid range ${JSON.stringify(range)} for ${key}: offsets and lengths are non-negative integers.`, { key });
  }
  if (length === 0) return undefined;
  return isSuffix ? `bytes=-${length}` : `bytes=${range.offset}-${range.offset + length - 1}`;
}

/** The range out of a whole value, for servers that answer a ranged GET with 200 and everything. */
export function sliceLocally(value: Uint8Array, range: RangeQuery): Uint8Array {
  const size = value.byteLength;
  if ("suffixLength" in range) return range.suffixLength >= size ? value : value.slice(size - range.suffixLength);
  // A copy, so the rest of the value can be garbage-collected.
  return range.offset === 0 && range.length >= size ? value : value.slice(range.offset, range.offset + range.length);
}

/** Check that a 206 answer holds the bytes that were asked for. */
/** Throws unless the Content-Range matches what was asked; returns the total size it announces, if any. */
export function checkContentRange(key: string, range: RangeQuery, header: string | null, received: number): number | undefined {
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(header ?? "");
  const start = Number(match?.[1]);
  const end = Number(match?.[2]);
  const total = Number(match?.[3]);
  let expected: boolean;
  if ("suffixLength" in range) {
    expected = end === total - 1 && end - start + 1 === Math.min(range.suffixLength, total);
  } else {
    expected = start === range.offset && end < range.offset + range.length;
  }
  if (!match || !expected || end - start + 1 !== received) {
    throw new StoreError(
      `S3 answered a ranged GET of ${key} with Content-Range ${JSON.stringify(header)} and ${received} bytes, which does not match ${JSON.stringify(range)}.`,
      { key },
    );
  }
  return match![3] === "*" ? undefined : total;
}
