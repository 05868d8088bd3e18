/**
 * What `createArray` accepts besides a complete document, for each format side by side: the convenience forms
 * (camelCase) and the zarr.json (v3) or .zarray (v2) document each becomes.
 */
import {
  type CodecMetadata,
  createOptionHook,
  InvalidMetadataError,
  InvalidOptionError,
  showValue,
  unknownOptionError,
} from "@zarrkit/registry";
import { type DataType, dataType, dataTypeJSON, objectDataType } from "./data-types.js";
import { parseScalar, serializeScalar, zeroFillValue } from "./fill-value.js";
import { type ChunkEdges, rectilinearChunkGrid } from "./grid/rectilinear.js";
import type { ArrayMetadata, ArrayMetadataV2 } from "./metadata/documents.js";
import {
  type NumpyType,
  numpyDescrOf,
  parseFillValueV2,
  parseNumpyDtype,
  serializeFillValueV2,
} from "./metadata/v2.js";

/**
 * The convenience form of `createArray` (camelCase; becomes a zarr.json
 * document). Packages extend it with options of their own, registered
 * with `registerCreateOption` (`@zarrkit/sharding` adds `shardShape`, `indexCodecs`
 * and `indexLocation`); any other option is an `InvalidOptionError`.
 */
export interface CreateArrayOptions {
  /** The array's shape. */
  shape: number[];
  /** The data type name, e.g. "uint16", "float32", "string". */
  dataType: string;
  /**
   * Chunk shape (the inner chunk shape when a layout such as `shardShape`
   * divides the array otherwise). A list of edges for a dimension makes the
   * grid rectilinear: `[[100, 300, 500, 100], 10]`; runs `[edge, count]` may
   * stand for repeated edges.
   */
  chunkShape: ChunkEdges[];
  /**
   * The chunk grid's metadata name. Default: "rectilinear" when a dimension
   * lists edges, else "regular". "rectangular" writes the ZEP 3 draft form,
   * for readers that predate the rectilinear extension.
   */
  chunkGrid?: "regular" | "rectilinear" | "rectangular";
  /**
   * Codecs of each chunk. Default: `bytes` little-endian (`vlen-utf8` for
   * strings, `vlen-bytes` for variable_length_bytes). A `bytes` codec given
   * without an endian is little endian.
   */
  codecs?: CodecMetadata[];
  /** Default: zero of the data type (false, "", [0, 0], zero bytes). */
  fillValue?: unknown;
  /** User attributes. */
  attributes?: Record<string, unknown>;
  /** A name (or null) per dimension. */
  dimensionNames?: (string | null)[];
  /** How chunk keys are formed. Default: `default` ("c/0/1"); `v2` gives "0.1". */
  chunkKeyEncoding?: {
    /** The encoding's name. */
    name: "default" | "v2";
    /** The separator between coordinates. Default "/" for default, "." for v2. */
    separator?: "/" | ".";
  };
}

const OWN_OPTIONS: ReadonlySet<string> = new Set([
  "shape",
  "dataType",
  "chunkShape",
  "chunkGrid",
  "codecs",
  "fillValue",
  "attributes",
  "dimensionNames",
  "chunkKeyEncoding",
]);

/** The grid and codecs: ours, or those of the one registered layout option given (e.g. `shardShape`). */
function layoutOf(
  options: CreateArrayOptions,
  codecs: CodecMetadata[],
): { gridShape: ChunkEdges[]; codecs: CodecMetadata[]; option?: string } {
  const given = Object.keys(options).filter(
    (name) => !OWN_OPTIONS.has(name) && (options as unknown as Record<string, unknown>)[name] !== undefined,
  );
  const layouts = given.flatMap((name) => {
    const hook = createOptionHook(name);
    return hook ? [{ name, hook }] : [];
  });
  if (layouts.length > 1) {
    throw new InvalidOptionError(
      `${layouts.map((l) => l.name).join(" and ")} each decide the array's layout: give one`,
      { field: layouts[1]!.name },
    );
  }
  const layout = layouts[0] && {
    option: layouts[0].name,
    ...layouts[0].hook({
      value: (options as unknown as Record<string, unknown>)[layouts[0].name],
      chunkShape: options.chunkShape,
      codecs,
      options: { ...options },
    }),
  };
  const unknown = given.find((name) => name !== layout?.option && !layout?.consumed.includes(name));
  if (unknown !== undefined) throw unknownOptionError(unknown);
  return layout
    ? { gridShape: layout.gridShape as ChunkEdges[], codecs: layout.codecs, option: layout.option }
    : { gridShape: options.chunkShape, codecs };
}

/**
 * `{ name: "bytes" }` without an endian, for a type whose byte order matters, becomes little endian (the spec requires
 * one).
 */
function withDefaultEndian(codec: CodecMetadata, type: DataType): CodecMetadata {
  if (codec?.name !== "bytes" || type.storedSlotSize <= 1 || codec.configuration?.endian !== undefined) return codec;
  return { ...codec, configuration: { ...codec.configuration, endian: "little" } };
}

