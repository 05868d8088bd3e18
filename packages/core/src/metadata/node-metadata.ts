import {
  type ChunkGrid,
  type CodecMetadata,
  InvalidMetadataError,
  type Scalar,
  UnsupportedError,
} from "@zarrkit/registry";
import { showValue } from "@zarrkit/registry";
import { type DataType, dataType } from "../data-types.js";
import { parseScalar } from "../fill-value.js";
import { parseChunkGrid } from "../grid/chunk-grid.js";
import { type ChunkKeyEncoding, parseChunkKeyEncoding } from "../grid/chunk-key-encoding.js";
import { product } from "../selection.js";
import type { ArrayMetadata, ArrayMetadataV2, GroupMetadata } from "./documents.js";

/** An array's metadata, checked and parsed (either format). */
export interface ParsedArrayMetadata {
  /** The document as stored: zarr.json (v3) or .zarray (v2). */
  metadata: ArrayMetadata | ArrayMetadataV2;
  /** The Zarr format of the document. */
  format: 2 | 3;
  /** The key the document is stored under (zarr.json or .zarray). */
  key: string;
  /** The array's shape. */
  shape: number[];
  /** The data type. */
  dataType: DataType;
  /** The chunk grid. */
  grid: ChunkGrid;
  /** The chunk key encoding. */
  keyEncoding: ChunkKeyEncoding;
  /** The fill value, decoded. */
  fillValue: Scalar;
  /** The codec chain (for v2: the one expressing order, filters, dtype and compressor). */
  codecs: CodecMetadata[];
  /** Where each codec of `codecs` comes from in the document (for error messages); `codecs[i]` when absent. */
  codecFields?: readonly string[];
  /** User attributes. */
  attributes: Record<string, unknown>;
  /** A name (or null) per dimension, when stored. */
  dimensionNames: (string | null)[] | undefined;
}

const ARRAY_FIELDS = new Set([
  "zarr_format",
  "node_type",
  "shape",
  "data_type",
  "chunk_grid",
  "chunk_key_encoding",
  "fill_value",
  "codecs",
  "attributes",
  "dimension_names",
  "storage_transformers",
]);
// zarr-python writes "consolidated_metadata": null on groups that are not consolidated.
const GROUP_FIELDS = new Set(["zarr_format", "node_type", "attributes", "consolidated_metadata"]);

/** The largest chunk we will allocate: typed arrays past 2^31 elements are not portable across engines. */
const MAX_CHUNK_ELEMENTS = 2 ** 31 - 1;

export function checkNodeHeader(doc: unknown, key: string): "array" | "group" {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    throw new InvalidMetadataError(`${key} must hold a JSON object`, { key });
  }
  const { zarr_format, node_type } = doc as Record<string, unknown>;
  if (zarr_format !== 3) {
    throw new UnsupportedError(`${key}: zarr_format must be 3, got ${showValue(zarr_format)}`, {
      key,
      field: "zarr_format",
    });
  }
  if (node_type !== "array" && node_type !== "group") {
    throw new InvalidMetadataError(`${key}: node_type must be "array" or "group", got ${showValue(node_type)}`, {
      key,
      field: "node_type",
    });
  }
  return node_type;
}

/** Refuse unknown fields unless they declare `"must_understand": false`. */
function checkExtensions(doc: Record<string, unknown>, known: Set<string>, key: string): void {
  for (const [field, value] of Object.entries(doc)) {
    if (known.has(field)) continue;
    if (
      typeof value === "object" &&
      value !== null &&
      (value as { must_understand?: unknown }).must_understand === false
    )
      continue;
    throw new UnsupportedError(
      `${key}: unknown field ${JSON.stringify(field)} without "must_understand": false;` +
        " this reader cannot safely open it",
      { key, field },
    );
  }
}

function attributes(doc: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = doc.attributes ?? {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidMetadataError(`${key}: attributes must be a JSON object`, { key, field: "attributes" });
  }
  return value as Record<string, unknown>;
}

