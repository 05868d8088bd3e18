import { showValue } from "@zarrkit/registry";
import type { ArrayMetadata } from "./metadata/documents.js";
import { type ArrayData, type DataTypeInfo, InvalidMetadataError, UnsupportedError } from "@zarrkit/registry";
import { MINIFLOAT_FORMATS } from "./minifloat.js";
import type { NarrowStorage } from "./narrow-storage.js";
import { parseStructFields, type StructLayout, structFieldsJSON } from "./struct-type.js";
import { parseTemporalConfiguration, parseTemporalName, type Temporal, temporalName } from "./temporal-types.js";

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
  /** The in-memory array class; undefined for the types held in JS arrays (`string[]`, `Uint8Array[]`). */
  readonly arrayType: TypedArrayConstructor | undefined;
  /** Bytes of one slot of the stored representation (2 for float16 even when held as Float32Array). */
  readonly storedSlotSize: number;
  /** float16 held in a Float32Array because the runtime lacks Float16Array. */
  readonly widenedFloat16: boolean;
  /** Types stored narrower than held (narrow floats, int2/int4/uint2/uint4): how the `bytes` codec converts them. */
  readonly narrow?: NarrowStorage;
  /** numpy.datetime64 / numpy.timedelta64: the unit its int64 counts are in (NaT is -2^63). */
  readonly temporal?: Temporal;
  /** `struct`: its fields; held as packed little-endian records in a Uint8Array (see struct-type.ts). */
  readonly struct?: StructLayout;
  /**
   * For types numpy holds as objects (`|O`): the id of the numcodecs object
   * codec that stores them in Zarr v2 (zarr-python's `object_codec_id`).
   * Core's v2 mapping picks a `|O` array's data type by the id of its first
   * filter with it, and gives new v2 arrays of the type that filter.
   */
  readonly objectCodecId?: string;
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

/**
 * A narrow float (bfloat16, float8_*, float6_*, float4_*) held as float32:
 * every value of these formats is a float32 value.
 */
function minifloat(name: string): [string, DataType] {
  const format = MINIFLOAT_FORMATS.get(name)!;
  const byteSize = format.width > 8 ? 2 : 1;
  const type = numeric(name, "float", Float32Array, byteSize);
  return [name, { ...type, storedSlotSize: byteSize, narrow: { kind: "minifloat", format } }];
}

/** int2, int4, uint2, uint4: one element per stored byte, held in an Int8Array or Uint8Array. */
function smallInt(name: string, bits: number, signed: boolean): [string, DataType] {
  const type = numeric(name, signed ? "int" : "uint", signed ? Int8Array : Uint8Array, 1);
  return [name, { ...type, narrow: { kind: "small-int", bits, signed } }];
}

/**
 * The element every new variable_length_bytes slot holds: zero-length, so it
 * cannot be changed through any of the arrays sharing it.
 */
const EMPTY_BYTES = new Uint8Array(0);

// A Map, never a plain object: a name from zarr.json such as "toString" or "__proto__" must not find Object.prototype.
const CORE_TYPES = new Map<string, DataType>(
  Object.entries({
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
      objectCodecId: "vlen-utf8",
      allocate: (elements) => new Array<string>(elements).fill(""),
    } satisfies DataType,
    // zarr-python 3's VariableLengthBytes; held as Uint8Array[] (fill value: empty byte strings).
    variable_length_bytes: {
      name: "variable_length_bytes",
      kind: "bytes",
      byteSize: undefined,
      lanes: 1,
      arrayType: undefined,
      storedSlotSize: 0,
      widenedFloat16: false,
      objectCodecId: "vlen-bytes",
      allocate: (elements) => new Array<Uint8Array>(elements).fill(EMPTY_BYTES),
    } satisfies DataType,
    ...Object.fromEntries([
      ...[...MINIFLOAT_FORMATS.keys()].map(minifloat),
      ["float8_e8m0fnu", { ...numeric("float8_e8m0fnu", "float", Float32Array, 1), narrow: { kind: "e8m0" } }],
      smallInt("int2", 2, true),
      smallInt("int4", 4, true),
      smallInt("uint2", 2, false),
      smallInt("uint4", 4, false),
    ]),
  }),
);

/**
 * zarr-python 3 also reads the zarr-extensions name `bytes` as
 * variable_length_bytes (and writes `variable_length_bytes`).
 */
const ALIASES = new Map<string, string>([["bytes", "variable_length_bytes"]]);

/** The types numpy holds as objects (`|O`), by the id of their numcodecs object codec. */
const OBJECT_TYPES = new Map<string, DataType>(
  [...CORE_TYPES.values()].filter((t) => t.objectCodecId !== undefined).map((t) => [t.objectCodecId!, t]),
);