/** The zarr.json document of the convenience form. */
export function arrayMetadataFromOptions(options: CreateArrayOptions): ArrayMetadata {
  if (!Array.isArray(options.chunkShape)) {
    throw new InvalidOptionError("chunkShape is required", { field: "chunkShape" });
  }
  if (!Array.isArray(options.shape))
    throw new InvalidOptionError("shape must be a list of integers", { field: "shape" });
  const type = dataType(options.dataType, "dataType");
  const innerCodecs: CodecMetadata[] = options.codecs
    ? options.codecs.map((codec) => withDefaultEndian(codec, type))
    : type.byteSize === undefined
      ? [{ name: type.objectCodecId ?? "vlen-utf8" }]
      : [{ name: "bytes", configuration: { endian: "little" } }];
  const fill = parseScalar(options.fillValue ?? zeroFillValue(type), type, "fillValue");
  const layout = layoutOf(options, innerCodecs);
  const edges = layout.gridShape;
  const gridName = options.chunkGrid ?? (edges.some(Array.isArray) ? "rectilinear" : "regular");
  const chunkGrid =
    gridName === "regular"
      ? { name: gridName, configuration: { chunk_shape: [...edges] } }
      : rectilinearChunkGrid(options.shape, edges, gridName, layout.option ?? "chunkShape").toJSON();
  const codecs = layout.codecs;
  const encoding = options.chunkKeyEncoding ?? { name: "default" };
  const metadata: ArrayMetadata = {
    zarr_format: 3,
    node_type: "array",
    shape: [...options.shape],
    data_type: dataTypeJSON(type),
    chunk_grid: chunkGrid,
    chunk_key_encoding: {
      name: encoding.name,
      configuration: { separator: encoding.separator ?? (encoding.name === "default" ? "/" : ".") },
    },
    fill_value: serializeScalar(fill, type),
    codecs,
    attributes: options.attributes ?? {},
  };
  if (options.dimensionNames) metadata.dimension_names = [...options.dimensionNames];
  return metadata;
}

/** A complete .zarray document, optionally with `attributes` (written to .zattrs, not .zarray). */
export type ArrayMetadataV2Definition = ArrayMetadataV2 & {
  /** User attributes (.zattrs). */
  attributes?: Record<string, unknown>;
};

/** The convenience form of `createArray` for Zarr v2 (`format: 2`). */
export interface CreateArrayOptionsV2 {
  /** 2: write .zarray. */
  format: 2;
  /** The array's shape. */
  shape: number[];
  /**
   * A numpy dtype string ("<i2", ">f8", "<U13", "|S7", "|O") or a v3 name
   * ("int16" becomes "<i2"; "string" and "variable_length_bytes" become "|O"
   * with the vlen-utf8 or vlen-bytes object codec). "|O" holds what its first
   * filter stores: strings, or byte strings with `[{ id: "vlen-bytes" }]`.
   */
  dataType: string;
  /** The chunk shape. */
  chunkShape: number[];
  /** Default: zero of the data type ("" for strings). */
  fillValue?: unknown;
  /** User attributes (.zattrs). */
  attributes?: Record<string, unknown>;
  /** Memory order of each chunk, default "C". */
  order?: "C" | "F";
  /** numcodecs configurations, e.g. `[{ id: "delta", dtype: "<i2" }]`; object arrays start with the object codec. */
  filters?: ArrayMetadataV2["filters"];
  /** A numcodecs configuration, e.g. `{ id: "zlib", level: 1 }`; default null (none). */
  compressor?: ArrayMetadataV2["compressor"];
  /** Default ".". */
  dimensionSeparator?: "." | "/";
}

const V2_OPTIONS: ReadonlySet<string> = new Set([
  "format",
  "shape",
  "dataType",
  "chunkShape",
  "fillValue",
  "attributes",
  "order",
  "filters",
  "compressor",
  "dimensionSeparator",
]);

/**
 * A data type given as a numpy dtype string or a v3 name ("int16" becomes
 * "<i2"); `objectCodecId`: the id of the first filter, which picks the type
 * of "|O" and must store a v3 name's object type.
 */
function numpyTypeFromOption(value: unknown, field: string, objectCodecId?: unknown): NumpyType {
  if (typeof value === "string" && /^[<>|]/.test(value)) return parseNumpyDtype(value, field, objectCodecId);
  const type = dataType(value, field);
  if (type.objectCodecId === undefined) return parseNumpyDtype(numpyDescrOf(type, "little", field), field);
  if (objectCodecId !== undefined && objectDataType(objectCodecId) !== type) {
    throw new InvalidMetadataError(
      `filters[0]: object codec ${showValue(objectCodecId)} does not store data type ${type.name}` +
        ` (its object codec is ${showValue(type.objectCodecId)})`,
      { field: "filters[0]" },
    );
  }
  return { type, endian: undefined, object: true };
}

/** The .zarray document of the v2 convenience form. */
export function arrayMetadataV2FromOptions(options: CreateArrayOptionsV2): ArrayMetadataV2 {
  const unknown = Object.keys(options).find(
    (name) => !V2_OPTIONS.has(name) && (options as unknown as Record<string, unknown>)[name] !== undefined,
  );
  if (unknown !== undefined)
    throw new InvalidOptionError(`Unknown option ${JSON.stringify(unknown)} for a Zarr v2 array`, { field: unknown });
  if (!Array.isArray(options.shape))
    throw new InvalidOptionError("shape must be a list of integers", { field: "shape" });
  if (!Array.isArray(options.chunkShape))
    throw new InvalidOptionError("chunkShape must be a list of integers", { field: "chunkShape" });
  const np = numpyTypeFromOption(options.dataType, "dataType", options.filters?.[0]?.id);
  const fill =
    options.fillValue === undefined
      ? parseFillValueV2(null, np, "fillValue")
      : parseScalar(options.fillValue, np.type, "fillValue");
  let filters = options.filters ?? null;
  if (np.object && (filters === null || filters.length === 0)) filters = [{ id: np.type.objectCodecId! }];
  const doc: ArrayMetadataV2 = {
    zarr_format: 2,
    shape: [...options.shape],
    chunks: [...options.chunkShape],
    dtype: numpyDescrOf(np.type, np.endian),
    compressor: options.compressor ?? null,
    fill_value: serializeFillValueV2(fill, np),
    order: options.order ?? "C",
    filters,
  };
  if (options.dimensionSeparator !== undefined) doc.dimension_separator = options.dimensionSeparator;
  return doc;
}
