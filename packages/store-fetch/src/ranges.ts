import { type RangeQuery, rangeBounds } from "@zarrkit/registry";

// Ranges served from a whole body. The Range and Content-Range headers are in @zarrkit/http.

/** Slice `range` out of a whole value, clipping to its end, as a copy. */
export function sliceRange(value: Uint8Array, range: RangeQuery): Uint8Array {
  return value.slice(...rangeBounds(range, value.length));
}

/** Whether `range` has bytes in a value of `size` bytes: a 416 for such a range is the server's mistake. */
export function overlaps(range: RangeQuery, size: number): boolean {
  return "suffixLength" in range ? size > 0 : range.offset < size;
}
