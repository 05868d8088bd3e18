// Checked, capped inflation of gzip and zlib data on fflate, synchronous, for
// every runtime: fflate trusts the gzip/zlib trailers, so this module checks
// them itself and never returns data whose checksum does not match. The
// fflate path of the gzip and zlib codecs and @zarrkit/neuroglancer use it.
import { ChecksumError, CorruptDataError } from "@zarrkit/registry";
import { concatBytes } from "@zarrkit/util";
import { Inflate, inflateSync } from "fflate";
import { adler32 } from "./adler32.js";
import { crc32 } from "./crc32.js";

/** Options of {@link inflateChecked}. */
export interface InflateCheckedOptions {
  /**
   * Refuse data that inflates to more than this many bytes, stopping as soon as it does (default: no limit but the gzip
   * trailer's size).
   */
  maxBytes?: number;
  /** Accept only this format (default: either, told apart by the header). */
  format?: "gzip" | "zlib";
}

// Deflate cannot expand data more than 1032:1 (a 258-byte match in 2 bits).
const MAX_DEFLATE_RATIO = 1032;

/**
 * Compressed bytes per streaming step at least: one step adds at most 1032
 * times as much output past the cap (1 MiB), and fflate's output buffer for a
 * step grows by doubling, so a larger step would let a bomb cost tens of MiB.
 */
const MIN_STEP = 1024;

const hex = (value: number) => `0x${value.toString(16).padStart(8, "0")}`;

function u32le(data: Uint8Array, at: number): number {
  return (data[at]! | (data[at + 1]! << 8) | (data[at + 2]! << 16) | (data[at + 3]! << 24)) >>> 0;
}

function invalid(cause: unknown): CorruptDataError {
  return new CorruptDataError(`invalid deflate data (${cause instanceof Error ? cause.message : String(cause)})`, {
    cause,
  });
}

/** Thrown from fflate's output callback to stop it; turned into the caller's message. */
class PastLimit extends Error {}

/**
 * Inflate raw deflate `body`, stopping as soon as the output passes `limit`
 * bytes (then `pastLimit` is the error): the input goes to fflate's
 * streaming inflater in steps sized so that even at deflate's 1032:1 one
 * cannot carry the output more than about 1 MiB past the limit. `out`, when
 * given, receives the output (its length is the limit). Bodies too short to
 * reach the limit inflate in one call.
 */
