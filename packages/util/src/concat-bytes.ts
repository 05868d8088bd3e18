/** The bytes of `parts` one after another, in one new buffer. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let position = 0;
  for (const p of parts) {
    out.set(p, position);
    position += p.length;
  }
  return out;
}
