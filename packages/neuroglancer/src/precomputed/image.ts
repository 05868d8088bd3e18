import {
  CorruptDataError,
  InvalidMetadataError,
  InvalidSelectionError,
  NotFoundError,
  type RequestOptions,
  showValue,
  type Store,
  UnsupportedError,
} from "@zarrkit/registry";
import { DEFAULT_MAX_CHUNK_BYTES } from "../limits.js";
import { ShardReader, type ShardReaderOptions } from "../shard-reader.js";
import { joinKey } from "../store-key.js";
import { type Cell, type ChunkSource, fileChunks, shardedChunks } from "./chunk-source.js";
import { decodeCompressedSegmentation } from "./compressed-segmentation.js";
import { bytesPerVoxel, type PrecomputedDataType, type PrecomputedTypedArray, typedArrayOf } from "./data-type.js";
import { DIMS, mapVec3, type PrecomputedInfo, type PrecomputedScale, parsePrecomputedInfo, type Vec3 } from "./info.js";

export interface OpenPrecomputedImageOptions extends RequestOptions {
  /** Directory of the volume (holding `info`) in the store. Default "". */
  prefix?: string;
  /** The `info` JSON (parsed or not), when already at hand; otherwise `<prefix>/info` is read. */
  info?: unknown;
  /** Cache and coalescing settings of the shard readers of sharded scales. */
  shardReader?: Omit<ShardReaderOptions, "prefix">;
}

/** A box of voxels [min, max) in the scale's coordinates (voxel_offset included). */
export interface VoxelBox {
  /** First voxel, [x, y, z]. */
  min: readonly number[];
  /** End voxel (exclusive), [x, y, z]. */
  max: readonly number[];
}

export interface ReadImageOptions extends RequestOptions {
  /** Scale index or key. Default 0 (the finest). */
  scale?: number | string;
  /** Missing chunks read as zeros (default, as neuroglancer shows them); false raises NotFoundError. */
  fillMissing?: boolean;
  /**
   * A box whose output would exceed this many bytes is refused with InvalidSelectionError before anything is read.
   * Default 2 GiB - 1.
   */
  maxBytes?: number;
}

/** Voxels read by `PrecomputedImage.read`. */
export interface ImageRegion {
  /** Voxels in [channel][z][y][x] order, x fastest (the layout of raw chunks). */
  data: PrecomputedTypedArray;
  /** [x, y, z, channels]. */
  shape: [number, number, number, number];
  /** The voxels' data type. */
  dataType: PrecomputedDataType;
}

/** A precomputed volume opened for reading. */
export interface PrecomputedImage {
  /** The volume's `info` document. */
  readonly info: PrecomputedInfo;
  /** Read a box of one scale, whether the scale is sharded or one file per chunk. */
  read(box: VoxelBox, options?: ReadImageOptions): Promise<ImageRegion>;
}

/** Open a precomputed volume for reading by bounding box. */
export async function openPrecomputedImage(
  store: Store,
  options: OpenPrecomputedImageOptions = {},
): Promise<PrecomputedImage> {
  const prefix = options.prefix ?? "";
  let json = options.info;
  if (json === undefined) {
    const key = joinKey(prefix, "info");
    const bytes = await store.get(key, { signal: options.signal });
    if (!bytes) throw new NotFoundError(`no precomputed info at ${key}`, { key });
    try {
      json = JSON.parse(new TextDecoder().decode(bytes));
    } catch (cause) {
      throw new InvalidMetadataError(`${key} is not JSON`, { key, cause });
    }
  }
  const info = parsePrecomputedInfo(json);
  // One source per scale, chosen once: the read below never asks whether a scale is sharded.
  const sources = new Map<PrecomputedScale, ChunkSource>();
  const sourceFor = (scale: PrecomputedScale): ChunkSource => {
    let source = sources.get(scale);
    if (!source) {
      const directory = joinKey(prefix, scale.key);
      const chunk = scale.chunk_sizes[0];
      const gridSize = mapVec3((d) => Math.ceil(scale.size[d] / chunk[d]));
      source = scale.sharding
        ? shardedChunks(
            new ShardReader(store, scale.sharding, { ...options.shardReader, prefix: directory }),
            scale.sharding,
            gridSize,
          )
        : fileChunks(store, directory);
      sources.set(scale, source);
    }
    return source;
  };

  return {
    info,
    async read(box, readOptions = {}) {
      const [scaleIndex, scale] = selectScale(info, readOptions.scale);
      const field = `scales[${scaleIndex}]`;
      const [min, max] = checkBox(box, scale);
      const signal = readOptions.signal;
      const bpv = bytesPerVoxel(info.data_type);
      const channels = info.num_channels;
      const shape: Vec3 = [max[0] - min[0], max[1] - min[1], max[2] - min[2]];
      // Size first: a box of 2^40 voxels must be refused at once, before any chunk is enumerated.
      const out = allocateRegion(shape, channels, bpv, readOptions.maxBytes ?? MAX_REGION_BYTES, scale);
      const maxDecodedBytes = storedChunkBound(info, scale);
      const perChunk = chunkBytes(info, scale);
      const maxChunkBytes = options.shardReader?.maxChunkBytes ?? DEFAULT_MAX_CHUNK_BYTES;
      if (perChunk > maxChunkBytes && out.length > 0) {
        throw new InvalidMetadataError(
          `${field}.chunk_sizes[0] [${scale.chunk_sizes[0]}] decodes to ${perChunk} bytes per chunk, more than ` +
            `maxChunkBytes (${maxChunkBytes})`,
          { field: `${field}.chunk_sizes[0]` },
        );
      }
      // Chunks are enumerated lazily and fetched in batches.
      const source = sourceFor(scale);
      for (const cells of batches(cellsOf(scale, min, max), perChunk)) {
        const stored = await source.read(cells, { signal, maxDecodedBytes });
        cells.forEach((cell, i) => {
          const { bytes, key, name } = stored[i]!;
          if (!bytes) {
            if (readOptions.fillMissing === false) throw new NotFoundError(`${name} is missing`, { key });
            return;
          }
          const chunkShape: Vec3 = [
            cell.end[0] - cell.start[0],
            cell.end[1] - cell.start[1],
            cell.end[2] - cell.start[2],
          ];
          const voxels = decodeChunk(bytes, info, scale, field, chunkShape, name, key);
          copyOverlap(voxels, cell, chunkShape, out, min, max, shape, channels, bpv);
        });
      }
      return { data: typedArrayOf(info.data_type, out), shape: [...shape, channels], dataType: info.data_type };
    },
  };
}

