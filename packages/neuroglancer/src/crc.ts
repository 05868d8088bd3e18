// Checksums of the gzip (CRC-32, RFC 1952) and zlib (Adler-32, RFC 1950)
// trailers: fflate ignores both, so corrupted data would come back changed.

const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3) continuing from `crc` (0 to start). */
export function crc32(data: Uint8Array, crc = 0): number {
  let c = ~crc;
  // The table has 256 entries, indexed by a byte.
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** Adler-32 continuing from `adler` (1 to start). */
export function adler32(data: Uint8Array, adler = 1): number {
  let a = adler & 0xffff;
  let b = adler >>> 16;
  // 5552 bytes is the most that can be summed before b can overflow 2^32.
  for (let i = 0; i < data.length; ) {
    const end = Math.min(i + 5552, data.length);
    for (; i < end; i++) {
      a += data[i]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}
