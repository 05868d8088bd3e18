import { type RequestOptions, type Store, UnsupportedError } from "@zarrkit/registry";
import { encodeBytes } from "./encoding.js";
import { shardLocation } from "./location.js";
import { encodeMinishardIndex, type MinishardEntry } from "./minishard-index.js";
import { type ShardingSpec, shardIndexSize } from "./spec.js";
import { joinKey } from "./store-key.js";
import { compareU64 } from "./uint64.js";

interface PlacedChunk {
  id: bigint;
  minishard: bigint;
  data: Uint8Array;
}

/**
 * Build the shard files holding `chunks` (id -> unencoded bytes): file name ->
 * file bytes. Like tensorstore, each file holds its minishards in ascending
 * order, each as its chunks' data (ids ascending, contiguous) followed by its
 * minishard index. Shards without chunks get no file. The files replace any
 * existing ones, so pass every chunk of each shard touched.
 */
export function synthesizeShards(
  spec: ShardingSpec,
  chunks: ReadonlyMap<bigint, Uint8Array> | Iterable<readonly [bigint, Uint8Array]>,
): Map<string, Uint8Array> {
  const byFile = new Map<string, PlacedChunk[]>();
  for (const [id, data] of chunks) {
    const { key, minishard } = shardLocation(spec, id);
    const list = byFile.get(key) ?? [];
    list.push({ id, minishard, data });
    byFile.set(key, list);
  }
  const files = new Map<string, Uint8Array>();
  for (const key of [...byFile.keys()].sort()) files.set(key, synthesizeShard(spec, byFile.get(key) ?? []));
  return files;
}

function synthesizeShard(spec: ShardingSpec, chunks: PlacedChunk[]): Uint8Array {
  chunks.sort((a, b) => compareU64(a.minishard, b.minishard) || compareU64(a.id, b.id));
  const indexEnd = shardIndexSize(spec);
  const shardIndex = new DataView(new ArrayBuffer(indexEnd));
  const parts: Uint8Array[] = [new Uint8Array(shardIndex.buffer)];
  // Positions are relative to the end of the shard index, as the format stores them.
  let position = 0;
  for (const { minishard, chunks: run } of minishardRuns(chunks)) {
    const entries: MinishardEntry[] = [];
    for (const { id, data } of run) {
      const stored = encodeBytes(data, spec.data_encoding);
      entries.push({ id, start: position, end: position + stored.length });
      parts.push(stored);
      position += stored.length;
    }
    const index = encodeBytes(encodeMinishardIndex(entries), spec.minishard_index_encoding);
    const at = Number(minishard) * 16;
    shardIndex.setBigUint64(at, BigInt(position), true);
    shardIndex.setBigUint64(at + 8, BigInt(position + index.length), true);
    parts.push(index);
    position += index.length;
  }
  const file = new Uint8Array(indexEnd + position);
  let offset = 0;
  for (const part of parts) {
    file.set(part, offset);
    offset += part.length;
  }
  return file;
}

/** The runs of consecutive chunks sharing a minishard, in order. */
function minishardRuns(chunks: readonly PlacedChunk[]): { minishard: bigint; chunks: PlacedChunk[] }[] {
  const runs: { minishard: bigint; chunks: PlacedChunk[] }[] = [];
  for (const chunk of chunks) {
    const last = runs.at(-1);
    if (last && last.minishard === chunk.minishard) last.chunks.push(chunk);
    else runs.push({ minishard: chunk.minishard, chunks: [chunk] });
  }
  return runs;
}

export interface WriteShardsOptions extends RequestOptions {
  /** Directory of the shard files in the store, as for ShardReader. Default "". */
  prefix?: string;
}

/** Synthesize the shard files for `chunks` and store them; returns the keys written. */
export async function writeShards(
  store: Store,
  spec: ShardingSpec,
  chunks: ReadonlyMap<bigint, Uint8Array> | Iterable<readonly [bigint, Uint8Array]>,
  options: WriteShardsOptions = {},
): Promise<string[]> {
  const set = store.set?.bind(store);
  if (!set) throw new UnsupportedError("writeShards needs a store with set()");
  const prefix = options.prefix ?? "";
  const files = synthesizeShards(spec, chunks);
  const keys: string[] = [];
  await Promise.all(
    [...files].map(([name, bytes]) => {
      const key = joinKey(prefix, name);
      keys.push(key);
      return set(key, bytes, { signal: options.signal });
    }),
  );
  return keys;
}
