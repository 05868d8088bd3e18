import { type CodecMetadata, dataType, InvalidMetadataError } from "@zarrkit/core";
import { CodecPipeline } from "@zarrkit/core/internal";
import { EMPTY_ENTRY } from "./config.js";
import { DEFAULT_INDEX_CODECS } from "./create-options.js";
import type { ShardDescription } from "./introspection.js";

/**
 * The encoded size in bytes of a shard index of `chunksPerShard` inner chunks (a count, or the inner chunk grid of
 * one shard) under `indexCodecs` (default `bytes` + `crc32c`: 16 bytes per inner chunk and a 4-byte checksum). The
 * size comes from the index codecs themselves, as the codec computes it when reading; index codecs without a fixed
 * encoded size (compressors, which the spec forbids there) are an `InvalidMetadataError` naming `index_codecs`.
 */
export async function shardIndexByteSize(
  chunksPerShard: number | readonly number[],
  indexCodecs: readonly CodecMetadata[] = DEFAULT_INDEX_CODECS,
): Promise<number> {
  const grid = typeof chunksPerShard === "number" ? [chunksPerShard] : [...chunksPerShard];
  if (grid.length === 0 || !grid.every((n) => Number.isSafeInteger(n) && n > 0)) {
    throw new InvalidMetadataError(
      `chunksPerShard must be a positive integer or a list of them, got ${JSON.stringify(chunksPerShard)}`,
      { field: "chunksPerShard" },
    );
  }
  const spec = { shape: [...grid, 2], dataType: dataType("uint64"), fillValue: EMPTY_ENTRY };
  const pipeline = await CodecPipeline.create([...indexCodecs], spec, undefined, "index_codecs");
  const size = pipeline.encodedSize();
  if (size === undefined) {
    const names = indexCodecs.map((c) => c.name).join(" + ");
    throw new InvalidMetadataError(`index_codecs ${names} have no fixed encoded size (e.g. bytes + crc32c have)`, {
      field: "index_codecs",
    });
  }
  return size;
}

/**
 * The size in bytes of the shard `describeShard` found, packed: its index and the inner chunks it lists, with no
 * bytes in between (a shard assembled whole is packed; appends and in-place writes leave unreferenced bytes).
 * 0 for a shard that is not stored.
 */
export function packedShardByteSize(shard: ShardDescription): number {
  if (!shard.exists) return 0;
  let size = shard.indexBytes;
  for (const chunk of shard.chunks) if (!("empty" in chunk)) size += chunk.nbytes;
  return size;
}

/** A `sharding_indexed` codec's configuration as metadata states it (see `shardingConfiguration`). */
export interface ShardingConfiguration {
  /** The inner chunk shape. */
  chunkShape: number[];
  /** The inner chunks' codecs. */
  codecs: CodecMetadata[];
  /** The index's codecs. */
  indexCodecs: CodecMetadata[];
  /** Where the index sits ("end" when the metadata leaves it out). */
  indexLocation: "start" | "end";
}

/**
 * The configuration of the `sharding_indexed` codec in a Zarr v3 codec list (an array's `codecs`), or undefined when
 * the array is not sharded. Read from metadata as it is, without opening the codec (see `describeShard` for a shard's
 * state); a configuration missing its required fields is an `InvalidMetadataError` naming the field.
 */
export function shardingConfiguration(codecs: readonly CodecMetadata[]): ShardingConfiguration | undefined {
  const sharding = codecs.find((c) => c.name === "sharding_indexed");
  if (!sharding) return undefined;
  const config = (sharding.configuration ?? {}) as Record<string, unknown>;
  for (const field of ["chunk_shape", "codecs", "index_codecs"]) {
    if (!Array.isArray(config[field])) {
      throw new InvalidMetadataError(`sharding_indexed.configuration.${field} must be a list`, {
        field: `codecs.sharding_indexed.configuration.${field}`,
      });
    }
  }
  const location = config.index_location ?? "end";
  if (location !== "start" && location !== "end") {
    throw new InvalidMetadataError(
      `sharding_indexed.configuration.index_location must be "start" or "end", got ${JSON.stringify(location)}`,
      { field: "codecs.sharding_indexed.configuration.index_location" },
    );
  }
  return {
    chunkShape: [...(config.chunk_shape as number[])],
    codecs: [...(config.codecs as CodecMetadata[])],
    indexCodecs: [...(config.index_codecs as CodecMetadata[])],
    indexLocation: location,
  };
}
