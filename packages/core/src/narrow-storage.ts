/**
 * Data types stored narrower than they are held: the narrow floats (held in
 * a Float32Array, which holds each of their values exactly) and the
 * sub-byte integers int2, int4, uint2, uint4 (held in an Int8Array or
 * Uint8Array). The `bytes` codec stores one element per byte (two for
 * bfloat16), in the low bits, as the zarr-extensions registry specifies and
 * tensorstore writes (higher bits zero when writing, ignored when reading).
 */
import { InvalidSelectionError, type NumericArray } from "@zarrkit/registry";
import { e8m0ToNumber, numberToE8m0 } from "./e8m0.js";
import { type MinifloatFormat, minifloatToNumber, numberToMinifloat } from "./minifloat.js";

/** How a narrow type is stored. */
export type NarrowStorage =
  | { readonly kind: "minifloat"; readonly format: MinifloatFormat }
  | { readonly kind: "small-int"; readonly bits: number; readonly signed: boolean }
  | { readonly kind: "e8m0" };

/** The value range of a sub-byte integer type. */
export function smallIntRange(storage: { bits: number; signed: boolean }): [number, number] {
  return storage.signed ? [-(2 ** (storage.bits - 1)), 2 ** (storage.bits - 1) - 1] : [0, 2 ** storage.bits - 1];
}

const decodeTables = new Map<string, Float32Array>();

/** Every 8-bit (or narrower) encoding's value, computed once per format. */
function decodeTable(name: string, decode: (bits: number) => number): Float32Array {
  let table = decodeTables.get(name);
  if (!table) {
    table = new Float32Array(256);
    for (let bits = 0; bits < 256; bits++) table[bits] = decode(bits);
    decodeTables.set(name, table);
  }
  return table;
}

/** The elements of `stored`: `elements` slots of 1 byte, or of 2 bytes in host byte order for bfloat16. */
export function decodeNarrow(storage: NarrowStorage, stored: Uint8Array, elements: number): NumericArray {
  if (storage.kind === "small-int") {
    const shift = 32 - storage.bits;
    const mask = (1 << storage.bits) - 1;
    if (storage.signed) {
      const out = new Int8Array(elements);
      for (let i = 0; i < elements; i++) out[i] = (stored[i]! << shift) >> shift; // the low bits, sign-extended
      return out;
    }
    const out = new Uint8Array(elements);
    for (let i = 0; i < elements; i++) out[i] = stored[i]! & mask;
    return out;
  }
  const out = new Float32Array(elements);
  if (storage.kind === "e8m0") {
    const table = decodeTable("float8_e8m0fnu", e8m0ToNumber);
    for (let i = 0; i < elements; i++) out[i] = table[stored[i]!]!;
    return out;
  }
  if (storage.format.width === 16) {
    // bfloat16 is the high half of a float32.
    const halves = new Uint16Array(stored.buffer, stored.byteOffset, elements);
    const words = new Uint32Array(out.buffer);
    for (let i = 0; i < elements; i++) words[i] = halves[i]! << 16;
    return out;
  }
  const format = storage.format;
  const table = decodeTable(format.name, (bits) => minifloatToNumber(format, bits));
  for (let i = 0; i < elements; i++) out[i] = table[stored[i]!]!;
  return out;
}

/**
 * The stored bytes of `data` (bfloat16: 2-byte slots in host byte order).
 * Floats round to nearest, ties to even (see `numberToMinifloat`;
 * float8_e8m0fnu: `numberToE8m0`); NaN in a format without NaN, zero,
 * negatives and infinities in float8_e8m0fnu, and integers outside a
 * sub-byte type's range, are an
 * `InvalidSelectionError` naming the element: never stored as another value.
 */
export function encodeNarrow(storage: NarrowStorage, data: NumericArray, typeName: string): Uint8Array {
  const refuse = (i: number, why: string): never => {
    throw new InvalidSelectionError(`Element ${i} (${String(data[i])}) does not fit data type ${typeName}: ${why}`, {
      field: "value",
    });
  };
  const n = data.length;
  if (storage.kind === "small-int") {
    const [lo, hi] = smallIntRange(storage);
    const mask = (1 << storage.bits) - 1;
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const v = data[i] as number;
      if (!(v >= lo && v <= hi)) refuse(i, `outside [${lo}, ${hi}]`);
      out[i] = v & mask;
    }
    return out;
  }
  if (storage.kind === "e8m0") {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++)
      out[i] = numberToE8m0(data[i] as number) ?? refuse(i, "it holds positive powers of two only");
    return out;
  }
  const format = storage.format;
  if (format.width === 16) return encodeBfloat16(data as Float32Array);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const bits = numberToMinifloat(format, data[i] as number);
    out[i] = bits ?? refuse(i, "NaN has no encoding in it");
  }
  return out;
}

/**
 * bfloat16 from float32 values: the high half of each float32, rounded to
 * nearest even on the low half (exact for float32 input, infinity past the
 * largest value). A NaN keeps its sign and high payload bits with the quiet
 * bit set, so NaNs read from bfloat16 are written back unchanged (JavaScript's
 * own NaN becomes 0x7fc0, the registry's "NaN").
 */
function encodeBfloat16(data: Float32Array): Uint8Array {
  const words = new Uint32Array(data.buffer, data.byteOffset, data.length);
  const out = new Uint16Array(data.length);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    out[i] = (w & 0x7fffffff) > 0x7f800000 ? (w >>> 16) | 0x40 : (w + 0x7fff + ((w >>> 16) & 1)) >>> 16;
  }
  return new Uint8Array(out.buffer);
}
