import { type ChunkEdges, type CodecMetadata } from "@zarrkit/core";
import {
  type CreateOptionRequest,
  type GridAndCodecs,
  InvalidOptionError,
  registerCreateOption,
} from "@zarrkit/registry";

declare module "@zarrkit/core" {
  interface CreateArrayOptions {
    /**
     * Makes the array sharded: the shape of one shard, a multiple of
     * `chunkShape`, which becomes the inner chunk shape. Lists of edges make a
     * rectilinear grid of shards, each a multiple of `chunkShape`.
     */
    shardShape?: ChunkEdges[];
    /** Codecs of the shard index (with `shardShape`). Default: `bytes` little-endian + `crc32c`. */
    indexCodecs?: CodecMetadata[];
    /** Where the shard index sits (with `shardShape`). Default: "end". */
    indexLocation?: "start" | "end";
  }
}

/** The default index codecs: a checksummed index (appends and readers racing writers rely on it). */
export const DEFAULT_INDEX_CODECS: readonly CodecMetadata[] = [
  { name: "bytes", configuration: { endian: "little" } },
  { name: "crc32c" },
];

/**
 * `shardShape` in `createArray`'s convenience form: a grid of shards, each one `sharding_indexed` chunk of inner
 * chunks.
 */
function shardedGridAndCodecs({ value, chunkShape, codecs, options }: CreateOptionRequest): GridAndCodecs {
  if (!Array.isArray(chunkShape) || !chunkShape.every((n) => typeof n === "number")) {
    throw new InvalidOptionError("chunkShape must be integers when shardShape is given: inner chunks are regular", {
      field: "chunkShape",
    });
  }
  if (!Array.isArray(value))
    throw new InvalidOptionError("shardShape must be a list (of integers or lists of edges)", {
      field: "shardShape",
    });
  return {
    gridShape: value,
    codecs: [
      {
        name: "sharding_indexed",
        configuration: {
          chunk_shape: [...chunkShape],
          codecs,
          index_codecs: (options.indexCodecs as CodecMetadata[] | undefined) ?? [...DEFAULT_INDEX_CODECS],
          index_location: options.indexLocation ?? "end",
        },
      },
    ],
    consumed: ["indexCodecs", "indexLocation"],
  };
}

registerCreateOption("shardShape", shardedGridAndCodecs);
