import { type Selection, UnsupportedError, type ZarrArray } from "@zarrkit/core";
import { storedValue } from "@zarrkit/core/internal";
import type { ShardingConfig } from "./config.js";
import type { ShardIndex } from "./shard-index.js";
import { innerChunkCoords } from "./shard-index.js";
import type { ShardingCodec, ShardReadPlan } from "./sharding-codec.js";

/** One inner chunk of a shard: where its bytes are, or that it is empty (not stored). */
export type InnerChunkEntry =
  | {
      /** The inner chunk's coordinates within the shard. */
      coords: number[];
      /** Byte offset of its encoded bytes in the shard. */
      offset: number;
      /** Length of its encoded bytes. */
      nbytes: number;
    }
  | {
      /** The inner chunk's coordinates within the shard. */
      coords: number[];
      /** Not stored: reads give the fill value. */
      empty: true;
    };

/** What `describeShard` found in one shard. */
export interface ShardDescription {
  /** The shard's store key. */
  key: string;
  /** Whether the shard is stored (a missing shard is all fill value). */
  exists: boolean;
  /** Where the shard's index is: its `index_location`. */
  indexLocation: "start" | "end";
  /** Inner chunks per shard along each dimension. */
  chunksPerShard: number[];
  /** The encoded size of the shard's index in bytes, from its index codecs (see `shardIndexByteSize`). */
  indexBytes: number;
  /** Per inner chunk in C order: where its bytes are, or that it is empty. Empty when the shard does not exist. */
  chunks: InnerChunkEntry[];
}

async function shardingCodecAt(array: ZarrArray, coords: readonly number[]): Promise<ShardingCodec> {
  const pipeline = await array.pipelineFor(array.chunkSpec(coords).shape);
  // Loaded here, not imported above: the codec's code loads only once a sharded array is used.
  const { ShardingCodec } = await import("./sharding-codec.js");
  const codec = pipeline.arrayToBytes;
  if (!(codec instanceof ShardingCodec)) {
    throw new UnsupportedError(
      `Array ${JSON.stringify(array.path)} is not sharded (its array->bytes codec is ${codec.name})`,
      {
        field: "codecs",
      },
    );
  }
  return codec;
}

function entries(config: ShardingConfig, index: ShardIndex): InnerChunkEntry[] {
  return Array.from({ length: config.chunkCount }, (_, i) => {
    const coords = innerChunkCoords(config, i);
    return index.offsets[i]! < 0
      ? { coords, empty: true as const }
      : { coords, offset: index.offsets[i]!, nbytes: index.lengths[i]! };
  });
}

/** The key, existence and index of the shard at grid coordinates `coords` (one ranged read, or none when cached). */
export async function describeShard(array: ZarrArray, coords: readonly number[]): Promise<ShardDescription> {
  const codec = await shardingCodecAt(array, coords);
  const key = array.chunkKey(coords);
  const index = await codec.readIndex(storedValue(array.store, key), { key });
  return {
    key,
    exists: index !== undefined,
    indexLocation: codec.config.indexLocation,
    chunksPerShard: [...codec.config.gridShape],
    indexBytes: codec.config.indexSize,
    chunks: index ? entries(codec.config, index) : [],
  };
}

/** For each shard a selection touches: whether it is read whole, else the coalesced byte ranges of its inner chunks. */
export async function plannedReads(array: ZarrArray, selection?: Selection | null): Promise<ShardReadPlan[]> {
  const { parts } = array.chunksOf(selection);
  const plans: ShardReadPlan[] = [];
  for (const shardParts of parts) {
    const coords = shardParts.map((p) => p.chunkIndex);
    const key = array.chunkKey(coords);
    const codec = await shardingCodecAt(array, coords);
    plans.push(
      await codec.planRead(
        storedValue(array.store, key),
        shardParts.map((p) => p.local),
        array.chunkSpec(coords),
        { key },
      ),
    );
  }
  return plans;
}
