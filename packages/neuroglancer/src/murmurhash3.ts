/**
 * MurmurHash3_x86_128 (smhasher), on 32-bit words with Math.imul so it stays
 * fast without BigInt. Returns the four output words (h1, h2, h3, h4).
 */
const C1 = 0x239b961b;
const C2 = 0xab0e9789;
const C3 = 0x38b34ae5;
const C4 = 0xa1e38b93;

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The little-endian 32-bit word at byte `i`, zero-padded past the end of `bytes` (as the tail is). */
function word(bytes: Uint8Array, i: number): number {
  return (bytes[i] ?? 0) | ((bytes[i + 1] ?? 0) << 8) | ((bytes[i + 2] ?? 0) << 16) | ((bytes[i + 3] ?? 0) << 24);
}

/** Mix a (possibly partial, zero-padded) lane word into its accumulator. */
function mixK(k: number, ca: number, r: number, cb: number): number {
  return Math.imul(rotl(Math.imul(k, ca), r), cb);
}

/**
 * MurmurHash3 x86 128-bit of `bytes`, as four 32-bit words (h1..h4), as neuroglancer's `murmurhash3_x86_128` hash uses
 * it.
 */
export function murmurHash3_x86_128(bytes: Uint8Array, seed = 0): [number, number, number, number] {
  let h1 = seed >>> 0;
  let h2 = h1;
  let h3 = h1;
  let h4 = h1;
  const len = bytes.length;
  const blocks = len - (len % 16);
  for (let i = 0; i < blocks; i += 16) {
    h1 ^= mixK(word(bytes, i), C1, 15, C2);
    h1 = (Math.imul(rotl(h1, 19) + h2, 5) + 0x561ccd1b) | 0;
    h2 ^= mixK(word(bytes, i + 4), C2, 16, C3);
    h2 = (Math.imul(rotl(h2, 17) + h3, 5) + 0x0bcaa747) | 0;
    h3 ^= mixK(word(bytes, i + 8), C3, 17, C4);
    h3 = (Math.imul(rotl(h3, 15) + h4, 5) + 0x96cd1c35) | 0;
    h4 ^= mixK(word(bytes, i + 12), C4, 18, C1);
    h4 = (Math.imul(rotl(h4, 13) + h1, 5) + 0x32ac3b17) | 0;
  }
  // Tail: the remaining bytes as up to four little-endian lane words, zero-padded.
  const rest = len - blocks;
  if (rest > 12) h4 ^= mixK(word(bytes, blocks + 12), C4, 18, C1);
  if (rest > 8) h3 ^= mixK(word(bytes, blocks + 8), C3, 17, C4);
  if (rest > 4) h2 ^= mixK(word(bytes, blocks + 4), C2, 16, C3);
  if (rest > 0) h1 ^= mixK(word(bytes, blocks), C1, 15, C2);

  h1 ^= len;
  h2 ^= len;
  h3 ^= len;
  h4 ^= len;
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h3 = fmix(h3);
  h4 = fmix(h4);
  h1 = (h1 + h2 + h3 + h4) >>> 0;
  h2 = (h2 + h1) >>> 0;
  h3 = (h3 + h1) >>> 0;
  h4 = (h4 + h1) >>> 0;
  return [h1, h2, h3, h4];
}
