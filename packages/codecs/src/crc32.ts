// CRC-32 (IEEE 802.3, the gzip trailer checksum), slicing-by-8: eight
// lookups per 8 bytes instead of one per byte, which keeps the check from
// halving fflate's decoding speed. Only the fflate path needs it: fflate
// does not check gzip trailers itself.
const TABLES = (() => {
  const tables = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    tables[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    for (let t = 1; t < 8; t++) {
      const previous = tables[(t - 1) * 256 + n]!;
      tables[t * 256 + n] = (previous >>> 8) ^ tables[previous & 0xff]!;
    }
  }
  return tables;
})();

export function crc32(data: Uint8Array): number {
  const t = TABLES;
  let crc = -1;
  let i = 0;
  for (const end = data.length - 7; i < end; i += 8) {
    crc ^= data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    crc =
      t[1792 + (crc & 0xff)]! ^
      t[1536 + ((crc >>> 8) & 0xff)]! ^
      t[1280 + ((crc >>> 16) & 0xff)]! ^
      t[1024 + (crc >>> 24)]! ^
      t[768 + data[i + 4]!]! ^
      t[512 + data[i + 5]!]! ^
      t[256 + data[i + 6]!]! ^
      t[data[i + 7]!]!;
  }
  for (; i < data.length; i++) crc = t[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}