/** A group's zarr.json, checked (an InvalidMetadataError naming `key` and the field otherwise). */
export function parseGroupMetadata(doc: unknown, key: string): GroupMetadata {
  if (checkNodeHeader(doc, key) !== "group") {
    throw new InvalidMetadataError(`${key} describes an array, not a group`, { key, field: "node_type" });
  }
  const record = doc as Record<string, unknown>;
  checkExtensions(record, GROUP_FIELDS, key);
  return { ...record, zarr_format: 3, node_type: "group", attributes: attributes(record, key) };
}

/** An array's zarr.json, checked and parsed (an InvalidMetadataError naming `key` and the field otherwise). */
export function parseArrayMetadata(doc: unknown, key: string): ParsedArrayMetadata {
  if (checkNodeHeader(doc, key) !== "array") {
    throw new InvalidMetadataError(`${key} describes a group, not an array`, { key, field: "node_type" });
  }
  const record = doc as Record<string, unknown>;
  checkExtensions(record, ARRAY_FIELDS, key);
  const fail = (field: string, why: string): never => {
    throw new InvalidMetadataError(`${key}: ${field} ${why}`, { key, field });
  };
  const shape = record.shape;
  if (!Array.isArray(shape) || !shape.every((n) => Number.isSafeInteger(n) && n >= 0)) {
    fail("shape", `must be a list of non-negative integers below 2^53, got ${showValue(shape)}`);
  }
  const rank = (shape as number[]).length;
  const type = withKey(key, () => dataType(record.data_type));
  const grid = withKey(key, () => parseChunkGrid(record.chunk_grid, shape as number[]));
  checkChunkSize(grid, type, key, "chunk_grid");
  const keyEncoding = withKey(key, () => parseChunkKeyEncoding(record.chunk_key_encoding ?? { name: "default" }));
  if (!("fill_value" in record)) fail("fill_value", "is required");
  const fillValue = withKey(key, () => parseScalar(record.fill_value, type));
  if (!Array.isArray(record.codecs) || record.codecs.length === 0) fail("codecs", "must be a non-empty list");
  // zarr-python writes null for "no names".
  const names = record.dimension_names ?? undefined;
  if (
    names !== undefined &&
    (!Array.isArray(names) || names.length !== rank || !names.every((n) => n === null || typeof n === "string"))
  ) {
    fail("dimension_names", `must be ${rank} strings or nulls, got ${showValue(names)}`);
  }
  const transformers = record.storage_transformers ?? [];
  if (!Array.isArray(transformers)) fail("storage_transformers", "must be a list");
  for (const [i, t] of (transformers as unknown[]).entries()) {
    if ((t as { must_understand?: unknown })?.must_understand === false) continue;
    throw new UnsupportedError(
      `${key}: storage_transformers[${i}] ${showValue((t as { name?: unknown })?.name ?? t)} is not supported`,
      {
        key,
        field: `storage_transformers[${i}]`,
      },
    );
  }
  const metadata = {
    ...record,
    ...(names === undefined ? { dimension_names: undefined } : {}),
    shape: [...(shape as number[])],
    attributes: attributes(record, key),
  } as ArrayMetadata;
  return {
    metadata,
    format: 3,
    key,
    shape: metadata.shape,
    dataType: type,
    grid,
    keyEncoding,
    fillValue,
    codecs: metadata.codecs,
    attributes: metadata.attributes,
    dimensionNames: metadata.dimension_names,
  };
}

/** Refuse chunks that cannot be held in one typed array. */
export function checkChunkSize(grid: ChunkGrid, type: DataType, key: string, field: string): void {
  const largest = grid.dims.map((dim) => dim.maxChunkLength);
  // Elements and slots (r<N> takes N/8 slots per element): a chunk is one typed array.
  if (product(largest) > MAX_CHUNK_ELEMENTS || product(largest) * type.lanes > MAX_CHUNK_ELEMENTS) {
    throw new UnsupportedError(
      `${key}: chunks of shape [${largest.join(", ")}] have more than ${MAX_CHUNK_ELEMENTS} elements` +
        " and cannot be held in memory",
      { key, field },
    );
  }
}

/** Add the metadata key to errors raised by field parsers. */
export function withKey<T>(key: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof InvalidMetadataError || error instanceof UnsupportedError) {
      const Ctor = error.constructor as new (message: string, context: object) => Error;
      throw new Ctor(`${key}: ${error.message}`, { key, field: error.field, cause: error });
    }
    throw error;
  }
}