/**
 * The core type of a `|O` array whose first filter (object codec) has id
 * `codecId`. Object codecs no data type declares (json2, or one registered
 * by the application) hold strings, as before variable-length bytes existed;
 * the codec itself refuses a data type it cannot store when it is built.
 */
export function objectDataType(codecId: unknown): DataType {
  return (typeof codecId === "string" ? OBJECT_TYPES.get(codecId) : undefined) ?? CORE_TYPES.get("string")!;
}

/** Widest raw type `r<N>` read: 1 MiB per element (N = 2^23 bits); wider ones could not fill a chunk anyway. */
const MAX_RAW_BITS = 2 ** 23;

const rawTypes = new Map<string, DataType>();

/**
 * Fixed-width strings, as numpy stores them and zarr-python 3 names them:
 * `fixed_length_utf32` (numpy `U n`: n UTF-32 code units, 4n bytes, the
 * byte order given by the `bytes` codec) and `null_terminated_bytes` (numpy
 * `S n`: n bytes, read as Latin-1). Held as `string[]` with trailing NULs
 * removed. The in-process name carries the width in bytes
 * (`fixed_length_utf32:52`), so it resolves again by name alone (codec
 * workers, codecs that rebuild the type from `ChunkSpec.dataType.name`).
 */
export const FIXED_STRING_TYPES: ReadonlySet<string> = new Set(["fixed_length_utf32", "null_terminated_bytes"]);

/** Widest fixed-width string element: 1 MiB, as for raw types. */
const MAX_FIXED_STRING_BYTES = 2 ** 20;

const fixedStringTypes = new Map<string, DataType>();

function fixedString(base: string, lengthBytes: number): DataType {
  const name = `${base}:${lengthBytes}`;
  let type = fixedStringTypes.get(name);
  if (!type) {
    type = {
      name,
      kind: "string",
      byteSize: lengthBytes,
      lanes: 1,
      arrayType: undefined,
      storedSlotSize: base === "fixed_length_utf32" ? 4 : 1,
      widenedFloat16: false,
      allocate: (elements) => new Array<string>(elements).fill(""),
    };
    fixedStringTypes.set(name, type);
  }
  return type;
}

/** The fixed-width string type of `base` ("fixed_length_utf32" or "null_terminated_bytes") and width in bytes. */
export function fixedStringType(base: string, lengthBytes: unknown, field: string): DataType {
  const unit = base === "fixed_length_utf32" ? 4 : 1;
  if (!Number.isSafeInteger(lengthBytes) || (lengthBytes as number) <= 0 || (lengthBytes as number) % unit !== 0) {
    throw new InvalidMetadataError(
      `${field}: ${base} needs length_bytes, a positive multiple of ${unit}, got ${showValue(lengthBytes)}`,
      { field },
    );
  }
  if ((lengthBytes as number) > MAX_FIXED_STRING_BYTES) {
    throw new UnsupportedError(
      `${field}: ${base} of ${showValue(lengthBytes)} bytes is wider than ${MAX_FIXED_STRING_BYTES}`,
      { field },
    );
  }
  return fixedString(base, lengthBytes as number);
}

/** For a fixed-width string type: its metadata name and width in bytes; else undefined. */
export function fixedStringParts(type: DataType): { base: string; lengthBytes: number } | undefined {
  const colon = type.name.indexOf(":");
  if (type.kind !== "string" || colon < 0) return undefined;
  return { base: type.name.slice(0, colon), lengthBytes: type.byteSize! };
}

const temporalTypes = new Map<string, DataType>();

/** The numpy.datetime64 / numpy.timedelta64 type of `t`: int64 counts in a BigInt64Array. */
function temporalType(t: Temporal): DataType {
  const name = temporalName(t);
  let type = temporalTypes.get(name);
  if (!type) {
    type = { ...numeric(name, "int", BigInt64Array, 8), temporal: t };
    temporalTypes.set(name, type);
  }
  return type;
}

const structTypes = new Map<string, DataType>();

/**
 * A struct type: kind "raw" (records move as `lanes` bytes), named `struct` plus its fields' JSON so that the name
 * alone resolves it again (codec workers). `storedSlotSize` is its widest field slot: the `bytes` codec needs an
 * endian when it is above 1.
 */
function structType(layout: StructLayout): DataType {
  const name = `struct${JSON.stringify(structFieldsJSON(layout, (t) => dataTypeJSON(t as DataType)))}`;
  let type = structTypes.get(name);
  if (!type) {
    const slot = Math.max(...layout.fields.map((f) => f.type.storedSlotSize));
    type = { ...numeric(name, "raw", Uint8Array, layout.size, layout.size, 1), storedSlotSize: slot, struct: layout };
    structTypes.set(name, type);
  }
  return type;
}

