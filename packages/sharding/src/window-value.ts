import type { RangeQuery, StoredValue } from "@zarrkit/core";

/**
 * Bytes [offset, offset + length) of a stored value seen as a value of its
 * own: a nested shard inside an inner chunk reads its index and its chunks
 * with ranged reads of the outer shard, never fetching the inner chunk whole.
 * It keeps the parent's `coalesceGapBytes`: its reads are the parent store's.
 */
export function windowValue(parent: StoredValue, key: string, offset: number, length: number): StoredValue {
  const getRange = parent.getRange!;
  const translate = (range: RangeQuery): { offset: number; length: number } => {
    if ("suffixLength" in range) {
      const n = Math.min(range.suffixLength, length);
      return { offset: offset + length - n, length: n };
    }
    const start = Math.min(range.offset, length);
    return { offset: offset + start, length: Math.min(range.length, length - start) };
  };
  const gap = parent.coalesceGapBytes;
  return {
    key,
    ...(gap !== undefined && { coalesceGapBytes: gap }),
    get: (options) => getRange({ offset, length }, options),
    getRange: (range, options) => getRange(translate(range), options),
    getRangeWithSize: async (range, options) => {
      const value = await getRange(translate(range), options);
      return value && { value, size: length };
    },
    size: async () => length,
  };
}
