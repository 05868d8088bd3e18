// What the LZ4, BloscLZ and Snappy streams share: a greedy LZ77 parser for
// their writers, which finds matches with a hash of 4 bytes (and, for
// depth > 1, a hash chain) and hands each sequence to a format-specific
// encoder; and the copies of their readers.

export interface LzLimits {
  /** Largest back-reference distance the format can encode. */
  maxDistance: number;
  /** Matches start at least this many bytes before the end of the input (>= 4, the hashed bytes). */
  startMargin: number;
  /** ...and end at least this many bytes before it (formats that must end with literals). */
  endMargin: number;
}

/**
 * One sequence: the literals `src[literalStart, matchStart)`, then `length`
 * bytes copied from `distance` bytes back. The last call has length 0 and
 * carries the trailing literals.
 */
export type SequenceSink = (literalStart: number, matchStart: number, distance: number, length: number) => void;

const MIN_MATCH = 4;
const HASH_BITS = 16;

function hash4(src: Uint8Array, i: number): number {
  const word = src[i]! | (src[i + 1]! << 8) | (src[i + 2]! << 16) | (src[i + 3]! << 24);
  return Math.imul(word, 2654435761) >>> (32 - HASH_BITS);
}

/** Parse `src`; `depth` is the number of earlier positions tried per hash (1: fastest). */
export function lzParse(src: Uint8Array, limits: LzLimits, depth: number, sink: SequenceSink): void {
  const n = src.length;
  const lastStart = n - limits.startMargin;
  const head = new Int32Array(1 << HASH_BITS).fill(-1);
  const chain = depth > 1 ? new Int32Array(Math.max(lastStart, 0)) : undefined;
  const insert = (p: number) => {
    const h = hash4(src, p);
    if (chain) chain[p] = head[h]!;
    head[h] = p;
  };
  let anchor = 0;
  let i = 0;
  while (i < lastStart) {
    const h = hash4(src, i);
    let candidate = head[h]!;
    if (chain) chain[i] = candidate;
    head[h] = i;
    const maxLength = n - limits.endMargin - i;
    let bestLength = 0;
    let bestDistance = 0;
    for (let tries = depth; candidate >= 0 && tries > 0; tries--) {
      const distance = i - candidate;
      if (distance > limits.maxDistance) break;
      // Only a candidate that beats the best so far at its last byte can be longer.
      if (src[candidate + bestLength] === src[i + bestLength]) {
        let length = 0;
        while (length < maxLength && src[candidate + length] === src[i + length]) length++;
        if (length > bestLength) {
          bestLength = length;
          bestDistance = distance;
          if (length === maxLength) break;
        }
      }
      candidate = chain ? chain[candidate]! : -1;
    }
    if (bestLength < MIN_MATCH) {
      // The fast parse steps faster through data that keeps failing to match, as LZ4 does.
      i += chain ? 1 : 1 + ((i - anchor) >> 7);
      continue;
    }
    sink(anchor, i, bestDistance, bestLength);
    const end = i + bestLength;
    if (chain) for (let p = i + 1; p < end && p < lastStart; p++) insert(p);
    else if (end - 2 < lastStart) insert(end - 2);
    i = anchor = end;
  }
  sink(anchor, n, 0, 0);
}

/** Copy `length` bytes from `distance` back; byte by byte when source and destination overlap. */
export function copyMatch(dst: Uint8Array, op: number, distance: number, length: number): void {
  const from = op - distance;
  if (distance >= length && length > 16) dst.copyWithin(op, from, from + length);
  else for (let k = 0; k < length; k++) dst[op + k] = dst[from + k]!;
}

/**
 * Copy `src[from, from + length)` to `dst[at]`: short runs byte by byte, as a view per run would cost more than the
 * copy.
 */
export function copyLiterals(src: Uint8Array, from: number, dst: Uint8Array, at: number, length: number): void {
  if (length > 32) dst.set(src.subarray(from, from + length), at);
  else for (let k = 0; k < length; k++) dst[at + k] = src[from + k]!;
}
