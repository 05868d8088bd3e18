// The LZ4 block format (no frame), as blosc stores lz4 and lz4hc streams.
import { copyLiterals, copyMatch, type LzLimits, lzParse } from "./lz-match.js";

// LZ4's end-of-block rules: the last match starts >= 12 bytes before the end, the last 5 bytes are literals.
const LIMITS: LzLimits = { maxDistance: 65535, startMargin: 12, endMargin: 5 };

function writeLength(out: Uint8Array, at: number, value: number): number {
  for (; value >= 255; value -= 255) out[at++] = 255;
  out[at++] = value;
  return at;
}

export function lz4Compress(src: Uint8Array, depth: number): Uint8Array {
  const out = new Uint8Array(src.length + Math.ceil(src.length / 255) + 16);
  let op = 0;
  lzParse(src, LIMITS, depth, (literalStart, matchStart, distance, length) => {
    const literals = matchStart - literalStart;
    const token = op++;
    out[token] = Math.min(literals, 15) << 4;
    if (literals >= 15) op = writeLength(out, op, literals - 15);
    copyLiterals(src, literalStart, out, op, literals);
    op += literals;
    if (length === 0) return;
    out[op++] = distance & 0xff;
    out[op++] = distance >>> 8;
    const extra = length - 4;
    out[token]! |= Math.min(extra, 15);
    if (extra >= 15) op = writeLength(out, op, extra - 15);
  });
  return out.subarray(0, op);
}

function readLength(src: Uint8Array, ip: number, base: number): [number, number] {
  let length = base;
  let byte: number;
  do {
    if (ip >= src.length) throw new Error("lz4: truncated length");
    byte = src[ip++]!;
    length += byte;
  } while (byte === 255);
  return [length, ip];
}

/** Decode one LZ4 block into `dst`, which it must fill exactly. */
export function lz4Decompress(src: Uint8Array, dst: Uint8Array): void {
  let ip = 0;
  let op = 0;
  for (;;) {
    if (ip >= src.length) throw new Error("lz4: truncated stream");
    const token = src[ip++]!;
    let literals = token >>> 4;
    if (literals === 15) [literals, ip] = readLength(src, ip, 15);
    if (literals > src.length - ip || literals > dst.length - op) throw new Error("lz4: literals overrun the block");
    copyLiterals(src, ip, dst, op, literals);
    ip += literals;
    op += literals;
    if (ip === src.length) break;
    if (ip + 2 > src.length) throw new Error("lz4: truncated match");
    const distance = src[ip]! | (src[ip + 1]! << 8);
    ip += 2;
    let length = (token & 15) + 4;
    if (length === 19) [length, ip] = readLength(src, ip, 19);
    if (distance === 0 || distance > op) throw new Error(`lz4: match distance ${distance} at output byte ${op}`);
    if (length > dst.length - op) throw new Error("lz4: match overruns the block");
    copyMatch(dst, op, distance, length);
    op += length;
  }
  if (op !== dst.length) throw new Error(`lz4: decoded ${op} bytes where ${dst.length} were expected`);
}
