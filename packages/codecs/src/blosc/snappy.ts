// Raw Snappy (varint length, then literal and copy elements), as blosc stores snappy streams.
import { copyLiterals, copyMatch, type LzLimits, lzParse } from "./lz-match.js";

const LIMITS: LzLimits = { maxDistance: 65535, startMargin: 4, endMargin: 0 };

export function snappyCompress(src: Uint8Array): Uint8Array {
  const out = new Uint8Array(32 + src.length + Math.ceil(src.length / 6));
  let op = 0;
  for (let n = src.length; ; n = Math.floor(n / 128)) {
    if (n < 128) {
      out[op++] = n;
      break;
    }
    out[op++] = (n & 127) | 128;
  }
  const copy = (distance: number, length: number) => {
    if (length <= 11 && length >= 4 && distance < 2048) {
      out[op++] = 1 | ((length - 4) << 2) | ((distance >>> 8) << 5);
      out[op++] = distance & 0xff;
    } else {
      out[op++] = 2 | ((length - 1) << 2);
      out[op++] = distance & 0xff;
      out[op++] = distance >>> 8;
    }
  };
  lzParse(src, LIMITS, 1, (literalStart, matchStart, distance, length) => {
    const literals = matchStart - literalStart;
    if (literals > 0) {
      const n = literals - 1;
      if (n < 60) {
        out[op++] = n << 2;
      } else {
        const bytes = n < 0x100 ? 1 : n < 0x10000 ? 2 : n < 0x1000000 ? 3 : 4;
        out[op++] = (59 + bytes) << 2;
        for (let b = 0; b < bytes; b++) out[op++] = n >>> (8 * b);
      }
      copyLiterals(src, literalStart, out, op, literals);
      op += literals;
    }
    // Copies hold at most 64 bytes; split long matches as snappy does, keeping every piece >= 4.
    let rest = length;
    for (; rest >= 68; rest -= 64) copy(distance, 64);
    if (rest > 64) {
      copy(distance, 60);
      rest -= 60;
    }
    if (rest > 0) copy(distance, rest);
  });
  return out.subarray(0, op);
}

function readLE(src: Uint8Array, at: number, bytes: number): number {
  if (at + bytes > src.length) throw new Error("snappy: truncated element");
  let value = 0;
  for (let b = bytes - 1; b >= 0; b--) value = value * 256 + src[at + b]!;
  return value;
}

/** Decode one raw Snappy stream into `dst`, which it must fill exactly. */
export function snappyDecompress(src: Uint8Array, dst: Uint8Array): void {
  let ip = 0;
  let declared = 0;
  for (let shift = 0; ; shift += 7) {
    if (ip >= src.length || shift > 28) throw new Error("snappy: bad length preamble");
    const byte = src[ip++]!;
    declared += (byte & 127) * 2 ** shift;
    if (byte < 128) break;
  }
  if (declared !== dst.length)
    throw new Error(`snappy: the stream holds ${declared} bytes where ${dst.length} were expected`);
  let op = 0;
  while (ip < src.length) {
    const tag = src[ip++]!;
    const kind = tag & 3;
    if (kind === 0) {
      let length = tag >>> 2;
      if (length >= 60) {
        const bytes = length - 59;
        length = readLE(src, ip, bytes);
        ip += bytes;
      }
      length += 1;
      if (length > src.length - ip || length > dst.length - op) throw new Error("snappy: literal overruns the block");
      copyLiterals(src, ip, dst, op, length);
      ip += length;
      op += length;
      continue;
    }
    let length: number;
    let distance: number;
    if (kind === 1) {
      length = 4 + ((tag >>> 2) & 7);
      distance = ((tag >>> 5) << 8) | readLE(src, ip, 1);
      ip += 1;
    } else {
      const bytes = kind === 2 ? 2 : 4;
      length = (tag >>> 2) + 1;
      distance = readLE(src, ip, bytes);
      ip += bytes;
    }
    if (distance === 0 || distance > op) throw new Error(`snappy: copy distance ${distance} at output byte ${op}`);
    if (length > dst.length - op) throw new Error("snappy: copy overruns the block");
    copyMatch(dst, op, distance, length);
    op += length;
  }
  if (op !== dst.length) throw new Error(`snappy: decoded ${op} bytes where ${dst.length} were expected`);
}
