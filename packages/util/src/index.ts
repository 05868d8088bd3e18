/**
 * Small building blocks zarrkit's packages share, one concept per module:
 * `LruCache` (a cache bounded by a cost), `KeyedLock` (per-key serialisation
 * within a process), `coalesceRanges` (byte ranges merged into requests) and
 * `concatBytes`.
 */
export { type ByteRange, coalesceRanges, type RangeGroup } from "./coalesce.js";
export { concatBytes } from "./concat-bytes.js";
export { KeyedLock } from "./keyed-lock.js";
export { LruCache } from "./lru-cache.js";
