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
import { ConvertOptionError } from "./errors.js";
import { checkFootprint, downsampledSource, footprint } from "./downsample.js";

/** Voxel types a precomputed volume holds (neuroglancer's set). */
const PRECOMPUTED_TYPES = new Set(["uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "float32"]);

/** Scale k's key: "s0" at full resolution, "s1" halved, and so on. */
export function scaleKey(level: number): string {
  return `s${level}`;
}

/** One shard file of a scale and the chunks it holds. */
export interface PrecomputedShard {
  /** Store key of the shard file, e.g. "s0/0a.shard". */
  key: string;
  /** Chunk grid positions [gx, gy, gz] with their chunk ids (compressed Morton codes). */
  chunks: {
    /** Chunk grid position [gx, gy, gz]. */
    position: number[];
    /** The chunk id: its compressed Morton code. */
    id: bigint;
  }[];
}

/** One scale of the volume: where it is stored, how it is sharded, and what it is read from. */
export interface PrecomputedScale {
  /** "s0", "s1", ...: the folder of its shard files. */
  key: string;
  /** The scale's sharding parameters. */
  spec: ShardingSpec;
  /** [x, y, z] voxels. */
  size: number[];
  /** Channels per voxel. */
  channels: number;
  /** [x, y, z] voxels per chunk. */
  chunk: number[];
  /** Every shard file, in key order (the order parts split). */
  shards: PrecomputedShard[];
  /** The source (level 0) or its downsampled level, in the source's dimension order. */
  source: ConvertSource;
}

/** How `planPrecomputed` and `writePrecomputed` lay out a volume. */
export interface PrecomputedOptions {
  /** Chunk shape in the source's dimension order (default: the source's); the channel dimension is always whole. */
  chunkShape?: readonly number[];
  /** Decoded bytes per shard file the sharding parameters aim at. */
  shardBytes: number;
  /** How chunks are stored in the shard files: "gzip" or "raw". */
  dataEncoding: ShardingEncoding;
  /** A segmentation volume (levels: the most frequent value) rather than an image (the mean). */
  labels: boolean;
  /** Downsampled scales after s0 (default 0). */
  levels?: number;
}

/** A planned precomputed volume: its `info` document and its scales with their shard files. */
export interface PrecomputedPlan {
  /** The volume's `info` document. */
  info: Uint8Array;
  /** Finest first, as Neuroglancer lists them. */
  scales: PrecomputedScale[];
}

/**
 * A sharded precomputed volume (raw or gzip chunks) holding `source`: Zarr
 * arrays of [y, x], [z, y, x] or [c, z, y, x] (C order, x fastest: the raw
 * chunk layout). `chunkShape` is in the source's dimension order; the channel
 * dimension is always whole. With `levels` N, scales 1..N follow scale 0,
 * each halved on x, y and z (the axes of size 1 stay 1), its resolution
 * doubled, and computed from the source like --multiscale's levels (the mean,
 * or with `labels` the most frequent value). Sharding parameters come from
 * `computeShardParamsForImage` with shards of about `shardBytes`, per scale.
 * Nothing is written: `writePrecomputed` writes a plan, or `writePrecomputedShard` one shard of it.
 */
export function planPrecomputed(source: ConvertSource, options: PrecomputedOptions): PrecomputedPlan {
  const rank = source.shape.length;
  if (rank < 2 || rank > 4)
    throw new UnsupportedError(
      `${source.label}: precomputed volumes are made of arrays of [y, x], [z, y, x] or [c, z, y, x]; ` +
        `this one has ${rank} dimensions`,
    );
  if (!PRECOMPUTED_TYPES.has(source.dataType)) {
    throw new UnsupportedError(
      `${source.label}: precomputed volumes hold ${[...PRECOMPUTED_TYPES].join(", ")}, not ${source.dataType}`,
    );
  }
  const zyx = (shape: readonly number[]) => [shape[rank - 1]!, shape[rank - 2]!, rank >= 3 ? shape[rank - 3]! : 1];
  const channels = rank === 4 ? source.shape[0]! : 1;
  if (source.shape.some((n) => n === 0)) {
    const shape = source.shape.join(", ");
    throw new UnsupportedError(`${source.label}: an empty array (shape [${shape}]) makes no precomputed volume`);
  }
  const levels = options.levels ?? 0;
  // The channel dimension (of [c, z, y, x]) is never downsampled.
  const spatial = source.shape.map((_, d) => rank < 4 || d > 0);
  if (levels > 0 && !checkFootprint(levels, spatial)) {
    throw new ConvertOptionError(
      "multiscale",
      (n) =>
        `${n("multiscale")} ${levels}: a voxel of the last scale would cover ${2 ** levels} voxels per axis, ` +
        "more than one read may hold; use fewer levels",
    );
  }
  const chunk0 = zyx(options.chunkShape ?? source.chunkShape);
  // A resolution in nanometres (a precomputed source's) is kept; anything else has none to give.
  const resolution0 = source.voxelSize?.unit === "nanometer" ? zyx(source.voxelSize.size) : [1, 1, 1];
  const scales: PrecomputedScale[] = [];
  const infoScales: Record<string, unknown>[] = [];
  for (let level = 0; level <= levels; level++) {
    const method = options.labels ? "mode" : "mean";
    const levelSource = level === 0 ? source : downsampledSource(source, level, spatial, method);
    const size = zyx(levelSource.shape);
    const factor = zyx(footprint(level, spatial));
    const chunk = chunk0.map((n, d) => Math.max(1, Math.min(n, size[d]!)));
    const spec = computeShardParamsForImage({
      size,
      chunkSize: chunk,
      encoding: "raw",
      dataType: source.dataType,
      uncompressedShardBytes: options.shardBytes / channels,
      dataEncoding: options.dataEncoding,
    });
    const key = scaleKey(level);
    const resolution = resolution0.map((r, d) => r * factor[d]!);
    const scale = {
      key,
      size,
      resolution,
      voxel_offset: [0, 0, 0],
      chunk_sizes: [chunk],
      encoding: "raw",
      sharding: spec,
    };
    infoScales.push(scale);
    scales.push({ key, spec, size, channels, chunk, shards: shardsOf(key, spec, size, chunk), source: levelSource });
  }
  const info = {
    "@type": "neuroglancer_multiscale_volume",
    type: options.labels ? "segmentation" : "image",
    data_type: source.dataType,
    num_channels: channels,
    scales: infoScales,
  };
  return { info: new TextEncoder().encode(JSON.stringify(info)), scales };
}

/** The shard files of one scale with the chunks each holds, in key order. */
function shardsOf(
  scale: string,
  spec: ShardingSpec,
  size: readonly number[],
  chunk: readonly number[],
): PrecomputedShard[] {
  const grid = size.map((n, d) => Math.ceil(n / chunk[d]!));
  const byKey = new Map<string, PrecomputedShard>();
  for (let gz = 0; gz < grid[2]!; gz++)
    for (let gy = 0; gy < grid[1]!; gy++)
      for (let gx = 0; gx < grid[0]!; gx++) {
        const position = [gx, gy, gz];
        const id = compressedMortonCode(position, grid);
        const key = `${scale}/${shardLocation(spec, id).key}`;
        let shard = byKey.get(key);
        if (!shard) byKey.set(key, (shard = { key, chunks: [] }));
        shard.chunks.push({ position, id });
      }
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The source box (in its own dimension order) of voxels [min, max) in x, y, z. */
function sourceBox(
  rank: number,
  channels: number,
  min: readonly number[],
  max: readonly number[],
): { start: number[]; stop: number[] } {
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
export async function writePrecomputedShard(
  store: WritableStore,
  plan: PrecomputedScale,
  shard: PrecomputedShard,
): Promise<{
  /** Decoded bytes read from the source. */
  read: number;
  /** Bytes stored. */
  stored: number;
}> {
  const source = plan.source;
  const rank = source.shape.length;
  // With the identity hash, a shard's chunks are an aligned block of the grid: its bounding box.
  const min = [0, 1, 2].map((d) =>
    shard.chunks.reduce((m, c) => Math.min(m, c.position[d]! * plan.chunk[d]!), Number.POSITIVE_INFINITY),
  );
  const max = [0, 1, 2].map((d) =>
    shard.chunks.reduce((m, c) => Math.max(m, Math.min(plan.size[d]!, (c.position[d]! + 1) * plan.chunk[d]!)), 0),
  );
  const box = sourceBox(rank, plan.channels, min, max);
  const volume = (lo: readonly number[], hi: readonly number[]) => lo.reduce((a, s, d) => a * (hi[d]! - s), 1);
  const chunkBoxes = shard.chunks.map(({ position, id }) => {
    const lo = position.map((g, d) => g * plan.chunk[d]!);
    return {
      id,
      ...sourceBox(
        rank,
        plan.channels,
        lo,
        lo.map((s, d) => Math.min(plan.size[d]!, s + plan.chunk[d]!)),
      ),
    };
  });
  // Read once when the box holds nothing but the shard's chunks (else chunk by chunk, to stay within the shard's size).
  const tight = volume(box.start, box.stop) <= chunkBoxes.reduce((a, c) => a + volume(c.start, c.stop), 0);
  const whole = tight ? await source.read(box.start, box.stop) : undefined;
  let read = 0;
  const chunks = new Map<bigint, Uint8Array>();
  for (const part of chunkBoxes) {
    let values: NdArray["data"];
    if (whole) {
      values = extractBox(
        whole,
        part.start.map((s, d) => s - box.start[d]!),
        part.stop.map((s, d) => s - box.start[d]!),
        source,
      );
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
    await store.set(`${plan.key}/${name}`, bytes);
    stored += bytes.length;
  }
  return { read: read * source.type.byteSize!, stored };
}

/** The part [start, stop) of a C-order array, as a new C-order array. */
function extractBox(
  array: NdArray,
  start: readonly number[],
  stop: readonly number[],
  source: ConvertSource,
): NdArray["data"] {
  const shape = array.shape;
  const rank = shape.length;
  const counts = start.map((s, d) => stop[d]! - s);
  const out = source.type.allocate(counts.reduce((a, b) => a * b, 1)) as unknown as {
    set(v: ArrayLike<unknown>, o: number): void;
  };
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
export async function precomputedShardComplete(
  store: WritableStore,
  plan: PrecomputedScale,
  key: string,
): Promise<boolean> {
  try {
    const size = store.size ? await store.size(key) : (await store.get(key))?.length;
    if (size === undefined) return false;
    const indexBytes = shardIndexSize(plan.spec);
    if (size < indexBytes) return false;
    const head = store.getRange
      ? await store.getRange(key, { offset: 0, length: indexBytes })
      : (await store.get(key))?.subarray(0, indexBytes);
    if (!head || head.length !== indexBytes) return false;
    const ends = decodeShardIndex(head, key).map((r) => (r ? r.offset + r.length : 0));
    return ends.reduce((a, b) => Math.max(a, b), indexBytes) === size;
  } catch (error) {
    if (error instanceof ZarrkitError) return false;
    throw error;
  }
}