/** The struct type of these fields (core types), as Zarr v2's structured dtypes give them. */
export function structTypeOf(fields: { name: string; type: DataType }[], field: string): DataType {
  const json = { fields: fields.map((f) => ({ name: f.name, data_type: dataTypeJSON(f.type) })) };
  return structType(parseStructFields(json, field, false, (v, at) => dataType(v, at)));
}

/** zarr.json's names of the temporal types (`datetime64`: the registry's earlier name, read only). */
const TEMPORAL_NAMES = new Map<string, Temporal["kind"]>([
  ["numpy.datetime64", "datetime64"],
  ["numpy.timedelta64", "timedelta64"],
  ["datetime64", "datetime64"],
]);

/** The data type of a Temporal. */
export function dataTypeOfTemporal(t: Temporal): DataType {
  return temporalType(t);
}

/** How zarr.json names a data type: a string, or `{name, configuration}` for fixed-width strings and temporal types. */
export function dataTypeJSON(type: DataType): ArrayMetadata["data_type"] {
  if (type.struct) {
    const fields = structFieldsJSON(type.struct, (t) => dataTypeJSON(t as DataType));
    return { name: "struct", configuration: { fields } };
  }
  if (type.temporal) {
    const { kind, unit, scaleFactor } = type.temporal;
    return { name: `numpy.${kind}`, configuration: { unit, scale_factor: scaleFactor } };
  }
  const parts = fixedStringParts(type);
  return parts ? { name: parts.base, configuration: { length_bytes: parts.lengthBytes } } : type.name;
}

/** The data type named in zarr.json (`data_type` as a string or `{name}` object). */
export function dataType(value: unknown, field = "data_type"): DataType {
  const name =
    typeof value === "object" && value !== null && "name" in value ? (value as { name: unknown }).name : value;
  if (typeof name !== "string") {
    throw new InvalidMetadataError(`${field} must be a data type name, got ${showValue(value)}`, { field });
  }
  const core = CORE_TYPES.get(ALIASES.get(name) ?? name);
  if (core) return core;
  if (FIXED_STRING_TYPES.has(name)) {
    const configuration =
      typeof value === "object" && value !== null ? (value as { configuration?: unknown }).configuration : undefined;
    const length =
      typeof configuration === "object" && configuration !== null && Object.hasOwn(configuration, "length_bytes")
        ? (configuration as { length_bytes: unknown }).length_bytes
        : undefined;
    return fixedStringType(name, length, `${field}.configuration.length_bytes`);
  }
  if (name === "struct" || name === "structured") {
    const configuration =
      typeof value === "object" && value !== null ? (value as { configuration?: unknown }).configuration : undefined;
    return structType(parseStructFields(configuration, field, name === "structured", (v, at) => dataType(v, at)));
  }
  if (name.startsWith("struct[")) {
    let fields: unknown;
    try {
      fields = JSON.parse(name.slice("struct".length));
    } catch {
      throw new InvalidMetadataError(`${field}: ${showValue(name)} is not a struct type name`, { field });
    }
    return structType(parseStructFields({ fields }, field, false, (v, at) => dataType(v, at)));
  }
  const temporalKind = TEMPORAL_NAMES.get(name);
  if (temporalKind) {
    const configuration =
      typeof value === "object" && value !== null ? (value as { configuration?: unknown }).configuration : undefined;
    return temporalType(parseTemporalConfiguration(temporalKind, configuration, field));
  }
  const temporal = parseTemporalName(name, field);
  if (temporal) return temporalType(temporal);
  const fixed = /^(fixed_length_utf32|null_terminated_bytes):(\d+)$/.exec(name);
  if (fixed) return fixedStringType(fixed[1]!, Number(fixed[2]), field);
  const raw = /^r(\d+)$/.exec(name);
  if (raw) {
    const bits = Number(raw[1]);
    if (bits > MAX_RAW_BITS) {
      throw new UnsupportedError(`${field}: raw data type ${showValue(name)} is wider than r${MAX_RAW_BITS}`, {
        field,
      });
    }
    if (bits === 0 || bits % 8 !== 0) {
      throw new InvalidMetadataError(
        `${field}: raw data type ${name} must have a bit count that is a positive multiple of 8`,
        { field },
      );
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
  if (type.arrayType) return type.arrayType.name;
  return type.kind === "bytes" ? "Uint8Array[]" : "string[]";
}
