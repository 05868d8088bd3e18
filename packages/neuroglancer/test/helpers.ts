import { readFileSync } from "node:fs";
import { concatBytes } from "@zarrkit/util";
import type { RangeQuery, Store } from "@zarrkit/registry";
import { encodeMinishardIndex, encodeShardIndex } from "../src/index.js";
import { fixturePath } from "@zarrkit/test-utils/fixtures";
import { assert, describe } from "vitest";

/** A Map-backed store; `ranges: false` leaves out getRange to model whole-file stores. */
export function memoryStore(
  files: Iterable<readonly [string, Uint8Array]> = [],
  options: { ranges?: boolean } = {},
): Store & { files: Map<string, Uint8Array> } {
  const map = new Map<string, Uint8Array>(files as Iterable<[string, Uint8Array]>);
  const store: Store & { files: Map<string, Uint8Array> } = {
    files: map,
    async get(key) {
      return map.get(key)?.slice();
    },
    async set(key, value) {
      map.set(key, value.slice());
    },
  };
  if (options.ranges !== false) {
    store.getRange = async (key: string, range: RangeQuery) => {
      const value = map.get(key);
      if (!value) return undefined;
      if ("suffixLength" in range) return value.slice(Math.max(0, value.length - range.suffixLength));
      return value.slice(range.offset, range.offset + range.length);
    };
  }
  return store;
}

/** The items of a fixture that must not be empty, typed as a non-empty tuple; an empty one fails the test. */
export function nonEmpty<T>(items: Iterable<T>): [T, ...T[]] {
  const [first, ...rest] = items;
  assert(first !== undefined, "expected a non-empty fixture");
  return [first, ...rest];
}

/** items[i] of a fixture known to hold it; a missing item fails the test. */
export function itemAt<T>(items: ArrayLike<T>, i: number): T {
  const item = items[i];
  assert(item !== undefined, `no item ${i} among ${items.length}`);
  return item;
}

/** XOR byte `at` of `bytes` with `mask` in place; a byte past the end fails the test. */
export function xorByte(bytes: Uint8Array, at: number, mask: number): void {
  bytes[at] = itemAt(bytes, at) ^ mask;
}

export const hex = (s: string): Uint8Array => Uint8Array.from(s.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
export const toHex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

type SpecJson = Record<string, unknown>;

export interface ShardFileVector {
  name: string;
  spec: SpecJson;
  file_hex: string;
  size: number;
  chunks: { chunk_id: string; data_hex: string }[];
}

/** The parts of vectors.json the tests read (uint64 values are decimal or 0x strings). */
export interface Vectors {
  murmurhash3_x86_128_u64le: {
    vectors: { input_u64: string; seed: number; h_words_u32: string[]; sharding_hash_u64_low64: string }[];
  };
  murmurhash3_x86_128_u64le_derived: { vectors: { input_u64: string; sharding_hash_u64_low64: string }[] };
  shard_location: {
    vectors: { spec: SpecJson; chunk_id: string; shard: number; minishard: number; shard_file: string }[];
  };
  compressed_morton: {
    vectors: { grid_size: number[]; grid_point: number[]; code: number }[];
    bits_tests: { shape: (number | string)[]; chunk: number[]; bits: number[] }[];
  };
  minishard_index_encoding: {
    vectors: { name: string; entries: { chunk_id: string; start: number; end: number }[]; encoded_hex: string }[];
  };
  shard_index_encoding: { entries: [number, number][]; encoded_hex: string };
  shard_files: {
    vectors: ShardFileVector[];
    read_trace: {
      spec: SpecJson;
      chunk_id: string;
      requests: { byte_range: [number, number]; returns_hex: string }[];
    };
    invalid_inputs: { cases: { name: string; file_hex: string; expect: string }[] };
  };
  compute_shard_params_for_hashed: {
    vectors: {
      num_labels: number;
      shard_index_bytes: number;
      minishard_index_bytes: number;
      min_shards?: number;
      result: [number, number, number];
    }[];
  };
  compute_shard_params_for_image: {
    input: { size: number[]; chunk: number[]; encoding: string; dtype: string };
    expect: string;
  };
}

/** vectors.json from the shared fixtures, or undefined (tests using it are skipped). */
export const vectors: Vectors | undefined = (() => {
  const path = fixturePath("neuroglancer/vectors.json");
  return path ? JSON.parse(readFileSync(path, "utf8")) : undefined;
})();

export const describeVectors: typeof describe.skip = describe.skipIf(!vectors);

/**
 * A one-minishard shard file: the 16-byte shard index, the stored chunks in
 * order, then the minishard index, encoded with `encodeIndex` (raw by default).
 */
export function oneMinishardShard(
  chunks: readonly (readonly [bigint, Uint8Array])[],
  encodeIndex: (raw: Uint8Array) => Uint8Array = (b) => b,
): Uint8Array {
  let at = 0;
  const entries = chunks.map(([id, bytes]) => {
    const entry = { id, start: at, end: at + bytes.length };
    at += bytes.length;
    return entry;
  });
  const index = encodeIndex(encodeMinishardIndex(entries));
  return concatBytes([encodeShardIndex([[at, at + index.length]]), ...chunks.map(([, b]) => b), index]);
}
