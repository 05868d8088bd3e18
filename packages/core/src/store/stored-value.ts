import { checkLent, rangeBounds, type Store, type StoredValue } from "@zarrkit/registry";

/** One key of a store, with exactly the capabilities (and the coalescing hint) the store has. */
export function storedValue(store: Store, key: string): StoredValue {
  const gap = store.coalesceGapBytes;
  const value: StoredValue = {
    key,
    ...(gap !== undefined && { coalesceGapBytes: gap }),
    get: (options) => store.get(key, options),
  };
  if (store.getRange) value.getRange = (range, options) => store.getRange!(key, range, options);
  if (store.getRangeWithSize) value.getRangeWithSize = (range, options) => store.getRangeWithSize!(key, range, options);
  if (store.getRangeInto)
    value.getRangeInto = (range, target, options) => store.getRangeInto!(key, range, target, options);
  // Every reader lends through here: what a store lends is checked once, before any worker reads or allocates for it.
  if (store.lendRange)
    value.lendRange = (range, options, use) =>
      store.lendRange!(key, range, options, async (lent) => use(lent && checkLent(key, range, lent)));
  if (store.getVersioned) value.getVersioned = (options) => store.getVersioned!(key, options);
  if (store.size) value.size = (options) => store.size!(key, options);
  if (store.set) value.set = (bytes, options) => store.set!(key, bytes, options);
  if (store.setParts) value.setParts = (parts, options) => store.setParts!(key, parts, options);
  if (store.delete) value.delete = (options) => store.delete!(key, options);
  if (store.append) value.append = (bytes, options) => store.append!(key, bytes, options);
  if (store.setRange) value.setRange = (offset, bytes, options) => store.setRange!(key, offset, bytes, options);
  if (store.truncate) value.truncate = (length, options) => store.truncate!(key, length, options);
  if (store.recover) value.recover = (options) => store.recover!(key, options);
  return value;
}

/**
 * Bytes already in memory seen as a stored value, so partial decoders and
 * encoders run unchanged on, e.g., a shard nested inside another shard.
 * Writes replace the held bytes; `current()` returns them.
 */
export function bytesValue(
  key: string,
  initial: Uint8Array | undefined,
): StoredValue & {
  /** The bytes held now (undefined once deleted). */
  current(): Uint8Array | undefined;
} {
  let bytes = initial;
  return {
    key,
    current: () => bytes,
    get: async () => bytes,
    getRange: async (range) => {
      if (!bytes) return undefined;
      const [start, end] = rangeBounds(range, bytes.length);
      return bytes.subarray(start, end);
    },
    getRangeWithSize: async (range) => {
      if (!bytes) return undefined;
      const [start, end] = rangeBounds(range, bytes.length);
      return { value: bytes.subarray(start, end), size: bytes.length };
    },
    size: async () => bytes?.length,
    set: async (value) => {
      bytes = value;
    },
    delete: async () => {
      bytes = undefined;
    },
  };
}
