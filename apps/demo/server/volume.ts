// The sample volume: something a person recognises at a glance in any slice
// (a gradient, spheres of different brightness, a word), so a wrong chunk or a
// swapped axis shows.

export const VOLUME_SHAPE = [128, 256, 256] as const; // z, y, x

interface Sphere {
  z: number;
  y: number;
  x: number;
  r: number;
  value: number;
  label: number;
}

export const SPHERES: readonly Sphere[] = [
  { z: 40, y: 70, x: 70, r: 36, value: 30000, label: 1 },
  { z: 64, y: 170, x: 90, r: 48, value: 22000, label: 2 },
  { z: 90, y: 90, x: 190, r: 30, value: 40000, label: 3 },
  { z: 30, y: 200, x: 200, r: 24, value: 52000, label: 4 },
  { z: 100, y: 200, x: 40, r: 20, value: 60000, label: 5 },
];

// 5x7 bitmaps of the letters of "ZARRKIT", one string of 7 rows per letter.
const FONT: Record<string, string[]> = {
  Z: ["11111", "00001", "00010", "00100", "01000", "10000", "11111"],
  A: ["01110", "10001", "10001", "11111", "10001", "10001", "10001"],
  R: ["11110", "10001", "10001", "11110", "10100", "10010", "10001"],
  K: ["10001", "10010", "10100", "11000", "10100", "10010", "10001"],
  I: ["01110", "00100", "00100", "00100", "00100", "00100", "01110"],
  T: ["11111", "00100", "00100", "00100", "00100", "00100", "00100"],
};
const WORD = "ZARRKIT";
const TEXT_CELL = 5; // voxels per bitmap pixel
const TEXT_TOP = 8;
const TEXT_LEFT = 24;

function inText(y: number, x: number): boolean {
  const row = Math.floor((y - TEXT_TOP) / TEXT_CELL);
  const col = Math.floor((x - TEXT_LEFT) / TEXT_CELL);
  if (row < 0 || row >= 7 || col < 0) return false;
  const letter = Math.floor(col / 6);
  if (letter >= WORD.length || col % 6 === 5) return false;
  return FONT[WORD[letter]!]![row]![col % 6] === "1";
}

/** The uint16 volume in C order (z, y, x). */
export function makeVolume(): Uint16Array {
  const [nz, ny, nx] = VOLUME_SHAPE;
  const out = new Uint16Array(nz * ny * nx);
  let i = 0;
  for (let z = 0; z < nz; z++) {
    for (let y = 0; y < ny; y++) {
      for (let x = 0; x < nx; x++, i++) {
        let v = 1000 + 20 * x + 10 * y + 50 * z;
        for (const s of SPHERES) {
          const d2 = (z - s.z) ** 2 + (y - s.y) ** 2 + (x - s.x) ** 2;
          if (d2 < s.r * s.r) v = s.value - Math.round(Math.sqrt(d2) * 100);
        }
        if (z >= 16 && z < 112 && inText(y, x)) v = 65000;
        out[i] = v;
      }
    }
  }
  return out;
}

/** Labels (z, y, x) of shape `shape`, `scale` voxels of the volume per label voxel: each sphere's label, else 0. */
export function makeLabels(shape: readonly number[], scale: number): BigUint64Array {
  const [nz, ny, nx] = shape as [number, number, number];
  const out = new BigUint64Array(nz * ny * nx);
  let i = 0;
  for (let z = 0; z < nz; z++) {
    for (let y = 0; y < ny; y++) {
      for (let x = 0; x < nx; x++, i++) {
        for (const s of SPHERES) {
          const d2 = (z * scale - s.z) ** 2 + (y * scale - s.y) ** 2 + (x * scale - s.x) ** 2;
          // Large ids, as segmentations have: only a uint64 holds them.
          if (d2 < s.r * s.r) out[i] = 2n ** 40n + BigInt(s.label) * 7919n;
        }
      }
    }
  }
  return out;
}
