import {
  compressedMortonCode,
  computeShardParamsForImage,
  decodeShardIndex,
  type ShardingEncoding,
  type ShardingSpec,
  shardIndexSize,
  shardLocation,
  synthesizeShards,
} from "@zarrkit/neuroglancer";
import { type NdArray, UnsupportedError, type WritableStore, ZarrkitError } from "zarrkit";
import type { ConvertSource } from "./convert-source.js";

/** Voxel types a precomputed volume holds (neuroglancer's set). */
const PRECOMPUTED_TYPES = new Set(["uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "float32"]);

/** The scale written: one, "s0", at full resolution. */
export const SCALE_KEY = "s0";

export interface PrecomputedShard {
  /** Store key of the shard file, e.g. "s0/0a.shard". */
  key: string;
  /** Chunk grid positions [gx, gy, gz] with their chunk ids (compressed Morton codes). */
  chunks: { position: number[]; id: bigint }[];
}

export interface PrecomputedPlan {
  /** The volume's `info` document. */
  info: Uint8Array;
  spec: ShardingSpec;
  /** [x, y, z] voxels, channels. */
  size: number[];
  channels: number;
  chunk: number[];
  /** Every shard file, in key order (the order parts split). */
  shards: PrecomputedShard[];
}

/**
 * A sharded precomputed volume (one scale, raw chunks) holding `source`:
 * Zarr arrays of [y, x], [z, y, x] or [c, z, y, x] (C order, x fastest: the
 * raw chunk layout). `chunkShape` is in the source's dimension order; the
 * channel dimension is always whole. Sharding parameters come from
 * `computeShardParamsForImage` with shards of about `shardBytes`.
 */
export function planPrecomputed(
  source: ConvertSource,
  options: { chunkShape?: readonly number[]; shardBytes: number; dataEncoding: ShardingEncoding; labels: boolean },
): PrecomputedPlan {
  const rank = source.shape.length;
  if (rank < 2 || rank > 4) throw new UnsupportedError(`${source.label}: --to precomputed takes arrays of [y, x], [z, y, x] or [c, z, y, x]; this one has ${rank} dimensions`);
  if (!PRECOMPUTED_TYPES.has(source.dataType)) {
    throw new UnsupportedError(`${source.label}: precomputed volumes hold ${[...PRECOMPUTED_TYPES].join(", ")}, not ${source.dataType}`);
  }
  const zyx = (shape: readonly number[]) => [shape[rank - 1]!, shape[rank - 2]!, rank >= 3 ? shape[rank - 3]! : 1];
  const size = zyx(source.shape);
  const channels = rank === 4 ? source.shape[0]! : 1;
  const chunk = zyx(options.chunkShape ?? source.chunkShape).map((n, d) => Math.max(1, Math.min(n, size[d]!)));
  if (size.some((n) => n === 0) || channels === 0) throw new UnsupportedError(`${source.label}: an empty array (shape [${source.shape.join(", ")}]) makes no precomputed volume`);
  const spec = computeShardParamsForImage({
    size,
    chunkSize: chunk,
    encoding: "raw",
    dataType: source.dataType,
    uncompressedShardBytes: options.shardBytes / channels,
    dataEncoding: options.dataEncoding,
  });
  // A resolution in nanometres (a precomputed source's) is kept; anything else has none to give.
  const resolution = source.voxelSize?.unit === "nanometer" ? zyx(source.voxelSize.size) : [1, 1, 1];
  const scale = { key: SCALE_KEY, size, resolution, voxel_offset: [0, 0, 0], chunk_sizes: [chunk], encoding: "raw", sharding: spec };
  const info = {
    "@type": "neuroglancer_multiscale_volume",
    type: options.labels ? "segmentation" : "image",
    data_type: source.dataType,
    num_channels: channels,
    scales: [scale],
  };
  const grid = size.map((n, d) => Math.ceil(n / chunk[d]!));
  const byKey = new Map<string, PrecomputedShard>();
  for (let gz = 0; gz < grid[2]!; gz++)
    for (let gy = 0; gy < grid[1]!; gy++)
      for (let gx = 0; gx < grid[0]!; gx++) {
        const position = [gx, gy, gz];
        const id = compressedMortonCode(position, grid);
        const key = `${SCALE_KEY}/${shardLocation(spec, id).key}`;
        let shard = byKey.get(key);
        if (!shard) byKey.set(key, (shard = { key, chunks: [] }));
        shard.chunks.push({ position, id });
      }
  const shards = [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { info: new TextEncoder().encode(JSON.stringify(info)), spec, size, channels, chunk, shards };
}

/** The source box (in its own dimension order) of voxels [min, max) in x, y, z. */
function sourceBox(rank: number, channels: number, min: readonly number[], max: readonly number[]): { start: number[]; stop: number[] } {
  const start = [min[2]!, min[1]!, min[0]!];
  const stop = [max[2]!, max[1]!, max[0]!];
  if (rank === 2) return { start: start.slice(1), stop: stop.slice(1) };
  if (rank === 3) return { start, stop };
  return { start: [0, ...start], stop: [channels, ...stop] };
}

/**
 * Read the shard's chunks from the source and store the shard file with one
 * write (a temporary file and a rename on the filesystem): the file is absent
 * or complete. Returns the bytes read and stored.
 */
export async function writePrecomputedShard(store: WritableStore, plan: PrecomputedPlan, shard: PrecomputedShard, source: ConvertSource): Promise<{ read: number; stored: number }> {
  const rank = source.shape.length;
  // With the identity hash, a shard's chunks are an aligned block of the grid: its bounding box.
  const min = [0, 1, 2].map((d) => shard.chunks.reduce((m, c) => Math.min(m, c.position[d]! * plan.chunk[d]!), Number.POSITIVE_INFINITY));
  const max = [0, 1, 2].map((d) => shard.chunks.reduce((m, c) => Math.max(m, Math.min(plan.size[d]!, (c.position[d]! + 1) * plan.chunk[d]!)), 0));
  const box = sourceBox(rank, plan.channels, min, max);
  const volume = (lo: readonly number[], hi: readonly number[]) => lo.reduce((a, s, d) => a * (hi[d]! - s), 1);
  const chunkBoxes = shard.chunks.map(({ position, id }) => {
    const lo = position.map((g, d) => g * plan.chunk[d]!);
    return { id, ...sourceBox(rank, plan.channels, lo, lo.map((s, d) => Math.min(plan.size[d]!, s + plan.chunk[d]!))) };
  });
  // Read once when the box holds nothing but the shard's chunks (else chunk by chunk, to stay within the shard's size).
  const tight = volume(box.start, box.stop) <= chunkBoxes.reduce((a, c) => a + volume(c.start, c.stop), 0);
  const whole = tight ? await source.read(box.start, box.stop) : undefined;
  let read = 0;
  const chunks = new Map<bigint, Uint8Array>();
  for (const part of chunkBoxes) {
    let values: NdArray["data"];
    if (whole) {
      values = extractBox(whole, part.start.map((s, d) => s - box.start[d]!), part.stop.map((s, d) => s - box.start[d]!), source);
    } else {
      values = (await source.read(part.start, part.stop)).data;
      read += values.length;
    }
    const data = values as unknown as ArrayBufferView;
    chunks.set(part.id, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  }
  if (whole) read = whole.data.length;
  const files = synthesizeShards(plan.spec, chunks);
  let stored = 0;
  for (const [name, bytes] of files) {
    await store.set(`${SCALE_KEY}/${name}`, bytes);
    stored += bytes.length;
  }
  return { read: read * source.type.byteSize!, stored };
}

/** The part [start, stop) of a C-order array, as a new C-order array. */
function extractBox(array: NdArray, start: readonly number[], stop: readonly number[], source: ConvertSource): NdArray["data"] {
  const shape = array.shape;
  const rank = shape.length;
  const counts = start.map((s, d) => stop[d]! - s);
  const out = source.type.allocate(counts.reduce((a, b) => a * b, 1)) as unknown as { set(v: ArrayLike<unknown>, o: number): void };
  const from = array.data as unknown as { subarray(a: number, b: number): ArrayLike<unknown> };
  const strides = shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));
  const inner = counts[rank - 1]!;
  const rows = counts.slice(0, -1).reduce((a, b) => a * b, 1);
  const index = counts.map(() => 0);
  for (let row = 0; row < rows; row++) {
    let at = start[rank - 1]!;
    for (let d = 0; d < rank - 1; d++) at += (start[d]! + index[d]!) * strides[d]!;
    out.set(from.subarray(at, at + inner), row * inner);
    for (let d = rank - 2; d >= 0; d--) {
      if (++index[d]! < counts[d]!) break;
      index[d] = 0;
    }
  }
  return out as unknown as NdArray["data"];
}

/**
 * A shard file already present and complete: its shard index decodes and the
 * file ends exactly where the last minishard index (written last) ends.
 */
export async function precomputedShardComplete(store: WritableStore, plan: PrecomputedPlan, key: string): Promise<boolean> {
  try {
    const size = store.size ? await store.size(key) : (await store.get(key))?.length;
    if (size === undefined) return false;
    const indexBytes = shardIndexSize(plan.spec);
    if (size < indexBytes) return false;
    const head = store.getRange ? await store.getRange(key, { offset: 0, length: indexBytes }) : (await store.get(key))?.subarray(0, indexBytes);
    if (!head || head.length !== indexBytes) return false;
    const ends = decodeShardIndex(head, key).map((r) => (r ? r.offset + r.length : 0));
    return ends.reduce((a, b) => Math.max(a, b), indexBytes) === size;
  } catch (error) {
    if (error instanceof ZarrkitError) return false;
    throw error;
  }
}
