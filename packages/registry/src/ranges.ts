import { StoreError } from "./errors.js";
import type { RangeQuery } from "./store.js";

/**
 * Resolve a range against a value of `size` bytes: [start, end), clipped to
 * the value, as every store's ranged read must (a range past the end is cut
 * short, a suffix longer than the value is the whole value).
 */
export function rangeBounds(range: RangeQuery, size: number): [number, number] {
  if ("suffixLength" in range) return [Math.max(0, size - range.suffixLength), size];
  const start = Math.min(range.offset, size);
  return [start, Math.min(size, range.offset + range.length)];
}

/**
 * The `coalesceGapBytes` hint of a store (or of one of its values), checked:
 * undefined when it gives none, a StoreError naming the value when it is not
 * a non-negative integer (a reader must not guess at a broken store's costs).
 */
export function coalesceGapHint(source: { readonly coalesceGapBytes?: number }, key?: string): number | undefined {
  const hint = source.coalesceGapBytes;
  if (hint === undefined || (Number.isSafeInteger(hint) && hint >= 0)) return hint;
  throw new StoreError(`The store's coalesceGapBytes hint must be a non-negative integer, got ${JSON.stringify(hint)}`, { key });
}
