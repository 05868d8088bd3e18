// Colour lookup tables: 256 RGBA entries indexed by gray level, and colours for labels.

export type Lut = Uint8ClampedArray; // 256 x RGBA

export function grayLut(): Lut {
  const lut = new Uint8ClampedArray(256 * 4);
  for (let i = 0; i < 256; i++) lut.set([i, i, i, 255], i * 4);
  return lut;
}

// Viridis as a polynomial fit per channel (CC0, after Matt Zucker's fit), within 2% of matplotlib's table.
const VIRIDIS = [
  [0.2777273272234177, 0.005407344544966578, 0.3340998053353061],
  [0.1050930431085774, 1.404613529898575, 1.384590162594685],
  [-0.3308618287255563, 0.214847559468213, 0.09509516302823659],
  [-4.634230498983486, -5.799100973351585, -19.33244095627987],
  [6.228269936347081, 14.17993336680509, 56.69055260068105],
  [4.776384997670288, -13.74514537774601, -65.35303263337234],
  [-5.435455855934631, 4.645852612178535, 26.3124352495832],
] as const;

export function viridisLut(): Lut {
  const lut = new Uint8ClampedArray(256 * 4);
  for (let i = 0; i < 256; i++) {
    const t = i / 255;
    for (let channel = 0; channel < 3; channel++) {
      let v = 0;
      for (let k = VIRIDIS.length - 1; k >= 0; k--) v = v * t + VIRIDIS[k]![channel]!;
      lut[i * 4 + channel] = Math.round(255 * v);
    }
    lut[i * 4 + 3] = 255;
  }
  return lut;
}

/** A stable, well spread colour for a label (RGBA); label 0 (background) is transparent. */
export function labelColor(label: number | bigint): [number, number, number, number] {
  if (label === 0 || label === 0n) return [0, 0, 0, 0];
  // Mix the label's 64 bits into 32 (a murmur-style finaliser), then hue from the hash.
  const big = BigInt.asUintN(64, BigInt(label));
  let h = Number(big & 0xffffffffn) ^ Number(big >> 32n);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h = (h ^ (h >>> 16)) >>> 0;
  const hue = (h % 360) / 60;
  const x = 1 - Math.abs((hue % 2) - 1);
  const [r, g, b] =
    hue < 1
      ? [1, x, 0]
      : hue < 2
        ? [x, 1, 0]
        : hue < 3
          ? [0, 1, x]
          : hue < 4
            ? [0, x, 1]
            : hue < 5
              ? [x, 0, 1]
              : [1, 0, x];
  const light = 0.55 + ((h >>> 9) % 40) / 100;
  return [Math.round(255 * r * light), Math.round(255 * g * light), Math.round(255 * b * light), 255];
}
