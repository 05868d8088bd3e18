import { type ArrayData, InvalidMetadataError, type Scalar } from "@zarrkit/registry";
import { showValue } from "@zarrkit/registry";
import type { DataType } from "./data-types.js";
import { E8M0_NAN, e8m0ToNumber, numberToE8m0 } from "./e8m0.js";
import { float16BitsToNumber } from "./float16.js";
import { type MinifloatFormat, minifloatToNumber, numberToMinifloat, overflowsMinifloat } from "./minifloat.js";
import { smallIntRange } from "./narrow-storage.js";
import { parseStructScalar, serializeStructScalar } from "./struct-type.js";
import { NAT } from "./temporal-types.js";

const INT_RANGES: Record<string, [bigint, bigint]> = {
  int8: [-(2n ** 7n), 2n ** 7n - 1n],
  int16: [-(2n ** 15n), 2n ** 15n - 1n],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint8: [0n, 2n ** 8n - 1n],
  uint16: [0n, 2n ** 16n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

/** The fill value a writer gives when none is chosen: zero (false, "", [0, 0], zero bytes) in the type's JSON form. */
export function zeroFillValue(type: DataType): unknown {
  switch (type.kind) {
    case "bool":
      return false;
    case "string":
    case "bytes": // base64 of no bytes
      return "";
    case "complex":
      return [0, 0];
    case "raw":
      if (type.struct) {
        return Object.fromEntries(type.struct.fields.map((f) => [f.name, zeroFillValue(f.type as DataType)]));
      }
      return new Array(type.byteSize).fill(0);
    default:
      return 0;
  }
}

function smallIntBounds(storage: { bits: number; signed: boolean }): [bigint, bigint] {
  const [lo, hi] = smallIntRange(storage);
  return [BigInt(lo), BigInt(hi)];
}

/**
 * Decode a JSON fill value (or a scalar a caller passes to `set`) for `type`:
 * numbers for <=32-bit integers and floats, bigint for 64-bit integers,
 * [re, im] for complex, bytes for r<N>. Anything out of range or of the wrong
 * kind is an InvalidMetadataError naming `field`.
 */
export function parseScalar(value: unknown, type: DataType, field = "fill_value"): Scalar {
  const bad = (why: string): never => {
    throw new InvalidMetadataError(`${field}: ${why} for data type ${type.name}, got ${show(value)}`, { field });
  };
  switch (type.kind) {
    case "bool":
      if (typeof value === "boolean") return value;
      return bad("expected true or false");
    case "int":
    case "uint": {
      let n: bigint;
      if (value === "NaT" && type.temporal) return NAT;
      if (typeof value === "bigint") n = value;
      else if (typeof value === "number" && Number.isInteger(value)) n = BigInt(value);
      else if (typeof value === "string" && /^0x[0-9a-f]+$/i.test(value)) n = BigInt(value);
      else return bad("expected an integer");
      const [lo, hi] =
        type.narrow?.kind === "small-int"
          ? smallIntBounds(type.narrow)
          : (INT_RANGES[type.temporal ? "int64" : type.name] as [bigint, bigint]);
      if (n < lo || n > hi) bad(`integer out of range [${lo}, ${hi}]`);
      return type.byteSize === 8 ? n : Number(n);
    }
    case "float":
      if (type.narrow?.kind === "minifloat") return parseMinifloat(value, type.narrow.format, bad);
      if (type.narrow?.kind === "e8m0") return parseE8m0(value, bad);
      return parseFloatValue(value, type.byteSize!, bad);
    case "complex": {
      if (!Array.isArray(value) || value.length !== 2) return bad("expected [re, im]");
      const half = type.byteSize! / 2;
      return [parseFloatValue(value[0], half, bad), parseFloatValue(value[1], half, bad)] as const;
    }
    case "raw": {
      if (type.struct) {
        return parseStructScalar(value, type.struct, field, (v, t, at) => parseScalar(v, t as DataType, at));
      }
      if (value instanceof Uint8Array && value.length === type.byteSize) return value;
      if (
        Array.isArray(value) &&
        value.length === type.byteSize &&
        value.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)
      ) {
        return Uint8Array.from(value as number[]);
      }
      return bad(`expected an array of ${type.byteSize} byte values`);
    }
    case "string":
      if (typeof value === "string") return value;
      return bad("expected a string");
    case "bytes": {
      // zarr-python 3 writes base64 text; a list of byte values is read too.
      if (value instanceof Uint8Array) return value;
      if (typeof value === "string") return bytesFromBase64(value) ?? bad("expected base64 text");
      if (Array.isArray(value) && value.every((b) => Number.isInteger(b) && b >= 0 && b <= 255))
        return Uint8Array.from(value as number[]);
      return bad("expected base64 text, a list of byte values or a Uint8Array");
    }
  }
}

/** The bytes of standard base64 text (padding required, as Python writes it); undefined when it is not base64. */
export function bytesFromBase64(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** Standard base64 text of `bytes`. */
export function base64FromBytes(bytes: Uint8Array): string {
  let binary = "";
  // In pieces: spreading a long array into fromCharCode would overflow the stack.
  for (let i = 0; i < bytes.length; i += 8192) binary += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return btoa(binary);
}

/** Whether two byte strings hold the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function parseFloatValue(value: unknown, byteSize: number, bad: (why: string) => never): number {
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (value === "NaN") return Number.NaN;
  if (value === "Infinity") return Number.POSITIVE_INFINITY;
  if (value === "-Infinity") return Number.NEGATIVE_INFINITY;
  if (typeof value === "string" && /^0x[0-9a-f]+$/i.test(value)) {
    // The raw IEEE bit pattern as an unsigned integer, independent of endianness.
    if (value.length - 2 > byteSize * 2) bad(`hex bit pattern wider than ${byteSize * 8} bits`);
    const bits = BigInt(value);
    if (byteSize === 2) return float16BitsToNumber(Number(bits));
    const view = new DataView(new ArrayBuffer(8));
    if (byteSize === 4) {
      view.setUint32(0, Number(bits));
      return view.getFloat32(0);
    }
    view.setBigUint64(0, bits);
    return view.getFloat64(0);
  }
  return bad('expected a number, "NaN", "Infinity", "-Infinity" or a "0x..." bit pattern');
}

/**
 * A narrow float's fill value: a number (rounded to the format, ties to
 * even), "NaN", "Infinity", "-Infinity" or a "0x..." bit pattern, each only
 * where the format can hold it (float4_e2m1fn has neither NaN nor infinity,
 * float8_e4m3fn no infinity); a number beyond the largest finite value is refused, not rounded to infinity or NaN.
 */
function parseMinifloat(value: unknown, format: MinifloatFormat, bad: (why: string) => never): number {
  if (typeof value === "string" && /^0x[0-9a-f]+$/i.test(value)) {
    const bits = Number.parseInt(value.slice(2), 16);
    if (value.length - 2 > Math.ceil(format.width / 4) || bits >= 2 ** format.width) {
      bad(`hex bit pattern wider than ${format.width} bits`);
    }
    return minifloatToNumber(format, bits);
  }
  const number = parseFloatValue(value, 8, bad);
  const bits = numberToMinifloat(format, number);
  if (bits === undefined) return bad(`NaN has no encoding in ${format.name}`);
  if (Math.abs(number) === Number.POSITIVE_INFINITY) {
    if (format.special !== "ieee") bad(`${format.name} has no infinity`);
  } else if (overflowsMinifloat(format, number)) {
    bad(`beyond the largest finite value ${format.max}`);
  }
  return minifloatToNumber(format, bits);
}

/**
 * float8_e8m0fnu's fill value: a positive number (rounded as ml_dtypes rounds), 0 (the zero byte), "NaN"
 * or a "0x.." byte.
 */
function parseE8m0(value: unknown, bad: (why: string) => never): number {
  if (typeof value === "string" && /^0x[0-9a-f]+$/i.test(value)) {
    if (value.length > 4) bad("hex bit pattern wider than 8 bits");
    return e8m0ToNumber(Number.parseInt(value.slice(2), 16));
  }
  const number = parseFloatValue(value, 8, bad);
  // tensorstore writes 0 for its default fill value, the all-zero byte (2^-127); zero has no encoding otherwise.
  if (number === 0) return e8m0ToNumber(0);
  const bits = numberToE8m0(number);
  if (bits === undefined) return bad("float8_e8m0fnu holds positive powers of two only");
  if (bits === E8M0_NAN && !Number.isNaN(number)) bad("beyond the largest value 2^127");
  return e8m0ToNumber(bits);
}

/** The JSON form of a fill value, as zarr.json stores it. */
export function serializeScalar(value: Scalar, type: DataType): unknown {
  switch (type.kind) {
    case "float":
      return serializeFloat(value as number);
    case "complex": {
      const [re, im] = value as readonly [number, number];
      return [serializeFloat(re), serializeFloat(im)];
    }
    case "raw":
      if (type.struct) {
        return serializeStructScalar(value as Uint8Array, type.struct, (v, t) => serializeScalar(v, t as DataType));
      }
      return Array.from(value as Uint8Array);
    case "bytes":
      return base64FromBytes(value as Uint8Array);
    default:
      return type.temporal && value === NAT ? "NaT" : value;
  }
}

function serializeFloat(value: number): number | string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "Infinity";
  if (value === Number.NEGATIVE_INFINITY) return "-Infinity";
  return value;
}

/** Fill elements [start, end) of `data` with `value`. */
export function fillData(
  data: ArrayData,
  value: Scalar,
  type: DataType,
  start = 0,
  end = data.length / type.lanes,
): void {
  if (Array.isArray(data)) {
    if (type.kind === "bytes" && (value as Uint8Array).length > 0) {
      // A copy per element: one shared Uint8Array would change everywhere (the fill value too) when a caller changes
      // one.
      const bytes = value as Uint8Array;
      for (let i = start; i < end; i++) (data as Uint8Array[])[i] = bytes.slice();
      return;
    }
    (data as unknown[]).fill(value, start, end);
    return;
  }
  const lanes = type.lanes;
  if (lanes === 1) {
    (data as Uint8Array).fill(slotValue(value) as number, start, end);
    return;
  }
  const slots = type.kind === "complex" ? (value as readonly [number, number]) : (value as Uint8Array);
  const out = data as Float64Array;
  if (slots.every((s) => s === slots[0])) {
    out.fill(slots[0]!, start * lanes, end * lanes);
    return;
  }
  for (let i = start * lanes; i < end * lanes; i += lanes) {
    for (let l = 0; l < lanes; l++) out[i + l] = slots[l]!;
  }
}

/** Whether every element of `data` equals `value` (NaN equals NaN). */
export function isAllFill(data: ArrayData, value: Scalar, type: DataType): boolean {
  if (Array.isArray(data)) {
    if (type.kind === "bytes") return (data as Uint8Array[]).every((b) => sameBytes(b, value as Uint8Array));
    return (data as unknown[]).every((s) => s === value);
  }
  const lanes = type.lanes;
  const slots: ArrayLike<number | bigint> =
    lanes === 1
      ? [slotValue(value)]
      : type.kind === "complex"
        ? (value as readonly [number, number])
        : (value as Uint8Array);
  const nanAt = Array.from(slots, (s) => typeof s === "number" && Number.isNaN(s));
  const arr = data as Float64Array;
  for (let i = 0; i < arr.length; i += lanes) {
    for (let l = 0; l < lanes; l++) {
      const v = arr[i + l]!;
      if (v !== slots[l] && !(nanAt[l] && Number.isNaN(v))) return false;
    }
  }
  return true;
}

/** The value one slot of a lanes=1 typed array holds for `value`. */
function slotValue(value: Scalar): number | bigint {
  return typeof value === "boolean" ? (value ? 1 : 0) : (value as number | bigint);
}

function show(value: unknown): string {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array) return `bytes[${value.length}]`;
  return showValue(value);
}