/** Default bound of one read's output: 2 GiB - 1 bytes, allocatable as one typed array everywhere. */
export const MAX_REGION_BYTES = 2 ** 31 - 1;
/** Chunks fetched per batch at most, and bytes of decoded chunks held per batch at most (one chunk may exceed it). */
const BATCH_CHUNKS = 1024;
const BATCH_BYTES = 256 * 2 ** 20;

function allocateRegion(
  shape: Vec3,
  channels: number,
  bpv: number,
  maxBytes: number,
  scale: PrecomputedScale,
): Uint8Array<ArrayBuffer> {
  const bytes = shape[0] * shape[1] * shape[2] * channels * bpv;
  const what = `box of [${shape}] voxels x ${channels} channel(s) x ${bpv} byte(s) in scale ${scale.key}`;
  if (!(bytes <= maxBytes)) {
    throw new InvalidSelectionError(
      `${what} is ${bytes} bytes, more than ${maxBytes} (maxBytes); read it in smaller boxes`,
    );
  }
  try {
    return new Uint8Array(bytes);
  } catch (cause) {
    throw new InvalidSelectionError(`${what}: ${bytes} bytes cannot be allocated; read it in smaller boxes`, { cause });
  }
}

/** Decoded bytes of one full chunk of the scale. */
function chunkBytes(info: PrecomputedInfo, scale: PrecomputedScale): number {
  const [cx, cy, cz] = scale.chunk_sizes[0];
  return cx * cy * cz * info.num_channels * bytesPerVoxel(info.data_type);
}

/**
 * The most bytes a valid chunk of the scale decodes to from its shard's
 * data_encoding, so a gzip member inflating past it stops there: the voxels of
 * a raw chunk; for compressed_segmentation, channel offsets, block headers,
 * 32-bit indices and a table entry per voxel of every (padded) block.
 */
function storedChunkBound(info: PrecomputedInfo, scale: PrecomputedScale): number {
  const raw = chunkBytes(info, scale);
  const block = scale.compressed_segmentation_block_size;
  if (scale.encoding !== "compressed_segmentation" || !block) return raw;
  const [cx, cy, cz] = scale.chunk_sizes[0];
  const [bx, by, bz] = block;
  const blocks = Math.ceil(cx / bx) * Math.ceil(cy / by) * Math.ceil(cz / bz);
  const blockVoxels = bx * by * bz;
  const width = info.data_type === "uint64" ? 8 : 4;
  return Math.min(2 ** 53, info.num_channels * (4 + blocks * (8 + blockVoxels * (4 + width))));
}

