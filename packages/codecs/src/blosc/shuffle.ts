// Blosc's byte and bit shuffles of one block, as c-blosc's generic
// routines do them, leftovers included: byte shuffle leaves the bytes past
// the last whole element in place; bit shuffle works on whole groups of 8
// elements and copies the block unchanged when the element count is not a
// multiple of 8.

/** Byte `j` of every element first, then byte `j + 1`, ... (`unshuffle` restores). */
export function byteShuffle(src: Uint8Array, dst: Uint8Array, typesize: number, unshuffle: boolean): void {
  const elements = Math.floor(src.length / typesize);
  for (let j = 0; j < typesize; j++) {
    const plane = j * elements;
    if (unshuffle) for (let i = 0; i < elements; i++) dst[i * typesize + j] = src[plane + i]!;
    else for (let i = 0; i < elements; i++) dst[plane + i] = src[i * typesize + j]!;
  }
  const whole = elements * typesize;
  dst.set(src.subarray(whole), whole);
}

// The 8 bytes being transposed, as two 32-bit halves (module state: no allocation per 8x8 block).
let lo = 0;
let hi = 0;

/** Load the 8 bytes at `at`, `at + stride`, ... into (lo, hi). */
function load(src: Uint8Array, at: number, stride: number): void {
  lo = src[at]! | (src[at + stride]! << 8) | (src[at + 2 * stride]! << 16) | (src[at + 3 * stride]! << 24);
  at += 4 * stride;
  hi = src[at]! | (src[at + stride]! << 8) | (src[at + 2 * stride]! << 16) | (src[at + 3 * stride]! << 24);
}

/** Transpose the 8x8 bit matrix held in (lo, hi) as 8 little-endian bytes: bit (8r + c) <-> bit (8c + r). */
function transpose8x8(): void {
  let t = (lo ^ (lo >>> 7)) & 0x00aa00aa;
  lo = lo ^ t ^ (t << 7);
  t = (hi ^ (hi >>> 7)) & 0x00aa00aa;
  hi = hi ^ t ^ (t << 7);
  t = (lo ^ (lo >>> 14)) & 0x0000cccc;
  lo = lo ^ t ^ (t << 14);
  t = (hi ^ (hi >>> 14)) & 0x0000cccc;
  hi = hi ^ t ^ (t << 14);
  t = (lo ^ (hi << 4)) & 0xf0f0f0f0;
  lo ^= t;
  hi ^= t >>> 4;
}

/**
 * Bitshuffle (bshuf_trans_bit_elem): for each byte position j and bit k of
 * an element, a row of elements/8 bytes whose byte r holds bit k of byte j
 * of elements 8r..8r+7. The transposition is its own inverse, so one routine
 * does both directions.
 */
export function bitShuffle(src: Uint8Array, dst: Uint8Array, typesize: number, unshuffle: boolean): void {
  const elements = Math.floor(src.length / typesize);
  if (elements % 8 !== 0) {
    dst.set(src);
    return;
  }
  const rowBytes = elements / 8;
  for (let j = 0; j < typesize; j++) {
    const rows = j * 8 * rowBytes;
    for (let r = 0; r < rowBytes; r++) {
      const element = 8 * r * typesize + j;
      if (unshuffle) {
        load(src, rows + r, rowBytes);
        transpose8x8();
        for (let m = 0; m < 4; m++) {
          dst[element + m * typesize] = lo >>> (8 * m);
          dst[element + (m + 4) * typesize] = hi >>> (8 * m);
        }
      } else {
        load(src, element, typesize);
        transpose8x8();
        for (let k = 0; k < 4; k++) {
          dst[rows + k * rowBytes + r] = lo >>> (8 * k);
          dst[rows + (k + 4) * rowBytes + r] = hi >>> (8 * k);
        }
      }
    }
  }
  const whole = elements * typesize;
  dst.set(src.subarray(whole), whole);
}
