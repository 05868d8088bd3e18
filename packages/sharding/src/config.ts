import { dataType, InvalidMetadataError, UnsupportedError } from "@zarrkit/core";
import { CodecPipeline } from "@zarrkit/core/internal";
import { type ChunkSpec, type CodecCreateContext, showValue } from "@zarrkit/registry";

/** The offset and nbytes of an empty inner chunk's index entry (the index's fill value). */
export const EMPTY_ENTRY = 2n ** 64n - 1n;

/** Inner chunks per shard zarrkit reads: 2^24, an index of 256 MiB. */
const MAX_INNER_CHUNKS = 2 ** 24;

export type IndexLocation = "start" | "end";

/** A validated sharding_indexed configuration with its inner and index pipelines. */
export interface ShardingConfig {
  chunkShape: number[];
  /** Inner chunks per shard along each dimension. */
  gridShape: number[];
  chunkCount: number;
  indexLocation: IndexLocation;
  /** Encoded size of the index, from the index codecs (16 bytes per chunk, +4 with crc32c, ...). */
  indexSize: number;
  innerSpec: ChunkSpec;
  inner: CodecPipeline;
  index: CodecPipeline;
  configuration: Record<string, unknown>;
}

export async function parseShardingConfig(
  configuration: Record<string, unknown>,
  ctx: CodecCreateContext,
): Promise<ShardingConfig> {
  const base = `${ctx.field}.configuration`;
  const fail = (field: string, why: string): never => {
    throw new InvalidMetadataError(`${base}.${field} ${why}`, { field: `${base}.${field}` });
  };
  const shardShape = ctx.spec.shape;
  const rank = shardShape.length;
  const chunkShape = configuration.chunk_shape;
  if (!Array.isArray(chunkShape) || !chunkShape.every((n) => Number.isSafeInteger(n) && n > 0)) {
    fail("chunk_shape", `must be a list of positive integers, got ${showValue(chunkShape)}`);
  }
  const inner = chunkShape as number[];
  if (inner.length !== rank) {
    fail("chunk_shape", `has ${inner.length} dimensions but the shard shape [${shardShape.join(", ")}] has ${rank}`);
  }
  inner.forEach((n, d) => {
    if (shardShape[d]! % n !== 0) {
      fail(
        "chunk_shape",
        `[${inner.join(", ")}] does not divide the shard shape [${shardShape.join(", ")}] along dimension ${d} ` +
          `(${shardShape[d]} is not a multiple of ${n})`,
      );
    }
  });
  const location = configuration.index_location ?? "end";
  if (location !== "start" && location !== "end") {
    fail("index_location", `must be "start" or "end", got ${showValue(location)}`);
  }
  if (!Array.isArray(configuration.codecs)) fail("codecs", "is required and must be a list of codecs");
  if (!Array.isArray(configuration.index_codecs)) fail("index_codecs", "is required and must be a list of codecs");
  const gridShape = shardShape.map((n, d) => n / inner[d]!);
  const chunkCount = gridShape.reduce((a, b) => a * b, 1);
  if (chunkCount > MAX_INNER_CHUNKS) {
    // The index alone (16 bytes per inner chunk) would be more than a reader can hold.
    throw new UnsupportedError(
      `${base}.chunk_shape [${inner.join(", ")}] makes ${chunkCount} inner chunks per shard ` +
        `[${shardShape.join(", ")}], an index of ${chunkCount * 16} bytes; zarrkit reads shards of at ` +
        `most ${MAX_INNER_CHUNKS} inner chunks (a 256 MiB index)`,
      { field: `${base}.chunk_shape` },
    );
  }
  const innerSpec: ChunkSpec = { shape: inner, dataType: ctx.spec.dataType, fillValue: ctx.spec.fillValue };
  const indexSpec: ChunkSpec = { shape: [...gridShape, 2], dataType: dataType("uint64"), fillValue: EMPTY_ENTRY };
  const [innerPipeline, indexPipeline] = await Promise.all([
    CodecPipeline.create(configuration.codecs, innerSpec, ctx.pipeline, `${base}.codecs`),
    CodecPipeline.create(configuration.index_codecs, indexSpec, ctx.pipeline, `${base}.index_codecs`),
  ]);
  const indexSize = indexPipeline.encodedSize();
  if (indexSize === undefined) {
    fail(
      "index_codecs",
      `must have a fixed encoded size (e.g. bytes + crc32c); ${indexPipeline
        .toJSON()
        .map((c) => c.name)
        .join(" + ")} does not, and compressing index codecs are forbidden by the spec`,
    );
  }
  return {
    chunkShape: inner,
    gridShape,
    chunkCount,
    indexLocation: location as IndexLocation,
    indexSize: indexSize as number,
    innerSpec,
    inner: innerPipeline,
    index: indexPipeline,
    configuration: {
      chunk_shape: [...inner],
      codecs: innerPipeline.toJSON(),
      index_codecs: indexPipeline.toJSON(),
      index_location: location,
    },
  };
}
