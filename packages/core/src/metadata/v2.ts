/**
 * Zarr v2: `.zarray` / `.zgroup` documents, numpy dtype strings and v2 fill
 * values. A v2 array is expressed as a v3 codec chain, with no codec name
 * special-cased: `[transpose (order "F"), each filter as "numcodecs.<id>",
 * bytes with the dtype's byte order (none for object arrays, whose first
 * filter is the object codec), the compressor as "numcodecs.<id>"]`.
 */
import { type CodecMetadata, InvalidMetadataError, type Scalar, showValue, UnsupportedError } from "@zarrkit/registry";
import {
  type DataType,
  dataType,
  dataTypeOfTemporal,
  fixedStringParts,
  structTypeOf,
  fixedStringType,
  objectDataType,
} from "../data-types.js";
import { base64FromBytes, bytesFromBase64, parseScalar, serializeScalar, zeroFillValue } from "../fill-value.js";
import { parseChunkGrid } from "../grid/chunk-grid.js";
import { swapStructBytes } from "../struct-type.js";
import { temporalFromNumpy, temporalNumpyDtype } from "../temporal-types.js";
import { chunkKeyEncoding } from "../grid/chunk-key-encoding.js";
import type { ArrayMetadataV2, GroupMetadataV2 } from "./documents.js";
import { checkChunkSize, type ParsedArrayMetadata, withKey } from "./node-metadata.js";

export type Endian = "little" | "big";

/** A numpy dtype string resolved: the core data type, its byte order and whether it is numpy's object dtype. */
/** A numpy dtype string, parsed. */
export interface NumpyType {
  /** The core data type. */
  type: DataType;
  /** undefined for single-byte types and object arrays. */
  endian: Endian | undefined;
  /** An object array (`|O`). */
  object: boolean;
}

// Maps, never plain objects: a dtype from .zarray such as "<constructor" must find nothing.
const NUMERIC = new Map<string, string>(
  Object.entries({
    b1: "bool",
    i1: "int8",
    i2: "int16",
    i4: "int32",
    i8: "int64",
    u1: "uint8",
    u2: "uint16",
    u4: "uint32",
    u8: "uint64",
    f2: "float16",
    f4: "float32",
    f8: "float64",
    c8: "complex64",
    c16: "complex128",
  }),
);
const NUMPY_OF = new Map<string, string>([...NUMERIC].map(([code, name]) => [name, code]));

const NO_V3_TYPE = new Map<string, string>(Object.entries({ V: "void (raw bytes)" }));

/**
 * The core data type of a numpy dtype string such as "<i2", ">f4", "|b1",
 * "<U13", "|S7" or "|O". For "|O" the type is the one whose object codec is
 * `objectCodecId` (the id of the array's first filter): `variable_length_bytes`
 * for vlen-bytes, else `string`.
 */
export function parseNumpyDtype(value: unknown, field = "dtype", objectCodecId?: unknown): NumpyType {
  if (Array.isArray(value)) return parseStructuredDtype(value, field);
  if (typeof value !== "string")
    throw new InvalidMetadataError(`${field} must be a numpy dtype string, got ${showValue(value)}`, { field });
  const match = /^([<>|])([a-zA-Z])(\d*)(\[\w+\])?$/.exec(value);
  if (!match)
    throw new InvalidMetadataError(
      `${field}: ${showValue(value)} is not a numpy dtype string (e.g. "<i2", "|u1", ">f8")`,
      { field },
    );
  const [, order, kind, digits, unit] = match as unknown as [string, string, string, string, string | undefined];
  const unsupported = NO_V3_TYPE.get(kind);
  if (unsupported) {
    throw new UnsupportedError(
      `${field}: dtype ${showValue(value)} is ${unsupported}, which has no Zarr v3 data type; it is not supported`,
      { field },
    );
  }
  const orderEndian: Endian | undefined = order === "<" ? "little" : order === ">" ? "big" : undefined;
  if ((kind === "M" || kind === "m") && digits === "8" && orderEndian !== undefined) {
    return { type: dataTypeOfTemporal(temporalFromNumpy(kind, unit, field)), endian: orderEndian, object: false };
  }
  if (unit !== undefined) {
    throw new InvalidMetadataError(`${field}: ${showValue(value)} is not a numpy dtype string`, { field });
  }
  if (kind === "O") {
    if (digits !== "" && digits !== "8")
      throw new InvalidMetadataError(`${field}: ${showValue(value)} is not a numpy dtype string`, { field });
    return { type: objectDataType(objectCodecId), endian: undefined, object: true };
  }
  if (kind === "U" || kind === "S") {
    const n = Number(digits);
    if (digits === "" || n === 0) {
      throw new InvalidMetadataError(`${field}: ${showValue(value)} needs a positive length (e.g. "<U13", "|S7")`, {
        field,
      });
    }
    if (kind === "U")
      return {
        type: fixedStringType("fixed_length_utf32", n * 4, field),
        endian: orderEndian ?? "little",
        object: false,
      };
    return { type: fixedStringType("null_terminated_bytes", n, field), endian: undefined, object: false };
  }
  if (digits === "")
    throw new InvalidMetadataError(`${field}: ${showValue(value)} needs an item size (e.g. "<i2")`, { field });
  const name = NUMERIC.get(`${kind}${digits}`);
  if (name === undefined) {
    throw new UnsupportedError(`${field}: dtype ${showValue(value)} has no Zarr v3 data type; it is not supported`, {
      field,
    });
  }
  const type = dataType(name);
  if (type.storedSlotSize === 1) return { type, endian: undefined, object: false };
  if (orderEndian === undefined) {
    throw new InvalidMetadataError(
      `${field}: ${showValue(value)} needs a byte order ("<" or ">") for a ${type.byteSize}-byte type`,
      { field },
    );
  }
  return { type, endian: orderEndian, object: false };
}

