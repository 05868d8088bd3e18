// BloscLZ (c-blosc's FastLZ derivative), stream format version 1. Tokens:
// a literal run (ctrl < 32: ctrl + 1 bytes follow), or a match whose top 3
// bits hold length - 2 (7: extended by 255-bytes and a remainder) and whose
// distance - 1 takes 13 bits, or 16 more bits past 8191 ("far" matches).
import { copyLiterals, copyMatch, type LzLimits, lzParse } from "./lz-match.js";

const MAX_DISTANCE = 8191;
// The decoder drops a match that ends the stream, so streams end with literals.
const LIMITS: LzLimits = { maxDistance: 65535 + MAX_DISTANCE, startMargin: 4, endMargin: 1 };

export function blosclzCompress(src: Uint8Array): Uint8Array {
  const out = new Uint8Array(src.length + Math.ceil(src.length / 32) + 16);
  let op = 0;
  lzParse(src, LIMITS, 1, (literalStart, matchStart, distance, length) => {
    for (let p = literalStart; p < matchStart; p += 32) {
      const run = Math.min(32, matchStart - p);
      out[op++] = run - 1;
      copyLiterals(src, p, out, op, run);
      op += run;
    }
    if (length === 0) return;
    let len = length - 2;
    const d = distance - 1;
    const far = d >= MAX_DISTANCE;
    const high = far ? 31 : d >>> 8;
    if (len < 7) {
      out[op++] = (len << 5) + high;
    } else {
      out[op++] = (7 << 5) + high;
      for (len -= 7; len >= 255; len -= 255) out[op++] = 255;
      out[op++] = len;
    }
    if (far) {
      const f = d - MAX_DISTANCE;
      out[op++] = 255;
      out[op++] = f >>> 8;
      out[op++] = f & 0xff;
    } else {
      out[op++] = d & 0xff;
    }
  });
  if (op > 0) out[0]! |= 1 << 5; // c-blosc's level marker on the first token; decoders mask it off
  return out.subarray(0, op);
}

/** Decode one BloscLZ stream into `dst`, which it must fill exactly (after blosclz_decompress in c-blosc). */
export function blosclzDecompress(src: Uint8Array, dst: Uint8Array): void {
  const truncated = () => new Error("blosclz: truncated stream");
  if (src.length === 0) {
    if (dst.length === 0) return;
    throw truncated();
  }
  let ip = 0;
  let op = 0;
  let ctrl = src[ip++]! & 31;
  for (;;) {
    if (ctrl >= 32) {
      let length = (ctrl >>> 5) - 1;
      let ofs = (ctrl & 31) << 8;
      if (length === 6) {
        let code: number;
        do {
          if (ip + 1 >= src.length) throw truncated();
          code = src[ip++]!;
          length += code;
        } while (code === 255);
      } else if (ip + 1 >= src.length) throw truncated();
      const code = src[ip++]!;
      length += 3;
      let from = op - ofs - code - 1;
      if (code === 255 && ofs === 31 << 8) {
        if (ip + 1 >= src.length) throw truncated();
        ofs = (src[ip]! << 8) | src[ip + 1]!;
        ip += 2;
        from = op - ofs - MAX_DISTANCE - 1;
      }
      if (length > dst.length - op) throw new Error("blosclz: match overruns the block");
      if (from < 0) throw new Error(`blosclz: match reaches before the block at output byte ${op}`);
      // As in c-blosc, a match that ends the stream is not copied (the size check below then fails).
      if (ip >= src.length) break;
      ctrl = src[ip++]!;
      copyMatch(dst, op, op - from, length);
      op += length;
    } else {
      const run = ctrl + 1;
      if (run > dst.length - op || run > src.length - ip) throw new Error("blosclz: literals overrun the block");
      copyLiterals(src, ip, dst, op, run);
      op += run;
      ip += run;
      if (ip >= src.length) break;
      ctrl = src[ip++]!;
    }
  }
  if (op !== dst.length) throw new Error(`blosclz: decoded ${op} bytes where ${dst.length} were expected`);
}
