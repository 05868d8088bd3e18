// The contrast window: data values to 0..255, and a window picked from the data.

/** The gray level of `v` in the window [lo, hi]: round(255 * (clamp(v, lo, hi) - lo) / (hi - lo)). */
export function grayLevel(v: number, lo: number, hi: number): number {
  if (!(hi > lo)) return v >= hi ? 255 : 0;
  const clamped = Math.min(hi, Math.max(lo, v));
  return Math.round((255 * (clamped - lo)) / (hi - lo));
}

/**
 * A window from the 0.5th to the 99.5th percentile of the finite values
 * (at most `sampleLimit` of them, evenly spaced), so a few outliers do not wash
 * the image out; undefined when there are none. A constant image gets [v, v + 1].
 */
export function autoContrast(
  blocks: readonly ArrayLike<number>[],
  sampleLimit = 1 << 16,
): [number, number] | undefined {
  const total = blocks.reduce((n, b) => n + b.length, 0);
  if (total === 0) return undefined;
  const step = Math.max(1, Math.floor(total / sampleLimit));
  const sample: number[] = [];
  let skip = 0;
  for (const block of blocks) {
    for (let i = skip; i < block.length; i += step) {
      const v = block[i]!;
      if (Number.isFinite(v)) sample.push(v);
    }
    skip = (skip + step - (block.length % step)) % step;
  }
  if (sample.length === 0) return undefined;
  sample.sort((a, b) => a - b);
  const at = (q: number) => sample[Math.min(sample.length - 1, Math.floor(q * sample.length))]!;
  const lo = at(0.005);
  const hi = at(0.995);
  return hi > lo ? [lo, hi] : [lo, lo + 1];
}