/**
 * A numpy structured dtype (`[["id", "<i4"], ["value", ">f8"], ...]`, nested lists for nested records) as the
 * `struct` type. Its multi-byte fields must share one byte order (v3 has one per array); subarray fields
 * (`[name, dtype, shape]`) are not supported.
 */
function parseStructuredDtype(value: unknown[], field: string): NumpyType {
  const fields: { name: string; type: DataType }[] = [];
  const orders = new Set<Endian>();
  for (const [i, entry] of value.entries()) {
    const at = `${field}[${i}]`;
    if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== "string") {
      const subarray = Array.isArray(entry) && entry.length === 3;
      const why = subarray ? "subarray fields are not supported" : "must be [name, dtype]";
      throw new UnsupportedError(`${at}: ${showValue(entry)}: ${why}`, { field: at });
    }
    const np = parseNumpyDtype(entry[1], `${at}[1]`);
    if (np.object) throw new UnsupportedError(`${at}[1]: object fields are not supported`, { field: `${at}[1]` });
    if (np.endian && np.type.storedSlotSize > 1) orders.add(np.endian);
    fields.push({ name: entry[0], type: np.type });
  }
  if (orders.size > 1) {
    throw new UnsupportedError(`${field}: fields in both byte orders; Zarr v3 (and zarrkit) have one per array`, {
      field,
    });
  }
  return { type: structTypeOf(fields, field), endian: [...orders][0], object: false };
}

/** The numpy dtype string for a core data type (`endian` for multi-byte types; default little). */
export function numpyDtypeOf(type: DataType, endian: Endian = "little", field = "dataType"): string {
  const order = endian === "big" ? ">" : "<";
  if (type.objectCodecId !== undefined) return "|O";
  const fixed = fixedStringParts(type);
  if (fixed)
    return fixed.base === "fixed_length_utf32" ? `${order}U${fixed.lengthBytes / 4}` : `|S${fixed.lengthBytes}`;
  if (type.temporal) return temporalNumpyDtype(type.temporal, order);
  const code = NUMPY_OF.get(type.name);
  if (code === undefined)
    throw new UnsupportedError(`${field}: data type ${type.name} cannot be stored in Zarr v2`, { field });
  return `${type.storedSlotSize === 1 ? "|" : order}${code}`;
}

/** The .zarray `dtype` of a core data type: numpyDtypeOf's string, or the field list of a struct. */
export function numpyDescrOf(
  type: DataType,
  endian: Endian = "little",
  field = "dataType",
): string | [string, unknown][] {
  if (!type.struct) return numpyDtypeOf(type, endian, field);
  return type.struct.fields.map((f) => [f.name, numpyDescrOf(f.type as DataType, endian, field)]);
}

/** Latin-1 text from base64 (v2 stores `S n` fill values as base64 of the bytes). */
function latin1FromBase64(text: string, field: string): string {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) {
    throw new InvalidMetadataError(
      `${field}: ${showValue(text)} is not base64 (fixed-width byte strings store their fill value so)`,
      { field },
    );
  }
  return atob(text).replace(/\0+$/, "");
}

