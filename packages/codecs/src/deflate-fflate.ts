// The "#deflate" implementation for browsers and other non-Node runtimes,
// on fflate. fflate trusts the gzip/zlib trailers, so this module checks
// them itself: never return data whose checksum does not match.
import { concatBytes } from "@zarrkit/registry";
import { Inflate, gzipSync, inflateSync, zlibSync } from "fflate";
import { adler32 } from "./adler32.js";
import { crc32 } from "./crc32.js";
import { DecodedSizeError, tooLarge } from "./limits.js";

type Level = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

// Deflate cannot expand data more than 1032:1 (a 258-byte match in 2 bits).
const MAX_DEFLATE_RATIO = 1032;

function u32le(data: Uint8Array, at: number): number {
  return (data[at]! | (data[at + 1]! << 8) | (data[at + 2]! << 16) | (data[at + 3]! << 24)) >>> 0;
}

function hex(value: number): string {
  return `0x${value.toString(16).padStart(8, "0")}`;
}

function invalid(cause: unknown): Error {
  return new Error(`invalid deflate data (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
}

function inflate(body: Uint8Array, out?: Uint8Array): Uint8Array {
  try {
    return inflateSync(body, out ? { out } : undefined);
  } catch (cause) {
    throw invalid(cause);
  }
}

/**
 * Compressed bytes per streaming step at least: one step adds at most 1032
 * times as much output past the cap (1 MiB), and fflate's output buffer for a
 * step grows by doubling, so a larger step would let a bomb cost tens of MiB.
 */
const MIN_STEP = 1024;

/**
 * Inflate `body`, stopping as soon as the output passes `limit` bytes: the
 * input goes to fflate's streaming inflater in steps, and a running count
 * of its output is checked after each. A step is sized so that even at
 * deflate's 1032:1 it cannot carry the output more than about 1 MiB past the
 * limit. `out`, when given, receives the output (its length is the limit).
 * Bodies too short to reach the limit inflate in one call.
 */
function inflateCapped(body: Uint8Array, limit: number, format: string, out?: Uint8Array): Uint8Array {
  if (body.length * MAX_DEFLATE_RATIO <= limit) {
    const result = inflate(body, out);
    if (out && result.length !== out.length) return out.subarray(0, result.length);
    return result;
  }
  const parts: Uint8Array[] = [];
  let total = 0;
  let ended = false;
  const stream = new Inflate((chunk, final) => {
    total += chunk.length;
    if (total > limit) throw tooLarge(format, limit);
    if (out) out.set(chunk, total - chunk.length);
    else parts.push(chunk);
    if (final) ended = true;
  });
  try {
    for (let at = 0; at < body.length && !ended; ) {
      const step = Math.max(MIN_STEP, Math.floor((limit - total) / MAX_DEFLATE_RATIO));
      const end = Math.min(body.length, at + step);
      stream.push(body.subarray(at, end), end === body.length);
      at = end;
    }
  } catch (cause) {
    if (cause instanceof DecodedSizeError) throw cause;
    throw invalid(cause);
  }
  if (out) return total === out.length ? out : out.subarray(0, total);
  return parts.length === 1 ? parts[0]! : concatBytes(parts);
}

function skipZeroTerminated(data: Uint8Array, at: number): number {
  const end = data.indexOf(0, at);
  if (end < 0) throw new Error("truncated gzip header");
  return end + 1;
}

/** Offset of the deflate data of the gzip member at the start of `data` (RFC 1952 section 2.3). */
function gzipBodyStart(data: Uint8Array): number {
  if (data.length < 18) throw new Error(`${data.length} bytes is too short for gzip data (at least 18)`);
  if (data[0] !== 0x1f || data[1] !== 0x8b) throw new Error("not gzip data (bad magic bytes)");
  if (data[2] !== 8) throw new Error(`unknown gzip compression method ${data[2]}`);
  const flags = data[3]!;
  if (flags & 0xe0) throw new Error("reserved gzip header flags are set");
  let at = 10;
  if (flags & 0x04) at += 2 + (data[at]! | (data[at + 1]! << 8));
  if (flags & 0x08) at = skipZeroTerminated(data, at);
  if (flags & 0x10) at = skipZeroTerminated(data, at);
  if (at + 8 > data.length) throw new Error("truncated gzip header");
  if (flags & 0x02) {
    const stored = data[at]! | (data[at + 1]! << 8);
    if ((crc32(data.subarray(0, at)) & 0xffff) !== stored) throw new Error("gzip header CRC mismatch");
    at += 2;
    if (at + 8 > data.length) throw new Error("truncated gzip header");
  }
  return at;
}

export async function gzipEncode(data: Uint8Array, level: number): Promise<Uint8Array> {
  // mtime 0 (as node:zlib writes) keeps the output a function of the input alone.
  return gzipSync(data, { level: level as Level, mtime: 0 });
}

/** Single-member gzip only (every Zarr writer produces one member); node:zlib handles several. Stops past `maxBytes`. */
export async function gzipDecode(data: Uint8Array, maxBytes?: number): Promise<Uint8Array> {
  const start = gzipBodyStart(data);
  const trailer = data.length - 8;
  const storedCrc = u32le(data, trailer);
  const size = u32le(data, trailer + 4);
  const body = data.subarray(start, trailer);
  if (size > body.length * MAX_DEFLATE_RATIO) {
    throw new Error(`the gzip trailer declares ${size} bytes, more than ${body.length} bytes of deflate data can hold`);
  }
  if (maxBytes !== undefined && size > maxBytes) throw tooLarge("gzip", maxBytes, `the gzip trailer declares ${size}`);
  // The trailer's size is the limit: inflating stops once the data passes it, whatever the data says.
  const out = inflateCapped(body, size, "gzip", new Uint8Array(size));
  if (out.length !== size) throw new Error(`decompressed ${out.length} bytes where the gzip trailer declares ${size}`);
  const computed = crc32(out);
  if (computed !== storedCrc) {
    throw new Error(
      `gzip CRC32 mismatch: stored ${hex(storedCrc)}, computed ${hex(computed)} (multi-member gzip needs node:zlib)`,
    );
  }
  return out;
}

export async function zlibEncode(data: Uint8Array, level: number): Promise<Uint8Array> {
  return zlibSync(data, { level: level as Level });
}

/** Stops past `maxBytes` of output. */
export async function zlibDecode(data: Uint8Array, maxBytes?: number): Promise<Uint8Array> {
  if (data.length < 6) throw new Error(`${data.length} bytes is too short for zlib data (at least 6)`);
  const cmf = data[0]!;
  const flags = data[1]!;
  if ((cmf & 0x0f) !== 8 || cmf >> 4 > 7 || (cmf * 256 + flags) % 31 !== 0) {
    throw new Error("not zlib data (bad header)");
  }
  if (flags & 0x20) throw new Error("zlib data needs a preset dictionary");
  const body = data.subarray(2, data.length - 4);
  const out = maxBytes === undefined ? inflate(body) : inflateCapped(body, maxBytes, "zlib");
  const at = data.length - 4;
  const stored = ((data[at]! << 24) | (data[at + 1]! << 16) | (data[at + 2]! << 8) | data[at + 3]!) >>> 0;
  const computed = adler32(out);
  if (computed !== stored) throw new Error(`zlib Adler-32 mismatch: stored ${hex(stored)}, computed ${hex(computed)}`);
  return out;
}