/** Group lazily produced cells into batches of at most BATCH_CHUNKS cells and about BATCH_BYTES decoded bytes. */
function* batches<T>(items: Iterable<T>, bytesEach: number): Generator<T[]> {
  const size = Math.max(1, Math.min(BATCH_CHUNKS, Math.floor(BATCH_BYTES / bytesEach)));
  let batch: T[] = [];
  for (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** The index and the scale selected by `scale` (an index or a key). */
function selectScale(info: PrecomputedInfo, scale: number | string = 0): [number, PrecomputedScale] {
  const index = typeof scale === "number" ? scale : info.scales.findIndex((s) => s.key === scale);
  const selected = Number.isInteger(index) && index >= 0 ? info.scales[index] : undefined;
  if (!selected) {
    throw new InvalidSelectionError(
      `no scale ${showValue(scale, 80)}; scales are ${info.scales.map((s) => s.key).join(", ")}`,
    );
  }
  return [index, selected];
}

const isSafeInteger = (n: unknown): n is number => Number.isSafeInteger(n);

/** A corner of a box as a Vec3, or undefined unless it is an array of 3 safe integers. */
function corner(value: unknown): Vec3 | undefined {
  if (!Array.isArray(value) || value.length !== 3) return undefined;
  const [x, y, z]: unknown[] = value;
  return isSafeInteger(x) && isSafeInteger(y) && isSafeInteger(z) ? [x, y, z] : undefined;
}

function checkBox(box: VoxelBox, scale: PrecomputedScale): [Vec3, Vec3] {
  const min = corner(box?.min);
  const max = corner(box?.max);
  const ok =
    min !== undefined &&
    max !== undefined &&
    DIMS.every(
      (d) => scale.voxel_offset[d] <= min[d] && min[d] <= max[d] && max[d] <= scale.voxel_offset[d] + scale.size[d],
    );
  if (!ok) {
    const lo = scale.voxel_offset;
    const hi = mapVec3((d) => lo[d] + scale.size[d]);
    throw new InvalidSelectionError(
      `box ${showValue(box?.min, 80)}..${showValue(box?.max, 80)} is not within scale ${scale.key} bounds ` +
        `[${lo}]..[${hi}]`,
    );
  }
  return [min, max];
}

/** The chunks overlapping [min, max), x fastest, produced one at a time. */
function* cellsOf(scale: PrecomputedScale, min: Vec3, max: Vec3): Generator<Cell> {
  if (DIMS.some((d) => min[d] === max[d])) return;
  const chunk = scale.chunk_sizes[0];
  const offset = scale.voxel_offset;
  const first = mapVec3((d) => Math.floor((min[d] - offset[d]) / chunk[d]));
  const last = mapVec3((d) => Math.ceil((max[d] - offset[d]) / chunk[d]));
  for (let z = first[2]; z < last[2]; z++) {
    for (let y = first[1]; y < last[1]; y++) {
      for (let x = first[0]; x < last[0]; x++) {
        const grid: Vec3 = [x, y, z];
        const start = mapVec3((d) => offset[d] + grid[d] * chunk[d]);
        const end = mapVec3((d) => Math.min(start[d] + chunk[d], offset[d] + scale.size[d]));
        yield { grid, start, end };
      }
    }
  }
}

/** Decode a stored chunk into little-endian voxel bytes, [channel][z][y][x]. */
function decodeChunk(
  stored: Uint8Array,
  info: PrecomputedInfo,
  scale: PrecomputedScale,
  field: string,
  shape: Vec3,
  name: string,
  key: string,
): Uint8Array {
  const expected = shape[0] * shape[1] * shape[2] * info.num_channels * bytesPerVoxel(info.data_type);
  let voxels: Uint8Array;
  if (scale.encoding === "raw") {
    voxels = stored;
  } else if (scale.encoding === "compressed_segmentation") {
    if (info.data_type !== "uint32" && info.data_type !== "uint64") {
      throw new InvalidMetadataError(`compressed_segmentation needs uint32 or uint64 data, not ${info.data_type}`, {
        field: "data_type",
      });
    }
    // parsePrecomputedInfo sets it for every compressed_segmentation scale.
    const blockSize = scale.compressed_segmentation_block_size;
    if (!blockSize) {
      throw new InvalidMetadataError(`${field}.compressed_segmentation_block_size is missing`, {
        field: `${field}.compressed_segmentation_block_size`,
      });
    }
    voxels = decodeCompressedSegmentation(stored, shape, info.num_channels, blockSize, info.data_type, key);
  } else {
    throw new UnsupportedError(
      `${field}.encoding ${showValue(scale.encoding, 80)} cannot be decoded (raw and compressed_segmentation can)`,
      {
        field: `${field}.encoding`,
      },
    );
  }
  if (voxels.length !== expected) {
    throw new CorruptDataError(
      `${name} has ${voxels.length} bytes of voxels, expected ${expected} for shape [${shape}]`,
      {
        key,
      },
    );
  }
  return voxels;
}

/** Copy the part of a chunk inside [min, max) into the output, one x-run at a time. */
function copyOverlap(
  voxels: Uint8Array,
  cell: Cell,
  chunkShape: Vec3,
  out: Uint8Array,
  min: Vec3,
  max: Vec3,
  shape: Vec3,
  channels: number,
  bpv: number,
): void {
  const lo = mapVec3((d) => Math.max(min[d], cell.start[d]));
  const hi = mapVec3((d) => Math.min(max[d], cell.end[d]));
  const run = (hi[0] - lo[0]) * bpv;
  if (run <= 0) return;
  for (let c = 0; c < channels; c++) {
    for (let z = lo[2]; z < hi[2]; z++) {
      for (let y = lo[1]; y < hi[1]; y++) {
        const src =
          (((c * chunkShape[2] + z - cell.start[2]) * chunkShape[1] + y - cell.start[1]) * chunkShape[0] +
            lo[0] -
            cell.start[0]) *
          bpv;
        const dst = (((c * shape[2] + z - min[2]) * shape[1] + y - min[1]) * shape[0] + lo[0] - min[0]) * bpv;
        out.set(voxels.subarray(src, src + run), dst);
      }
    }
  }
}
