import { CorruptDataError } from "@zarrkit/core";
import { EMPTY_ENTRY, type ShardingConfig } from "./config.js";

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Offsets and lengths of each inner chunk, in C order of the inner chunk grid; -1 marks an empty chunk. */
export interface ShardIndex {
  offsets: Float64Array;
  lengths: Float64Array;
}

export function emptyIndex(count: number): ShardIndex {
  return { offsets: new Float64Array(count).fill(-1), lengths: new Float64Array(count).fill(-1) };
}

export function indexBytes(index: ShardIndex): number {
  return index.offsets.byteLength + index.lengths.byteLength;
}

export function innerChunkCoords(config: ShardingConfig, linear: number): number[] {
  const coords = new Array<number>(config.gridShape.length);
  for (let d = config.gridShape.length - 1; d >= 0; d--) {
    coords[d] = linear % config.gridShape[d]!;
    linear = Math.floor(linear / config.gridShape[d]!);
  }
  return coords;
}

/**
 * Decode and check a shard index. Every way an index can lie is refused with
 * the key and the inner chunk: half-empty entries, values that cannot be byte
 * offsets, entries overlapping each other or the index, and (when the shard's
 * size is known) entries past its end.
 */
export async function decodeIndex(
  config: ShardingConfig,
  bytes: Uint8Array,
  key: string,
  shardSize?: number,
): Promise<ShardIndex> {
  if (bytes.length !== config.indexSize) {
    throw new CorruptDataError(
      `Shard ${key} is too short to hold its ${config.indexSize}-byte index (got ${bytes.length} bytes)`,
      { key },
    );
  }
  const decoded = await config.index.decode(bytes, { key: `${key} (index)` });
  const raw = decoded.data as BigUint64Array;
  const index = emptyIndex(config.chunkCount);
  const dataStart = config.indexLocation === "start" ? config.indexSize : 0;
  const dataEnd =
    shardSize === undefined ? undefined : config.indexLocation === "end" ? shardSize - config.indexSize : shardSize;
  const where = (i: number) => `inner chunk [${innerChunkCoords(config, i).join(", ")}] of shard ${key}`;
  for (let i = 0; i < config.chunkCount; i++) {
    const offset = raw[2 * i]!;
    const length = raw[2 * i + 1]!;
    if (offset === EMPTY_ENTRY && length === EMPTY_ENTRY) continue;
    if (offset === EMPTY_ENTRY || length === EMPTY_ENTRY) {
      throw new CorruptDataError(`The index entry of ${where(i)} is half empty (offset ${offset}, nbytes ${length})`, {
        key,
      });
    }
    if (offset > MAX_SAFE || length > MAX_SAFE || offset + length > MAX_SAFE) {
      throw new CorruptDataError(
        `The index entry of ${where(i)} (offset ${offset}, nbytes ${length}) is beyond 2^53 bytes`,
        { key },
      );
    }
    const start = Number(offset);
    const end = start + Number(length);
    if (start < dataStart || (dataEnd !== undefined && end > dataEnd)) {
      throw new CorruptDataError(
        `The index entry of ${where(i)} points at bytes [${start}, ${end}) outside the shard's data ` +
          `[${dataStart}, ${dataEnd ?? "end"})`,
        { key },
      );
    }
    index.offsets[i] = start;
    index.lengths[i] = Number(length);
  }
  checkOverlaps(index, where, key);
  return index;
}

function checkOverlaps(index: ShardIndex, where: (i: number) => string, key: string): void {
  const present: number[] = [];
  for (let i = 0; i < index.offsets.length; i++) if (index.offsets[i]! >= 0 && index.lengths[i]! > 0) present.push(i);
  present.sort((a, b) => index.offsets[a]! - index.offsets[b]!);
  for (let k = 1; k < present.length; k++) {
    const prev = present[k - 1]!;
    const cur = present[k]!;
    if (index.offsets[prev]! + index.lengths[prev]! > index.offsets[cur]!) {
      throw new CorruptDataError(`The index entries of ${where(prev)} and ${where(cur)} overlap`, { key });
    }
  }
}

export async function encodeIndex(config: ShardingConfig, index: ShardIndex, key: string): Promise<Uint8Array> {
  const raw = new BigUint64Array(config.chunkCount * 2);
  for (let i = 0; i < config.chunkCount; i++) {
    const empty = index.offsets[i]! < 0;
    raw[2 * i] = empty ? EMPTY_ENTRY : BigInt(index.offsets[i]!);
    raw[2 * i + 1] = empty ? EMPTY_ENTRY : BigInt(index.lengths[i]!);
  }
  return config.index.encode({ data: raw, shape: [...config.gridShape, 2] }, { key: `${key} (index)` });
}

/** Where the index sits in a shard of `size` bytes. */
export function indexRange(config: ShardingConfig, size: number): [number, number] {
  return config.indexLocation === "start" ? [0, config.indexSize] : [size - config.indexSize, size];
}
