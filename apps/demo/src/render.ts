// A plane to RGBA pixels, row by row: through the contrast window and a lookup
// table, or a colour per label.
import { labelColor, type Lut } from "./colormap.js";
import { grayLevel } from "./contrast.js";
import type { Plane } from "./volume.js";

export type Coloring = { kind: "window"; lo: number; hi: number; lut: Lut } | { kind: "labels" };

export function planeRgba(plane: Plane, coloring: Coloring): Uint8ClampedArray<ArrayBuffer> {
  const out = new Uint8ClampedArray(new ArrayBuffer(plane.rows * plane.cols * 4));
  const { values, rowStride, colStride } = plane;
  const labels = new Map<number | bigint, [number, number, number, number]>();
  let o = 0;
  for (let r = 0; r < plane.rows; r++) {
    for (let c = 0; c < plane.cols; c++, o += 4) {
      const v = values[r * rowStride + c * colStride]!;
      if (coloring.kind === "labels") {
        let color = labels.get(v);
        if (!color) labels.set(v, (color = labelColor(v)));
        out[o] = color[0];
        out[o + 1] = color[1];
        out[o + 2] = color[2];
        out[o + 3] = color[3];
      } else {
        const g = grayLevel(Number(v), coloring.lo, coloring.hi) * 4;
        out[o] = coloring.lut[g]!;
        out[o + 1] = coloring.lut[g + 1]!;
        out[o + 2] = coloring.lut[g + 2]!;
        out[o + 3] = 255;
      }
    }
  }
  return out;
}

/** The plane's values as numbers, for picking a contrast window. */
export function planeNumbers(plane: Plane): ArrayLike<number> {
  const { values } = plane;
  if (values instanceof BigInt64Array || values instanceof BigUint64Array) return Array.from(values, Number);
  return values as ArrayLike<number>;
}
