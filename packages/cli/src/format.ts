import type { DataType, NdArray } from "zarrkit";

/** One element of `array.data` (element index i) as text. */
export function elementText(array: NdArray, type: DataType, i: number): string {
  const data = array.data;
  if (Array.isArray(data)) {
    const v = data[i]!;
    return typeof v === "string" ? JSON.stringify(v) : `b"${hex(v)}"`;
  }
  switch (type.kind) {
    case "bool":
      return data[i] ? "true" : "false";
    case "complex": {
      const re = Number(data[2 * i]);
      const im = Number(data[2 * i + 1]);
      return `${re}${im < 0 || Object.is(im, -0) ? "-" : "+"}${Math.abs(im)}j`;
    }
    case "raw": {
      const n = type.lanes;
      return `0x${hex((data as Uint8Array).subarray(i * n, (i + 1) * n))}`;
    }
    default:
      return String(data[i]);
  }
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The values as nested lists, numpy style: one line per innermost row. */
export function formatValues(array: NdArray, type: DataType): string {
  const { shape } = array;
  if (shape.length === 0) return elementText(array, type, 0);
  const strides = shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));
  const rows: string[] = [];
  const walk = (dim: number, base: number, indent: string): string => {
    const n = shape[dim]!;
    if (dim === shape.length - 1) {
      const items: string[] = [];
      for (let i = 0; i < n; i++) items.push(elementText(array, type, base + i));
      return `[${items.join(", ")}]`;
    }
    const parts: string[] = [];
    for (let i = 0; i < n; i++) parts.push(walk(dim + 1, base + i * strides[dim]!, `${indent} `));
    const sep = `,${"\n".repeat(shape.length - 1 - dim)}${indent} `;
    return `[${parts.join(sep)}]`;
  };
  rows.push(walk(0, 0, ""));
  return rows.join("\n");
}
