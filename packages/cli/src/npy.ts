import { type DataType, type NdArray, numberToFloat16Bits, numpyDtypeOf, UnsupportedError } from "zarrkit";

export type ByteOrder = "little" | "big";

const utf8 = new TextEncoder();

/** Bytes of an NdArray in C order, in `order`, with the numpy dtype string that describes them. */
export function rawBytes(
  array: NdArray,
  type: DataType,
  order: ByteOrder = "little",
): { bytes: Uint8Array; descr: string } {
  const { data } = array;
  const count = array.shape.reduce((a, b) => a * b, 1);
  const lt = order === "big" ? ">" : "<";
  if (Array.isArray(data)) {
    if (type.kind === "bytes" || type.name.startsWith("null_terminated_bytes")) {
      const items = data.map((v) => (typeof v === "string" ? utf8.encode(v) : v));
      const width = fixedWidth(type, 1) ?? Math.max(1, ...items.map((v) => v.length));
      const bytes = new Uint8Array(count * width);
      for (const [i, v] of items.entries()) bytes.set(v.subarray(0, width), i * width);
      return { bytes, descr: `|S${width}` };
    }
    if (type.kind === "string") {
      const points = data.map((v) =>
        Array.from(typeof v === "string" ? v : new TextDecoder().decode(v), (c) => c.codePointAt(0)!),
      );
      const width = fixedWidth(type, 4) ?? Math.max(1, ...points.map((p) => p.length));
      const bytes = new Uint8Array(count * width * 4);
      const view = new DataView(bytes.buffer);
      for (const [i, p] of points.entries()) {
        // Longer strings than a fixed width are cut, as numpy does.
        for (const [j, cp] of p.slice(0, width).entries()) view.setUint32((i * width + j) * 4, cp, order === "little");
      }
      return { bytes, descr: `${lt}U${width}` };
    }
    throw new UnsupportedError(`data type ${type.name} cannot be written as raw bytes`, { field: "data_type" });
  }
  if (type.kind === "raw") {
    const size = type.byteSize!;
    return { bytes: copyOf(data), descr: `|V${size}` };
  }
  let bytes: Uint8Array;
  if (type.name === "float16" && data.BYTES_PER_ELEMENT !== 2) {
    const bits = new Uint16Array(data.length);
    for (let i = 0; i < data.length; i++) bits[i] = numberToFloat16Bits(Number(data[i]));
    bytes = copyOf(bits);
  } else {
    bytes = copyOf(data);
  }
  const slot = type.storedSlotSize;
  if (order === "big" && slot > 1) swapBytes(bytes, slot);
  return { bytes, descr: numpyDtypeOf(type, order) };
}

function fixedWidth(type: DataType, unit: number): number | undefined {
  const m = /:(\d+)$/.exec(type.name);
  return m ? Number(m[1]) / unit : undefined;
}

function copyOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength).slice();
}

function swapBytes(bytes: Uint8Array, size: number): void {
  for (let at = 0; at < bytes.length; at += size) bytes.subarray(at, at + size).reverse();
}

/** An NPY version 1.0 file: magic, header dict padded to 64 bytes with a final newline, then the data. */
export function npyFile(bytes: Uint8Array, descr: string, shape: readonly number[]): Uint8Array {
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shapeText}, }`;
  const unpadded = 10 + header.length + 1;
  header += " ".repeat((64 - (unpadded % 64)) % 64) + "\n";
  if (header.length > 0xffff)
    throw new UnsupportedError(`NPY header of ${header.length} bytes is too long for NPY 1.0`);
  const out = new Uint8Array(10 + header.length + bytes.length);
  out.set([0x93, ...utf8.encode("NUMPY"), 1, 0]);
  new DataView(out.buffer).setUint16(8, header.length, true);
  out.set(utf8.encode(header), 10);
  out.set(bytes, 10 + header.length);
  return out;
}
