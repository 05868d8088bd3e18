import { murmurHash3_x86_128 } from "./murmurhash3.js";
import type { ShardingSpec } from "./spec.js";
import { checkU64 } from "./uint64.js";

/** Where a chunk id lives in a sharded volume. */
export interface ShardLocation {
  /** Shard number: bits [minishard_bits, minishard_bits + shard_bits) of the hashed id. */
  shard: bigint;
  /** Minishard number within the shard: the low minishard_bits bits of the hashed id. */
  minishard: bigint;
  /** Shard file name, e.g. "0a.shard" (relative to the data's directory). */
  key: string;
}

const scratch = new DataView(new ArrayBuffer(8));
const scratchBytes = new Uint8Array(scratch.buffer);

/**
 * Low 64 bits of MurmurHash3_x86_128 (seed 0) of the 8 little-endian bytes of
 * `value`: h1 | h2 << 32, as tensorstore, neuroglancer and cloud-volume compute it.
 */
export function murmurHash3ChunkId(value: bigint): bigint {
  scratch.setBigUint64(0, value, true);
  const [h1, h2] = murmurHash3_x86_128(scratchBytes, 0);
  return (BigInt(h2) << 32n) | BigInt(h1);
}

/** The hashed chunk id that selects shard and minishard. */
export function hashChunkId(spec: ShardingSpec, id: bigint): bigint {
  // BigInt shifts past 64 bits give 0, like tensorstore's ShiftRightUpTo64.
  const shifted = checkU64(id, "chunk id") >> BigInt(spec.preshift_bits);
  return spec.hash === "identity" ? shifted : murmurHash3ChunkId(shifted);
}

/** Lowercase hex zero-padded to ceil(shard_bits/4) digits; shard_bits 0 still gives "0.shard". */
export function shardFileName(spec: ShardingSpec, shard: bigint): string {
  return `${shard.toString(16).padStart(Math.ceil(spec.shard_bits / 4), "0")}.shard`;
}

/** The shard, minishard and shard file of chunk `id` under `spec` (after its hash). */
export function shardLocation(spec: ShardingSpec, id: bigint): ShardLocation {
  const h = hashChunkId(spec, id);
  const minishardBits = BigInt(spec.minishard_bits);
  const minishard = h & ((1n << minishardBits) - 1n);
  const shard = (h >> minishardBits) & ((1n << BigInt(spec.shard_bits)) - 1n);
  return { shard, minishard, key: shardFileName(spec, shard) };
}
