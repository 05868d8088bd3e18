import { CorruptDataError } from "@zarrkit/registry";
import { gunzipSync, gzipSync, unzlibSync } from "fflate";
import type { ShardingEncoding } from "./spec.js";

function isZlib(bytes: Uint8Array): boolean {
  // RFC 1950 header: method 8 (deflate) and a check value making CMF*256+FLG a multiple of 31.
  return bytes.length >= 2 && (bytes[0] & 0x0f) === 8 && ((bytes[0] << 8) | bytes[1]) % 31 === 0;
}

/**
 * Decode bytes stored with `encoding`. "gzip" also accepts zlib-wrapped
 * deflate, which neuroglancer-scripts writes under that name.
 */
export function decodeBytes(bytes: Uint8Array, encoding: ShardingEncoding, what: string, key: string): Uint8Array {
  if (encoding === "raw") return bytes;
  const gzip = bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  if (!gzip && !isZlib(bytes)) {
    throw new CorruptDataError(`${what} in ${key} is neither gzip nor zlib data`, { key });
  }
  try {
    return gzip ? gunzipSync(bytes) : unzlibSync(bytes);
  } catch (cause) {
    throw new CorruptDataError(`${what} in ${key} failed to decompress: ${(cause as Error).message}`, { key, cause });
  }
}

/** Encode for writing: real gzip (not zlib) at level 9 with mtime 0, as tensorstore writes, so output is deterministic. */
export function encodeBytes(bytes: Uint8Array, encoding: ShardingEncoding): Uint8Array {
  return encoding === "raw" ? bytes : gzipSync(bytes, { level: 9, mtime: 0 });
}
