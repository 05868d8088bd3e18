import { checkRange, type RangeQuery, rangeBounds, StoreError } from "@zarrkit/registry";
import { contentRangeProblem, contentRangeTotal, rangeHeader } from "@zarrkit/http";

/** The Range header for `range`, or undefined for an empty range (which HTTP cannot express). */
export function s3RangeHeader(key: string, range: RangeQuery): string | undefined {
  checkRange(key, range);
  const length = "suffixLength" in range ? range.suffixLength : range.length;
  return length === 0 ? undefined : rangeHeader(range);
}

/** The range out of a whole value, for servers that answer a ranged GET with 200 and everything. */
export function sliceLocally(value: Uint8Array, range: RangeQuery): Uint8Array {
  const [start, end] = rangeBounds(range, value.byteLength);
  // A copy, so the rest of the value can be garbage-collected.
  return start === 0 && end === value.byteLength ? value : value.slice(start, end);
}

/**
 * Check that a 206 answer holds the bytes that were asked for (see
 * `contentRangeProblem`): throws unless its Content-Range matches the request;
 * returns the total size it announces, if any.
 */
export function checkContentRange(
  key: string,
  range: RangeQuery,
  header: string | null,
  received: number,
): number | undefined {
  if (contentRangeProblem(header, range, received) !== undefined) {
    throw new StoreError(
      `S3 answered a ranged GET of ${key} with Content-Range ${JSON.stringify(header)} and ${received} bytes, which ` +
        `does not match ${JSON.stringify(range)}.`,
      { key },
    );
  }
  return contentRangeTotal(header);
}
