import { StoreError } from "./errors.js";
import { showValue } from "./show.js";
import type { LentRange, RangeQuery, WindowQuery } from "./store.js";

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

/**
 * What a store lent for `range` of `key` (`Store.lendRange`), once checked:
 * a source naming its reader and holding plain data only (it crosses to
 * workers), and a window within the one asked for, so no reader allocates
 * or reads beyond it; otherwise a StoreError naming the key and the field.
 */
export function checkLent(key: string, range: WindowQuery, lent: LentRange): LentRange {
  const fail = (what: string): never => {
    throw new StoreError(`lendRange of ${JSON.stringify(key)} lent ${what}.`, { key });
  };
  if (typeof lent !== "object" || lent === null) fail(`${showValue(lent)}, not { source, offset, length }`);
  const { source, offset, length, splittable } = lent;
  if (typeof source !== "object" || source === null || typeof source.reader !== "string")
    fail(`a source without a reader's name: ${showValue(source)}`);
  const notPlain = nonPlainField(source, "source");
  if (notPlain !== undefined) fail(`a source that cannot cross to a worker: ${notPlain} is not plain data`);
  if (!Number.isSafeInteger(offset) || offset < 0) fail(`offset ${showValue(offset)}`);
  if (!Number.isSafeInteger(length) || length < 0 || length > range.length)
    fail(`length ${showValue(length)} for a window of ${range.length} bytes`);
  if (splittable !== undefined && typeof splittable !== "boolean") fail(`splittable ${showValue(splittable)}`);
  return lent;
}

/** The path of the first field of `value` that structured clone would refuse or change (a function, a class), if any. */
function nonPlainField(value: unknown, path: string): string | undefined {
  if (value === null || typeof value !== "object")
    return typeof value === "function" || typeof value === "symbol" ? path : undefined;
  if (ArrayBuffer.isView(value)) return undefined;
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return path;
  for (const [field, inner] of Object.entries(value)) {
    const found = nonPlainField(inner, `${path}.${field}`);
    if (found !== undefined) return found;
  }
  return undefined;
}