/**
 * A v2 fill_value: null means "none given" and reads as zero ("" for
 * strings); floats may be "NaN", "Infinity", "-Infinity"; `S n` values are
 * base64; object arrays of strings take a string, of variable-length bytes
 * base64 text or a list of byte values (zarr-python 2 writes 0 there; read
 * as "" or no bytes).
 */
export function parseFillValueV2(value: unknown, np: NumpyType, field = "fill_value"): Scalar {
  if (value === null || value === undefined) return parseScalar(zeroFillValue(np.type), np.type, field);
  if (np.type.struct) return structFillValueV2(value, np, field);
  if (np.object && np.type.kind === "bytes")
    return parseScalar(typeof value === "string" || Array.isArray(value) ? value : "", np.type, field);
  if (np.object) return typeof value === "string" ? value : "";
  const fixed = fixedStringParts(np.type);
  if (fixed?.base === "null_terminated_bytes") {
    if (typeof value !== "string")
      throw new InvalidMetadataError(`${field}: expected base64 text for dtype |S, got ${showValue(value)}`, { field });
    const text = latin1FromBase64(value, field);
    if (text.length > fixed.lengthBytes)
      throw new InvalidMetadataError(`${field}: ${fixed.lengthBytes} bytes at most, got ${text.length}`, { field });
    return text;
  }
  if (fixed && typeof value === "string" && [...value].length > fixed.lengthBytes / 4) {
    throw new InvalidMetadataError(`${field}: ${fixed.lengthBytes / 4} characters at most, got ${showValue(value)}`, {
      field,
    });
  }
  if (np.type.kind === "int" || np.type.kind === "uint") {
    // zarr-python may write integral floats (0.0) for integer dtypes.
    if (typeof value === "number" && Number.isFinite(value) && Number.isInteger(value))
      return parseScalar(value, np.type, field);
  }
  return parseScalar(value, np.type, field);
}

/** zarr-python 2 stores a structured fill value as base64 of the record in the dtype's byte order. */
function structFillValueV2(value: unknown, np: NumpyType, field: string): Scalar {
  const layout = np.type.struct!;
  const bytes = typeof value === "string" ? bytesFromBase64(value) : undefined;
  if (!bytes || bytes.length !== layout.size) {
    const why = `expected base64 of ${layout.size} bytes for a structured dtype, got ${showValue(value)}`;
    throw new InvalidMetadataError(`${field}: ${why}`, { field });
  }
  if (np.endian === "big") swapStructBytes(bytes, layout, 1);
  return bytes;
}

