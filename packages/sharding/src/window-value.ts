import { PreconditionFailedError, type RangeQuery, type ReadOptions } from "@zarrkit/core";
import { checkRange, checkRangeInto, checkWindow, rangeBounds, type StoredValue } from "@zarrkit/registry";

/**
 * Bytes [offset, offset + length) of a stored value seen as a value of its
 * own: a nested shard inside an inner chunk reads its index and its chunks
 * with ranged reads of the outer shard, never fetching the inner chunk whole.
 * It keeps the parent's `coalesceGapBytes`: its reads are the parent store's.
 *
 * `version` is the parent's version the window was planned from: every read
 * is conditioned on it, and it is the window's own version, so a reader that
 * cached something about the window learns when the parent was replaced.
 */
export function windowValue(
  parent: StoredValue,
  key: string,
  offset: number,
  length: number,
  version: string | undefined,
): StoredValue {
  const getRange = parent.getRange!;
  const translate = (range: RangeQuery): { offset: number; length: number } => {
    const [start, end] = rangeBounds(checkRange(key, range), length);
    return { offset: offset + start, length: end - start };
  };
  /** The parent's read options: conditioned on the version the window was planned from. */
  const conditioned = (options: ReadOptions): ReadOptions => {
    if (options.ifMatch !== undefined && options.ifMatch !== version) {
      throw new PreconditionFailedError(`${key} changed since version ${options.ifMatch}`, { key });
    }
    return version === undefined ? options : { ...options, ifMatch: version };
  };
  const read = (range: RangeQuery, options: ReadOptions = {}) => getRange(translate(range), conditioned(options));
  const gap = parent.coalesceGapBytes;
  const window: StoredValue = {
    key,
    ...(gap !== undefined && { coalesceGapBytes: gap }),
    get: (options) => read({ offset: 0, length }, options),
    getRange: async (range, options) => read(range, options),
    getRangeWithSize: async (range, options) => {
      const value = await read(range, options);
      return value && { value, size: length, ...(version !== undefined && { version }) };
    },
    size: async () => length,
  };
  const getRangeInto = parent.getRangeInto;
  if (getRangeInto) {
    window.getRangeInto = async (range, target, options = {}) =>
      getRangeInto(translate(checkRangeInto(key, range, target)), target, conditioned(options));
  }
  const lendRange = parent.lendRange;
  if (lendRange) {
    window.lendRange = async (range, options, use) =>
      lendRange(translate(checkWindow(key, range, "lendRange")), conditioned(options ?? {}), use);
  }
  if (parent.recover) window.recover = (options) => parent.recover!(options);
  return window;
}
