import { inflateChecked } from "@zarrkit/codecs/inflate";
import { ChecksumError, CorruptDataError } from "@zarrkit/registry";
import { gzipSync } from "fflate";
import type { ShardingEncoding } from "./spec.js";

/**
 * Decode bytes stored with `encoding`, inflating at most `maxBytes`. "gzip"
 * also accepts zlib-wrapped deflate, which neuroglancer-scripts writes under
 * that name. The gzip CRC-32 and ISIZE and the zlib Adler-32 are checked
 * (`inflateChecked` of @zarrkit/codecs): corrupt data raises `ChecksumError`
 * or `CorruptDataError` naming `key`, never comes back changed.
 */
export function decodeBytes(
  bytes: Uint8Array,
  encoding: ShardingEncoding,
  what: string,
  key: string,
  maxBytes: number,
): Uint8Array {
  if (encoding === "raw") {
    if (bytes.length > maxBytes) {
      throw new CorruptDataError(`${what} in ${key} has ${bytes.length} bytes, more than the limit of ${maxBytes}`, {
        key,
      });
    }
    return bytes;
  }
  try {
    return inflateChecked(bytes, { maxBytes });
  } catch (error) {
    if (error instanceof ChecksumError)
      throw new ChecksumError(`${what} in ${key}: ${error.message}`, { key, cause: error });
    if (error instanceof CorruptDataError) {
      throw new CorruptDataError(`${what} in ${key} failed to decompress: ${error.message}`, { key, cause: error });
    }
    throw error;
  }
}

/**
 * Encode for writing: real gzip (not zlib) at level 9 with mtime 0, as tensorstore writes, so output is deterministic.
 */
export function encodeBytes(bytes: Uint8Array, encoding: ShardingEncoding): Uint8Array {
  return encoding === "raw" ? bytes : gzipSync(bytes, { level: 9, mtime: 0 });
}
