/**
 * Deterministic noise (xorshift32): binary data with no structure a store
 * could exploit (browsers compress what IndexedDB keeps, so only such bytes
 * count fully against a quota). Free of vitest, so plain pages can use it.
 */
export function noise(length: number, seed = 0x9e3779b9): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/**
 * mulberry32: a small seeded generator of numbers in [0, 1), so a test, a
 * fuzz case or a benchmark derives the same "random" data from the same seed.
 */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
