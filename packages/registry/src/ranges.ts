import { StoreError } from "./errors.js";
import { showValue } from "./show.js";
import type { RangeQuery, WindowQuery } from "./store.js";

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
 * `range` once checked to be a range at all: `{ offset, length }` or
 * `{ suffixLength }` of non-negative integers; otherwise a StoreError naming
 * the key (a store must refuse it before it reaches a file or a request).
 */
export function checkRange(key: string, range: RangeQuery): RangeQuery {
  if (typeof range !== "object" || range === null) {
    throw new StoreError(`Invalid range for ${JSON.stringify(key)}: { offset, length } or { suffixLength }.`, { key });
  }
  const counts = "suffixLength" in range ? [range.suffixLength] : [range.offset, range.length];
  if (!counts.every((n) => Number.isSafeInteger(n) && n >= 0)) {
    throw new StoreError(
      `Invalid range ${showValue(range)} for ${JSON.stringify(key)}: offsets and lengths are non-negative integers.`,
      { key },
    );
  }
  return range;
}

/** `range` once checked to be a window `{ offset, length }` (`checkRange`); otherwise a StoreError naming the key. */
export function checkWindow(key: string, range: WindowQuery, method: string): WindowQuery {
  if (typeof range !== "object" || range === null || "suffixLength" in range) {
    throw new StoreError(`Invalid range for ${JSON.stringify(key)}: ${method} reads a window { offset, length }.`, {
      key,
    });
  }
  checkRange(key, range);
  return range;
}

/**
 * The arguments of `getRangeInto` once checked: a window (`checkRange`) and a
 * target that can hold its length; otherwise a StoreError naming the key.
 */
export function checkRangeInto(key: string, range: WindowQuery, target: Uint8Array): WindowQuery {
  checkWindow(key, range, "getRangeInto");
  if (!(target instanceof Uint8Array) || target.length < range.length) {
    throw new StoreError(
      `getRangeInto of ${range.length} bytes of ${JSON.stringify(key)}: the target ` +
        `holds ${target instanceof Uint8Array ? target.length : "no"} bytes.`,
      { key },
    );
  }
  return range;
}

/**
 * The `coalesceGapBytes` hint of a store (or of one of its values), checked:
 * undefined when it gives none, a StoreError naming the value when it is not
 * a non-negative integer (a reader must not guess at a broken store's costs).
 */
export function coalesceGapHint(source: { readonly coalesceGapBytes?: number }, key?: string): number | undefined {
  const hint = source.coalesceGapBytes;
  if (hint === undefined || (Number.isSafeInteger(hint) && hint >= 0)) return hint;
  throw new StoreError(`The store's coalesceGapBytes hint must be a non-negative integer, got ${showValue(hint)}`, {
    key,
  });
}
