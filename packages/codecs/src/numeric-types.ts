import { type DataTypeInfo, type NumericArray, UnsupportedError } from "@zarrkit/registry";

type NumericArrayConstructor = {
  new (length: number): NumericArray;
  readonly BYTES_PER_ELEMENT: number;
};

/** A fixed-size integer or float type, as numcodecs filters see it. */
export interface NumericType extends DataTypeInfo {
  readonly kind: "int" | "uint" | "float";
  readonly byteSize: number;
  readonly bigint: boolean;
  readonly arrayType: NumericArrayConstructor;
}

function numeric(name: string, kind: NumericType["kind"], arrayType: NumericArrayConstructor): NumericType {
  const byteSize = arrayType.BYTES_PER_ELEMENT;
  return {
    name,
    kind,
    byteSize,
    lanes: 1,
    bigint: arrayType === BigInt64Array || arrayType === BigUint64Array,
    arrayType,
    allocate: (elements) => new arrayType(elements),
  };
}

// A Map, never a plain object: a dtype such as "toString" from zarr.json must not find Object.prototype.
const TYPES = new Map<string, NumericType>(
  Object.entries({
    int8: numeric("int8", "int", Int8Array),
    int16: numeric("int16", "int", Int16Array),
    int32: numeric("int32", "int", Int32Array),
    int64: numeric("int64", "int", BigInt64Array),
    uint8: numeric("uint8", "uint", Uint8Array),
    uint16: numeric("uint16", "uint", Uint16Array),
    uint32: numeric("uint32", "uint", Uint32Array),
    uint64: numeric("uint64", "uint", BigUint64Array),
    float32: numeric("float32", "float", Float32Array),
    float64: numeric("float64", "float", Float64Array),
  }),
);

const NUMPY_KIND: Record<string, string> = { i: "int", u: "uint", f: "float" };

/**
 * The type a numcodecs dtype string names: a Zarr v3 / NumPy name ("int32")
 * or a NumPy type string ("<i4", "|u1", "i4"). Undefined when it names no
 * type at all; UnsupportedError (naming `field`) for types that exist but
 * that a numcodecs filter cannot handle here.
 */
export function numericType(dtype: string, field: string): NumericType | undefined {
  const unsupported = (why: string) => new UnsupportedError(`${field}: ${why}`, { field });
  const named = TYPES.get(dtype);
  if (named) return named;
  if (dtype === "float16" || dtype === "bool" || dtype.startsWith("complex")) {
    throw unsupported(`data type ${dtype} is not supported`);
  }
  const match = /^([<>|=]?)([iuf])(\d+)$/.exec(dtype);
  if (!match) return undefined;
  const [, order, kind, size] = match as unknown as [string, string, string, string];
  if (kind === "f" && size === "2") throw unsupported(`data type ${dtype} (float16) is not supported`);
  const type = TYPES.get(`${NUMPY_KIND[kind]}${Number(size) * 8}`);
  // Decoded chunks are in native (little-endian) order: a big-endian view of them means nothing to a filter.
  if (type && order === ">" && type.byteSize > 1)
    throw unsupported(`big-endian dtype ${dtype} is not supported; use "<${kind}${size}"`);
  return type;
}
