import { type CodecMetadata, InvalidMetadataError } from "@zarrkit/registry";
import { dataType } from "./data-types.js";
import { parseScalar, serializeScalar } from "./fill-value.js";
import { type ChunkEdges, rectilinearChunkGrid } from "./grid/rectilinear.js";
import type { ArrayMetadata } from "./metadata/node-metadata.js";

/** The convenience form of `createArray` (camelCase; becomes a zarr.json document). */
export interface CreateArrayOptions {
  shape: number[];
  dataType: string;
  /**
   * Chunk shape; with `shardShape`, the inner chunk shape of each shard
   * (integers only). A list of edges for a dimension makes the grid
   * rectilinear: `[[100, 300, 500, 100], 10]`; runs `[edge, count]` may
   * stand for repeated edges.
   */
  chunkShape: ChunkEdges[];
  /**
   * Makes the array sharded: the shape of one shard (a multiple of
   * `chunkShape`). Lists of edges make a rectilinear grid of shards, each of
   * which must be a multiple of `chunkShape`.
   */
  shardShape?: ChunkEdges[];
  /**
   * The chunk grid's metadata name. Default: "rectilinear" when a dimension
   * lists edges, else "regular". "rectangular" writes the ZEP 3 draft form,
   * for readers that predate the rectilinear extension.
   */
  chunkGrid?: "regular" | "rectilinear" | "rectangular";
  /** Codecs of each chunk (of each inner chunk when sharded). Default: `bytes` (`vlen-utf8` for strings). */
  codecs?: CodecMetadata[];
  /** Codecs of the shard index. Default: `bytes` little-endian + `crc32c`. */
  indexCodecs?: CodecMetadata[];
  indexLocation?: "start" | "end";
  /** Default: zero of the data type (false, "", [0, 0], zero bytes). */
  fillValue?: unknown;
  attributes?: Record<string, unknown>;
  dimensionNames?: (string | null)[];
  chunkKeyEncoding?: { name: "default" | "v2"; separator?: "/" | "." };
}

function defaultFill(kind: string, byteSize: number | undefined): unknown {
  switch (kind) {
    case "bool":
      return false;
    case "string":
      return "";
    case "complex":
      return [0, 0];
    case "raw":
      return new Array(byteSize).fill(0);
    default:
      return 0;
  }
}

export function arrayMetadataFromOptions(options: CreateArrayOptions): ArrayMetadata {
  if (!Array.isArray(options.chunkShape)) {
    throw new InvalidMetadataError("chunkShape is required", { field: "chunkShape" });
  }
  if (!Array.isArray(options.shape)) throw new InvalidMetadataError("shape must be a list of integers", { field: "shape" });
  const type = dataType(options.dataType, "dataType");
  const innerCodecs: CodecMetadata[] =
    options.codecs ?? (type.kind === "string" ? [{ name: "vlen-utf8" }] : [{ name: "bytes", configuration: { endian: "little" } }]);
  const fill = parseScalar(options.fillValue ?? defaultFill(type.kind, type.byteSize), type, "fillValue");
  const sharded = options.shardShape !== undefined;
  if (sharded && !options.chunkShape.every((n) => typeof n === "number")) {
    throw new InvalidMetadataError("chunkShape must be integers when shardShape is given: inner chunks are regular", {
      field: "chunkShape",
    });
  }
  const edges = options.shardShape ?? options.chunkShape;
  const gridName = options.chunkGrid ?? (edges.some(Array.isArray) ? "rectilinear" : "regular");
  const chunkGrid =
    gridName === "regular"
      ? { name: gridName, configuration: { chunk_shape: [...edges] } }
      : rectilinearChunkGrid(options.shape, edges, gridName, sharded ? "shardShape" : "chunkShape").toJSON();
  const codecs: CodecMetadata[] = sharded
    ? [
        {
          name: "sharding_indexed",
          configuration: {
            chunk_shape: [...options.chunkShape],
            codecs: innerCodecs,
            index_codecs: options.indexCodecs ?? [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }],
            index_location: options.indexLocation ?? "end",
          },
        },
      ]
    : innerCodecs;
  const encoding = options.chunkKeyEncoding ?? { name: "default" };
  const metadata: ArrayMetadata = {
    zarr_format: 3,
    node_type: "array",
    shape: [...options.shape],
    data_type: type.name,
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