/** The JSON form of a fill value in .zarray. */
export function serializeFillValueV2(value: Scalar, np: NumpyType): unknown {
  const float = (v: number) =>
    Number.isNaN(v) ? "NaN" : v === Infinity ? "Infinity" : v === -Infinity ? "-Infinity" : v;
  if (fixedStringParts(np.type)?.base === "null_terminated_bytes") return btoa(value as string);
  if (np.type.struct) {
    // base64 of the record in the dtype's byte order, as zarr-python 2 writes it.
    const record = Uint8Array.prototype.slice.call(value as Uint8Array);
    if (np.endian === "big") swapStructBytes(record, np.type.struct, 1);
    return base64FromBytes(record);
  }
  switch (np.type.kind) {
    case "float":
      return float(value as number);
    case "complex": {
      const [re, im] = value as readonly [number, number];
      return [float(re), float(im)];
    }
    case "bytes": // base64, as zarr-python 3 writes it
      return serializeScalar(value, np.type);
    default:
      return value;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A numcodecs configuration (`{"id": ..., ...}`) as a v3 codec entry `numcodecs.<id>` with the other fields as
 * configuration.
 */
function numcodecsEntry(value: unknown, key: string, field: string): CodecMetadata {
  if (!isRecord(value) || typeof value.id !== "string" || value.id === "") {
    throw new InvalidMetadataError(
      `${key}: ${field} must be a numcodecs configuration {"id": ..., ...}, got ${showValue(value)}`,
      { key, field },
    );
  }
  const { id, ...configuration } = value;
  return { name: `numcodecs.${id}`, configuration };
}

/** .zattrs (absent: no attributes). */
export function parseAttributesV2(doc: unknown, key: string): Record<string, unknown> {
  if (doc === undefined) return {};
  if (!isRecord(doc)) throw new InvalidMetadataError(`${key} must hold a JSON object`, { key });
  return doc;
}

export function parseGroupMetadataV2(doc: unknown, key: string): GroupMetadataV2 {
  if (!isRecord(doc)) throw new InvalidMetadataError(`${key} must hold a JSON object`, { key });
  if (doc.zarr_format !== 2) {
    throw new UnsupportedError(`${key}: zarr_format must be 2, got ${showValue(doc.zarr_format)}`, {
      key,
      field: "zarr_format",
    });
  }
  return doc as GroupMetadataV2;
}

/**
 * A .zarray document (with the attributes of .zattrs) as an array zarrkit reads and writes through a v3 codec chain.
 */
export function parseArrayMetadataV2(
  doc: unknown,
  key: string,
  attributes: Record<string, unknown> = {},
): ParsedArrayMetadata {
  if (!isRecord(doc)) throw new InvalidMetadataError(`${key} must hold a JSON object`, { key });
  const fail = (field: string, why: string): never => {
    throw new InvalidMetadataError(`${key}: ${field} ${why}`, { key, field });
  };
  if (doc.zarr_format !== 2) {
    throw new UnsupportedError(`${key}: zarr_format must be 2, got ${showValue(doc.zarr_format)}`, {
      key,
      field: "zarr_format",
    });
  }
  for (const field of ["shape", "chunks", "dtype", "compressor", "fill_value", "order", "filters"]) {
    if (!Object.hasOwn(doc, field)) fail(field, "is required");
  }
  const shape = doc.shape;
  if (!Array.isArray(shape) || !shape.every((n) => Number.isSafeInteger(n) && n >= 0)) {
    fail("shape", `must be a list of non-negative integers below 2^53, got ${showValue(shape)}`);
  }
  const rank = (shape as number[]).length;
  const chunks = doc.chunks;
  if (!Array.isArray(chunks) || !chunks.every((n) => Number.isSafeInteger(n) && n >= 1)) {
    fail("chunks", `must be a list of positive integers, got ${showValue(chunks)}`);
  }
  if ((chunks as number[]).length !== rank)
    fail("chunks", `has ${(chunks as number[]).length} entries where shape has ${rank}`);
  // A "|O" array's element type is the one its object codec (first filter) stores.
  const objectCodecId = Array.isArray(doc.filters) && isRecord(doc.filters[0]) ? doc.filters[0].id : undefined;
  const np = withKey(key, () => parseNumpyDtype(doc.dtype, "dtype", objectCodecId));
  const order = doc.order;
  if (order !== "C" && order !== "F") fail("order", `must be "C" or "F", got ${showValue(order)}`);
  const separator = doc.dimension_separator ?? ".";
  if (separator !== "." && separator !== "/")
    fail("dimension_separator", `must be "." or "/", got ${showValue(separator)}`);
  const filters = doc.filters ?? [];
  if (!Array.isArray(filters)) fail("filters", `must be null or a list, got ${showValue(filters)}`);
  const codecs: CodecMetadata[] = [];
  const codecFields: string[] = [];
  if (order === "F" && rank > 1) {
    // An "F" chunk is the C-order chunk with its axes reversed; filters see it so (numcodecs flattens with order "A").
    codecs.push({ name: "transpose", configuration: { order: Array.from({ length: rank }, (_, d) => rank - 1 - d) } });
    codecFields.push("order");
  }
  for (const [i, filter] of (filters as unknown[]).entries()) {
    codecs.push(numcodecsEntry(filter, key, `filters[${i}]`));
    codecFields.push(`filters[${i}]`);
  }
  if (np.object) {
    if ((filters as unknown[]).length === 0) {
      fail("filters", 'must start with an object codec (e.g. {"id": "vlen-utf8"}) for dtype "|O"');
    }
  } else {
    codecs.push(np.endian ? { name: "bytes", configuration: { endian: np.endian } } : { name: "bytes" });
    codecFields.push("dtype");
  }
  if (doc.compressor !== null) {
    codecs.push(numcodecsEntry(doc.compressor, key, "compressor"));
    codecFields.push("compressor");
  }
  const grid = withKey(key, () =>
    parseChunkGrid({ name: "regular", configuration: { chunk_shape: chunks } }, shape as number[], "chunks"),
  );
  checkChunkSize(grid, np.type, key, "chunks");
  const fillValue = withKey(key, () => parseFillValueV2(doc.fill_value, np));
  // v2 has no must_understand: like zarr-python, fields it does not define are ignored (and kept in `metadata`).
  const metadata = { ...doc, shape: [...(shape as number[])] } as ArrayMetadataV2;
  return {
    metadata,
    format: 2,
    key,
    shape: metadata.shape,
    dataType: np.type,
    grid,
    keyEncoding: chunkKeyEncoding("v2", separator as "." | "/"),
    fillValue,
    codecs,
    codecFields,
    attributes,
    dimensionNames: undefined,
  };
}
