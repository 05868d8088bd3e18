import { showValue } from "@zarrkit/registry";
import { type ArrayData, type DataTypeInfo, InvalidMetadataError, UnsupportedError } from "@zarrkit/registry";

type TypedArrayConstructor =
  | Int8ArrayConstructor
  | Uint8ArrayConstructor
  | Int16ArrayConstructor
  | Uint16ArrayConstructor
  | Int32ArrayConstructor
  | Uint32ArrayConstructor
  | Float32ArrayConstructor
  | Float64ArrayConstructor
  | BigInt64ArrayConstructor
  | BigUint64ArrayConstructor;

/** A core data type: DataTypeInfo plus what core's codecs need to move it to and from bytes. */
export interface DataType extends DataTypeInfo {
  /** The in-memory array class; undefined for `string`. */
  readonly arrayType: TypedArrayConstructor | undefined;
  /** Bytes of one slot of the stored representation (2 for float16 even when held as Float32Array). */
  readonly storedSlotSize: number;
  /** float16 held in a Float32Array because the runtime lacks Float16Array. */
  readonly widenedFloat16: boolean;
}

const Float16ArrayCtor = (globalThis as { Float16Array?: Float32ArrayConstructor }).Float16Array;

function numeric(
  name: string,
  kind: DataType["kind"],
  arrayType: TypedArrayConstructor,
  byteSize: number,
  lanes = 1,
  storedSlotSize = byteSize / lanes,
): DataType {
  return {
    name,
    kind,
    byteSize,
    lanes,
    arrayType,
    storedSlotSize,
    widenedFloat16: name === "float16" && arrayType === Float32Array,
    allocate: (elements) => new arrayType(elements * lanes),
  };
}

// A Map, never a plain object: a name from zarr.json such as "toString" or "__proto__" must not find Object.prototype.
const CORE_TYPES = new Map<string, DataType>(Object.entries({
  bool: numeric("bool", "bool", Uint8Array, 1),
  int8: numeric("int8", "int", Int8Array, 1),
  int16: numeric("int16", "int", Int16Array, 2),
  int32: numeric("int32", "int", Int32Array, 4),
  int64: numeric("int64", "int", BigInt64Array, 8),
  uint8: numeric("uint8", "uint", Uint8Array, 1),
  uint16: numeric("uint16", "uint", Uint16Array, 2),
  uint32: numeric("uint32", "uint", Uint32Array, 4),
  uint64: numeric("uint64", "uint", BigUint64Array, 8),
  float16: numeric("float16", "float", Float16ArrayCtor ?? Float32Array, 2),
  float32: numeric("float32", "float", Float32Array, 4),
  float64: numeric("float64", "float", Float64Array, 8),
  complex64: numeric("complex64", "complex", Float32Array, 8, 2),
  complex128: numeric("complex128", "complex", Float64Array, 16, 2),
  string: {
    name: "string",
    kind: "string",
    byteSize: undefined,
    lanes: 1,
    arrayType: undefined,
    storedSlotSize: 0,
    widenedFloat16: false,
    allocate: (elements) => new Array<string>(elements).fill(""),
  } satisfies DataType,
}));

/** Widest raw type `r<N>` read: 1 MiB per element (N = 2^23 bits); wider ones could not fill a chunk anyway. */
const MAX_RAW_BITS = 2 ** 23;

const rawTypes = new Map<string, DataType>();

/** The data type named in zarr.json (`data_type` as a string or `{name}` object). */
export function dataType(value: unknown, field = "data_type"): DataType {
  const name = typeof value === "object" && value !== null && "name" in value ? (value as { name: unknown }).name : value;
  if (typeof name !== "string") {
    throw new InvalidMetadataError(`${field} must be a data type name, got ${showValue(value)}`, { field });
  }
  const core = CORE_TYPES.get(name);
  if (core) return core;
  const raw = /^r(\d+)$/.exec(name);
  if (raw) {
    const bits = Number(raw[1]);
    if (bits > MAX_RAW_BITS) {
      throw new UnsupportedError(`${field}: raw data type ${showValue(name)} is wider than r${MAX_RAW_BITS}`, { field });
    }
    if (bits === 0 || bits % 8 !== 0) {
      throw new InvalidMetadataError(`${field}: raw data type ${name} must have a bit count that is a positive multiple of 8`, { field });
    }
    let type = rawTypes.get(name);
    if (!type) {
      type = numeric(name, "raw", Uint8Array, bits / 8, bits / 8, 1);
      rawTypes.set(name, type);
    }
    return type;
  }
  throw new UnsupportedError(`${field}: unsupported data type ${showValue(name)}`, { field });
}

/** Whether `data` is the in-memory representation of `type` (e.g. BigInt64Array for int64). */
export function isDataOfType(data: unknown, type: DataType): data is ArrayData {
  if (type.arrayType === undefined) return Array.isArray(data);
  return data instanceof type.arrayType;
}

/** A name for the in-memory class of `type`, for error messages. */
export function dataClassName(type: DataType): string {
  return type.arrayType ? type.arrayType.name : "string[]";
}
