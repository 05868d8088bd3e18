// Adler-32 (RFC 1950, the zlib trailer checksum). Only the fflate path needs
// it: fflate does not check zlib trailers itself.
export function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  // 5552 is the longest run whose sums cannot overflow before the modulo (zlib's NMAX).
  for (let start = 0; start < data.length; start += 5552) {
    const end = Math.min(start + 5552, data.length);
    for (let i = start; i < end; i++) {
      a += data[i]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}