function inflateCapped(
  body: Uint8Array,
  limit: number,
  pastLimit: () => CorruptDataError,
  out?: Uint8Array,
): Uint8Array {
  if (body.length * MAX_DEFLATE_RATIO <= limit) {
    try {
      const result = inflateSync(body, out ? { out } : undefined);
      return out && result.length !== out.length ? out.subarray(0, result.length) : result;
    } catch (cause) {
      throw invalid(cause);
    }
  }
  const parts: Uint8Array[] = [];
  let total = 0;
  let ended = false;
  const stream = new Inflate((chunk, final) => {
    total += chunk.length;
    if (total > limit) throw new PastLimit();
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
    if (body.length === 0) stream.push(body, true);
  } catch (cause) {
    throw cause instanceof PastLimit ? pastLimit() : invalid(cause);
  }
  if (out) return total === out.length ? out : out.subarray(0, total);
  return parts.length === 1 ? parts[0]! : concatBytes(parts);
}

function skipZeroTerminated(data: Uint8Array, at: number): number {
  const end = data.indexOf(0, at);
  if (end < 0) throw new CorruptDataError("truncated gzip header");
  return end + 1;
}

/** Offset of the deflate data of the gzip member at the start of `data` (RFC 1952 section 2.3). */
function gzipBodyStart(data: Uint8Array): number {
  if (data.length < 18) throw new CorruptDataError(`${data.length} bytes is too short for gzip data (at least 18)`);
  if (data[2] !== 8) throw new CorruptDataError(`unknown gzip compression method ${data[2]}`);
  const flags = data[3]!;
  if (flags & 0xe0) throw new CorruptDataError("reserved gzip header flags are set");
  let at = 10;
  if (flags & 0x04) at += 2 + (data[at]! | (data[at + 1]! << 8));
  if (flags & 0x08) at = skipZeroTerminated(data, at);
  if (flags & 0x10) at = skipZeroTerminated(data, at);
  if (at + 8 > data.length) throw new CorruptDataError("truncated gzip header");
  if (flags & 0x02) {
    const stored = data[at]! | (data[at + 1]! << 8);
    if ((crc32(data.subarray(0, at)) & 0xffff) !== stored) throw new CorruptDataError("gzip header CRC mismatch");
    at += 2;
    if (at + 8 > data.length) throw new CorruptDataError("truncated gzip header");
  }
  return at;
}

function gunzip(data: Uint8Array, maxBytes: number | undefined): Uint8Array {
  const start = gzipBodyStart(data);
  const trailer = data.length - 8;
  const storedCrc = u32le(data, trailer);
  const size = u32le(data, trailer + 4);
  const body = data.subarray(start, trailer);
  // ISIZE is the size modulo 2^32: exact below a limit of 4 GiB, and then the limit itself.
  const limit = maxBytes ?? size;
  const exact = limit < 2 ** 32;
  if (exact && size > limit)
    throw new CorruptDataError(`the gzip trailer declares ${size} bytes, more than ${limit} bytes, the limit`);
  if (size > body.length * MAX_DEFLATE_RATIO) {
    throw new CorruptDataError(
      `the gzip trailer declares ${size} bytes, more than ${body.length} bytes of deflate data can hold`,
    );
  }
  const out = exact
    ? inflateCapped(
        body,
        size,
        () => new CorruptDataError(`inflates to more than ${size} bytes, the size its gzip trailer declares`),
        new Uint8Array(size),
      )
    : inflateCapped(body, limit, () => new CorruptDataError(`inflates to more than ${limit} bytes, the limit`));
  if (out.length % 2 ** 32 !== size)
    throw new CorruptDataError(`inflated to ${out.length} bytes where the gzip trailer declares ${size}`);
  const computed = crc32(out);
  if (computed !== storedCrc)
    throw new ChecksumError(`gzip CRC-32 mismatch: stored ${hex(storedCrc)}, computed ${hex(computed)}`);
  return out;
}

function isZlib(data: Uint8Array): boolean {
  // RFC 1950 header: method 8 (deflate), a window of at most 32 KiB, and CMF*256+FLG a multiple of 31.
  const cmf = data[0]!;
  return data.length >= 2 && (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && (cmf * 256 + data[1]!) % 31 === 0;
}

function unzlib(data: Uint8Array, maxBytes: number | undefined): Uint8Array {
  if (data.length < 6) throw new CorruptDataError(`${data.length} bytes is too short for zlib data (at least 6)`);
  if (!isZlib(data)) throw new CorruptDataError("not zlib data (bad header)");
  if (data[1]! & 0x20) throw new CorruptDataError("zlib data needs a preset dictionary");
  const body = data.subarray(2, data.length - 4);
  const out = inflateCapped(
    body,
    maxBytes ?? Number.POSITIVE_INFINITY,
    () => new CorruptDataError(`inflates to more than ${maxBytes} bytes, the limit`),
  );
  const at = data.length - 4;
  const stored = ((data[at]! << 24) | (data[at + 1]! << 16) | (data[at + 2]! << 8) | data[at + 3]!) >>> 0;
  const computed = adler32(out);
  if (computed !== stored)
    throw new ChecksumError(`zlib Adler-32 mismatch: stored ${hex(stored)}, computed ${hex(computed)}`);
  return out;
}

/**
 * Inflate gzip (RFC 1952, one member) or zlib (RFC 1950) data, synchronously,
 * in any runtime (on fflate), checking what fflate does not: the gzip header,
 * ISIZE and CRC-32 trailer, the zlib header and Adler-32 trailer. Inflation
 * stops as soon as the output passes `maxBytes` (and, for gzip, the size its
 * trailer declares), so a decompression bomb costs at most about 1 MiB past
 * the limit. Corrupt or oversized data is a `CorruptDataError`, a trailer
 * mismatch a `ChecksumError`; neither names a key (callers add theirs).
 */
export function inflateChecked(data: Uint8Array, options: InflateCheckedOptions = {}): Uint8Array {
  const gzip = data[0] === 0x1f && data[1] === 0x8b;
  if (options.format === "gzip" && !gzip) throw new CorruptDataError("not gzip data (bad magic bytes)");
  if (gzip && options.format !== "zlib") return gunzip(data, options.maxBytes);
  if (options.format === undefined && !isZlib(data)) throw new CorruptDataError("neither gzip nor zlib data");
  return unzlib(data, options.maxBytes);
}
