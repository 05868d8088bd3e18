import { InvalidMetadataError, showValue, UnsupportedError } from "@zarrkit/registry";
import { own } from "./own.js";

/** How chunk ids are hashed before they pick a shard. */
export type ShardingHash = "identity" | "murmurhash3_x86_128";
/** How indexes or chunk data are stored: as they are, or gzipped. */
export type ShardingEncoding = "raw" | "gzip";

/**
 * A validated `"sharding"` object. Members keep their JSON names so
 * `JSON.stringify(spec)` is a valid `"sharding"` value again.
 */
export interface ShardingSpec {
  /** Always "neuroglancer_uint64_sharded_v1". */
  readonly "@type": "neuroglancer_uint64_sharded_v1";
  /** Low bits of chunk ids dropped before hashing (chunks sharing them share a minishard). */
  readonly preshift_bits: number;
  /** The hash applied to the shifted id. */
  readonly hash: ShardingHash;
  /** Bits of the hash that pick the minishard. */
  readonly minishard_bits: number;
  /** Bits of the hash, above the minishard bits, that pick the shard. */
  readonly shard_bits: number;
  /** Encoding of minishard indexes. */
  readonly minishard_index_encoding: ShardingEncoding;
  /** Encoding of chunk data. */
  readonly data_encoding: ShardingEncoding;
}

/** Readers address the shard index with JS numbers; tensorstore has the same limit. */
const MAX_MINISHARD_BITS = 32;

function bits(json: Record<string, unknown>, name: string, field: string): number {
  const value = own(json, name);
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 64) {
    throw new InvalidMetadataError(`${field}.${name} must be an integer from 0 to 64, got ${showValue(value, 80)}`, {
      field: `${field}.${name}`,
    });
  }
  return value;
}

function encoding(json: Record<string, unknown>, name: string, field: string): ShardingEncoding {
  const value = own(json, name);
  // Absent means raw: sharded.md, tensorstore and neuroglancer agree (sharding.yml wrongly requires it).
  if (value === undefined) return "raw";
  if (value !== "raw" && value !== "gzip") {
    throw new InvalidMetadataError(`${field}.${name} must be "raw" or "gzip", got ${showValue(value, 80)}`, {
      field: `${field}.${name}`,
    });
  }
  return value;
}

/**
 * Validate a `"sharding"` JSON object (as found in an `info` file) and fill in
 * defaults. `field` names the object in error messages.
 */
export function parseShardingSpec(json: unknown, field = "sharding"): ShardingSpec {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new InvalidMetadataError(`${field} must be an object, got ${showValue(json, 80)}`, { field });
  }
  const obj = json as Record<string, unknown>;
  const type = own(obj, "@type");
  if (type !== "neuroglancer_uint64_sharded_v1") {
    throw new InvalidMetadataError(
      `${field}["@type"] must be "neuroglancer_uint64_sharded_v1", got ${showValue(type, 80)}`,
      { field: `${field}["@type"]` },
    );
  }
  const hash = own(obj, "hash");
  if (hash !== "identity" && hash !== "murmurhash3_x86_128") {
    throw new InvalidMetadataError(
      `${field}.hash must be "identity" or "murmurhash3_x86_128", got ${showValue(hash, 80)}`,
      { field: `${field}.hash` },
    );
  }
  const spec: ShardingSpec = {
    "@type": "neuroglancer_uint64_sharded_v1",
    preshift_bits: bits(obj, "preshift_bits", field),
    hash,
    minishard_bits: bits(obj, "minishard_bits", field),
    shard_bits: bits(obj, "shard_bits", field),
    minishard_index_encoding: encoding(obj, "minishard_index_encoding", field),
    data_encoding: encoding(obj, "data_encoding", field),
  };
  if (spec.minishard_bits + spec.shard_bits > 64) {
    throw new InvalidMetadataError(
      `${field}: minishard_bits (${spec.minishard_bits}) + shard_bits (${spec.shard_bits}) must not exceed 64`,
      { field: `${field}.shard_bits` },
    );
  }
  if (spec.minishard_bits > MAX_MINISHARD_BITS) {
    throw new UnsupportedError(
      `${field}.minishard_bits ${spec.minishard_bits} gives a shard index of 2^${spec.minishard_bits + 4} bytes; at ` +
        `most ${MAX_MINISHARD_BITS} is supported`,
      { field: `${field}.minishard_bits` },
    );
  }
  return spec;
}

/** Byte length of the fixed-size shard index at the start of every shard file. */
export function shardIndexSize(spec: ShardingSpec): number {
  return 16 * 2 ** spec.minishard_bits;
}
