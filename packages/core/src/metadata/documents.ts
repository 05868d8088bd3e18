/**
 * The Zarr metadata documents as stored (JSON, snake_case): zarr.json of v3 arrays and groups, .zarray and .zgroup of
 * v2. Types only, importing nothing else of core: the parsers, the data types and the chunk grids depend on these
 * shapes, never the other way round.
 */
import type { CodecMetadata } from "@zarrkit/registry";

/** zarr.json of an array, as stored (snake_case). */
export interface ArrayMetadata {
  /** Always 3. */
  zarr_format: 3;
  /** Always "array". */
  node_type: "array";
  /** The array's shape. */
  shape: number[];
  /** The data type: a name, or a name with a configuration (e.g. fixed-width strings). */
  data_type:
    | string
    | {
        /** The data type's name. */
        name: string;
        /** Its parameters. */
        configuration?: Record<string, unknown>;
      };
  /** How the array is divided into chunks. */
  chunk_grid: {
    /** "regular", "rectilinear", ... */
    name: string;
    /** The grid's parameters, e.g. `chunk_shape`. */
    configuration: Record<string, unknown>;
  };
  /** How chunk coordinates become keys. */
  chunk_key_encoding: {
    /** "default" or "v2". */
    name: string;
    /** Its parameters, e.g. `separator`. */
    configuration?: Record<string, unknown>;
  };
  /** The fill value, encoded as the spec says for the data type. */
  fill_value: unknown;
  /** The codec chain. */
  codecs: CodecMetadata[];
  /** User attributes. */
  attributes: Record<string, unknown>;
  /** A name (or null) per dimension. */
  dimension_names?: (string | null)[];
  /** Storage transformers (none are supported: a non-empty list is refused). */
  storage_transformers?: unknown[];
  /** Extension fields. */
  [extension: string]: unknown;
}

/** zarr.json of a group. */
export interface GroupMetadata {
  /** Always 3. */
  zarr_format: 3;
  /** Always "group". */
  node_type: "group";
  /** User attributes. */
  attributes: Record<string, unknown>;
  [extension: string]: unknown;
}

/** `.zarray` of a Zarr v2 array, as stored. */
export interface ArrayMetadataV2 {
  /** Always 2. */
  zarr_format: 2;
  /** The array's shape. */
  shape: number[];
  /** The chunk shape. */
  chunks: number[];
  /**
   * A numpy dtype string, e.g. "<i2", ">f8", "|b1", "<U13", "|S7", "|O"; for a structured dtype the list of its
   * fields, `[["id", "<i4"], ["value", "<f8"]]` (nested lists for nested records).
   */
  dtype: string | [string, unknown][];
  /** The numcodecs compressor, or null. */
  compressor: {
    /** The numcodecs codec id, e.g. "blosc". */
    id: string;
    [option: string]: unknown;
  } | null;
  /** The fill value, as zarr-python encodes it. */
  fill_value: unknown;
  /** The order of elements within a chunk. */
  order: "C" | "F";
  /** numcodecs filters applied before the compressor, or null. */
  filters:
    | {
        /** The numcodecs codec id, e.g. "delta". */
        id: string;
        [option: string]: unknown;
      }[]
    | null;
  /** The separator of chunk key coordinates (default "."). */
  dimension_separator?: "." | "/";
  [field: string]: unknown;
}

/** `.zgroup` of a Zarr v2 group, as stored. */
export interface GroupMetadataV2 {
  /** Always 2. */
  zarr_format: 2;
  [field: string]: unknown;
}
