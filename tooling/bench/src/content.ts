/**
 * The array's content: smooth waves along each axis plus a diagonal ripple,
 * values 0..4095 in uint16. Neighbours differ by a few units, so zstd
 * compresses it well, and the diagonal term keeps planes from repeating.
 * Per-axis tables make generating and checking a region cheap.
 */
export class Content {
  private readonly x: Float64Array;
  private readonly y: Float64Array;
  private readonly z: Float64Array;
  private readonly diagonal: Float64Array;

  constructor(readonly size: number) {
    const table = (f: (i: number) => number, n = size) => Float64Array.from({ length: n }, (_, i) => f(i));
    this.x = table((i) => 600 * Math.sin(i / 23));
    this.y = table((i) => 600 * Math.sin(i / 37 + 1));
    this.z = table((i) => 600 * Math.sin(i / 51 + 2) + 2048);
    this.diagonal = table((i) => 200 * Math.sin(i / 11), 3 * size);
  }

  /** The value at (z, y, x). */
  at(z: number, y: number, x: number): number {
    return Math.round(this.z[z]! + this.y[y]! + this.x[x]! + this.diagonal[z + y + x]!);
  }

  /** The whole array in C order. */
  all(): Uint16Array {
    const n = this.size;
    const out = new Uint16Array(n ** 3);
    let i = 0;
    for (let z = 0; z < n; z++) for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) out[i++] = this.at(z, y, x);
    return out;
  }

  /**
   * Index of the first element of `data` (the box at `start` of `shape`, every value plus `shift`) that is wrong, or
   * -1.
   */
  firstMismatch(data: ArrayLike<number>, start: readonly number[], shape: readonly number[], shift = 0): number {
    const [z0, y0, x0] = start as [number, number, number];
    const [nz, ny, nx] = shape as [number, number, number];
    if (data.length !== nz * ny * nx) return 0;
    let i = 0;
    for (let z = z0; z < z0 + nz; z++) {
      for (let y = y0; y < y0 + ny; y++) {
        for (let x = x0; x < x0 + nx; x++, i++) if (data[i] !== this.at(z, y, x) + shift) return i;
      }
    }
    return -1;
  }
}
