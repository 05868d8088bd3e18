import { CorruptDataError, InvalidOptionError } from "@zarrkit/registry";
import type { ByteRange } from "@zarrkit/util";
import type { ShardingEncoding } from "./spec.js";

/** Default cap on one chunk's stored and decoded bytes: generous, but far from what one read or allocation can take. */
export const DEFAULT_MAX_CHUNK_BYTES = 256 * 2 ** 20;
/**
 * Default cap on the entries of one minishard index (24 bytes each decoded: 24 MiB). Real indexes hold a few thousand.
 */
export const DEFAULT_MAX_MINISHARD_INDEX_ENTRIES = 2 ** 20;

export interface ShardLimits {
  /** Most bytes one chunk may occupy in the file, and decode to. */
  maxChunkBytes: number;
  /** Most bytes one decoded minishard index may have. */
  maxIndexBytes: number;
  /** Most bytes one minishard index may occupy in the file (gzip of incompressible data grows a little). */
  maxStoredIndexBytes: number;
}

export interface ShardLimitOptions {
  /**
   * A chunk whose byte range in the shard file, or whose decoded size, exceeds
   * this is refused with CorruptDataError before anything is read or inflated.
   * Default 256 MiB.
   */
  maxChunkBytes?: number;
  /**
   * A minishard index of more entries is refused with CorruptDataError; its
   * stored range is checked against this bound before it is read. Default 2^20
   * (24 MiB decoded).
   */
  maxMinishardIndexEntries?: number;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new InvalidOptionError(`${name} must be a positive integer, got ${String(value)}`, { field: name });
  }
  return value;
}

export function shardLimits(options: ShardLimitOptions = {}): ShardLimits {
  const maxChunkBytes = positive(options.maxChunkBytes, DEFAULT_MAX_CHUNK_BYTES, "maxChunkBytes");
  const entries = positive(
    options.maxMinishardIndexEntries,
    DEFAULT_MAX_MINISHARD_INDEX_ENTRIES,
    "maxMinishardIndexEntries",
  );
  const maxIndexBytes = 24 * entries;
  return { maxChunkBytes, maxIndexBytes, maxStoredIndexBytes: maxIndexBytes + Math.ceil(maxIndexBytes / 1024) + 64 };
}

/** Refuse a range an index claims before reading it: a corrupt index must not make a store read gigabytes. */
export function checkRangeSize(range: ByteRange, limit: number, what: string, key: string, option: string): void {
  if (range.length > limit) {
    throw new CorruptDataError(
      `${what} at bytes [${range.offset}, ${range.offset + range.length}) of ${key} is ${range.length} bytes, more ` +
        `than the limit of ${limit} (${option})`,
      { key },
    );
  }
}

/** The stored-size bound of a minishard index in the given encoding. */
export function storedIndexLimit(limits: ShardLimits, encoding: ShardingEncoding): number {
  return encoding === "raw" ? limits.maxIndexBytes : limits.maxStoredIndexBytes;
}
