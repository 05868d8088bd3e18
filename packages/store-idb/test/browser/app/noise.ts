/**
 * Deterministic noise (xorshift32). Chromium compresses what it stores, so
 * only bytes without structure count fully against a quota.
 */
export function noise(length: number, seed: number): Uint8Array {
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
