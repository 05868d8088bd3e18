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
