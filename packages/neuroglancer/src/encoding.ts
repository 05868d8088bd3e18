import { ChecksumError, concatBytes, CorruptDataError } from "@zarrkit/registry";
import { gzipSync, Inflate } from "fflate";
import { adler32, crc32 } from "./crc.js";
import type { ShardingEncoding } from "./spec.js";

/** Deflate cannot expand data more than 1032:1 (a 258-byte match in 2 bits). */
export const MAX_DEFLATE_RATIO = 1032;

function isZlib(cmf: number, flg: number): boolean {
  // RFC 1950 header: method 8 (deflate) and a check value making CMF*256+FLG a multiple of 31.
  return (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0;
}

/** The 32-bit unsigned integer at `at`; `at + 4` must be within `data`. */
function u32(data: Uint8Array, at: number, littleEndian: boolean): number {
  return new DataView(data.buffer, data.byteOffset + at, 4).getUint32(0, littleEndian);
}

const hex = (value: number) => `0x${value.toString(16).padStart(8, "0")}`;

/** Where the deflate data of the gzip member at the start of `data` begins (RFC 1952 section 2.3), or why it cannot. */
function gzipBodyStart(data: Uint8Array): number | string {
  if (data.length < 18) return `${data.length} bytes is too short for gzip (at least 18)`;
  if (data[2] !== 8) return `unknown gzip compression method ${data[2]}`;
  // Bytes 3, 10 and 11 are within the 18 checked above.
  const flags = data[3]!;
  if (flags & 0xe0) return "reserved gzip header flags are set";
  let at = 10;
  if (flags & 0x04) at += 2 + (data[at]! | (data[at + 1]! << 8));
  for (const flag of [0x08, 0x10]) {
    if (flags & flag) {
      const end = data.indexOf(0, at);
      if (end < 0) return "truncated gzip header";
      at = end + 1;
    }
  }
  if (flags & 0x02) {
    if (at + 2 > data.length) return "truncated gzip header";
    if ((crc32(data.subarray(0, at)) & 0xffff) !== (data[at]! | (data[at + 1]! << 8))) return "gzip header CRC mismatch";
    at += 2;
  }
  if (at + 8 > data.length) return "truncated gzip header";
  return at;
}

/**
 * Inflate raw deflate data, stopping with an error (a string) as soon as the
 * output exceeds `limit` bytes: input is fed in pieces small enough that one
 * piece cannot inflate far past what is left, so a decompression bomb costs
 * at most a few MiB beyond the limit, never the size it claims.
 */
function inflateCapped(body: Uint8Array, limit: number, limitName: string): Uint8Array | string {
  const parts: Uint8Array[] = [];
  let total = 0;
  let over = false;
  const inflater = new Inflate((part) => {
    total += part.length;
    if (total > limit) over = true;
    else if (part.length > 0) parts.push(part);
  });
  try {
    for (let at = 0; at < body.length && !over; ) {
      const left = Math.max(0, limit - total);
      const piece = Math.min(64 * 1024, Math.max(4096, Math.ceil(left / MAX_DEFLATE_RATIO) + 1));
      const end = Math.min(at + piece, body.length);
      inflater.push(body.subarray(at, end), end === body.length);
      at = end;
    }
    if (body.length === 0) inflater.push(body, true);
  } catch (cause) {
    return `invalid deflate data (${cause instanceof Error ? cause.message : String(cause)})`;
  }
  if (over) return `inflates past ${limitName}`;
  const [only] = parts;
  return only && parts.length === 1 ? only : concatBytes(parts);
}

/**
 * Decode bytes stored with `encoding`, inflating at most `maxBytes`. "gzip"
 * also accepts zlib-wrapped deflate, which neuroglancer-scripts writes under
 * that name. The gzip CRC-32 and ISIZE and the zlib Adler-32 are checked:
 * corrupt data raises `ChecksumError` or `CorruptDataError` naming `key`,
 * never comes back changed.
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
      throw new CorruptDataError(`${what} in ${key} has ${bytes.length} bytes, more than the limit of ${maxBytes}`, { key });
    }
    return bytes;
  }
  const corrupt = (why: string) => new CorruptDataError(`${what} in ${key} failed to decompress: ${why}`, { key });
  const [b0, b1] = bytes;
  if (b0 === 0x1f && b1 === 0x8b) {
    const start = gzipBodyStart(bytes);
    if (typeof start === "string") throw corrupt(start);
    const trailer = bytes.length - 8;
    const storedCrc = u32(bytes, trailer, true);
    const size = u32(bytes, trailer + 4, true);
    // ISIZE is the size modulo 2^32; below that it is exact, so it bounds the output too.
    const limit = maxBytes < 2 ** 32 ? Math.min(maxBytes, size) : maxBytes;
    if (maxBytes < 2 ** 32 && size > maxBytes) {
      throw corrupt(`the gzip trailer declares ${size} bytes, more than the limit of ${maxBytes}`);
    }
    const body = bytes.subarray(start, trailer);
    if (size > body.length * MAX_DEFLATE_RATIO + 16) {
      throw corrupt(`the gzip trailer declares ${size} bytes, more than ${body.length} bytes of deflate data can hold`);
    }
    const limitName =
      limit === size ? `the ${size} bytes its gzip trailer declares` : `the limit of ${limit} bytes`;
    const out = inflateCapped(body, limit, limitName);
    if (typeof out === "string") throw corrupt(out);
    if (out.length % 2 ** 32 !== size) throw corrupt(`inflated to ${out.length} bytes where the gzip trailer declares ${size}`);
    const computed = crc32(out);
    if (computed !== storedCrc) {
      throw new ChecksumError(`${what} in ${key}: gzip CRC-32 mismatch (stored ${hex(storedCrc)}, computed ${hex(computed)})`, {
        key,
      });
    }
    return out;
  }
  if (b0 === undefined || b1 === undefined || !isZlib(b0, b1)) {
    throw new CorruptDataError(`${what} in ${key} is neither gzip nor zlib data`, { key });
  }
  if (bytes.length < 6) throw corrupt(`${bytes.length} bytes is too short for zlib (at least 6)`);
  if (b1 & 0x20) throw corrupt("zlib data needs a preset dictionary");
  const out = inflateCapped(bytes.subarray(2, bytes.length - 4), maxBytes, `the limit of ${maxBytes} bytes`);
  if (typeof out === "string") throw corrupt(out);
  const stored = u32(bytes, bytes.length - 4, false);
  const computed = adler32(out);
  if (computed !== stored) {
    throw new ChecksumError(`${what} in ${key}: zlib Adler-32 mismatch (stored ${hex(stored)}, computed ${hex(computed)})`, {
      key,
    });
  }
  return out;
}

/** Encode for writing: real gzip (not zlib) at level 9 with mtime 0, as tensorstore writes, so output is deterministic. */
export function encodeBytes(bytes: Uint8Array, encoding: ShardingEncoding): Uint8Array {
  return encoding === "raw" ? bytes : gzipSync(bytes, { level: 9, mtime: 0 });
}
