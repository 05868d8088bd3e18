import { CorruptDataError, dataType, PreconditionFailedError } from "@zarrkit/core";
import {
  blockSlices,
  fillSelection,
  forEachConcurrent,
  settleAll,
  type StoredPart,
  withRangeRead,
} from "@zarrkit/core/internal";
import type { ArrayRegion, ChunkSpec, CodecContext, ReadOptions, StoredValue, WindowQuery } from "@zarrkit/registry";
import { type ByteRange, coalesceRanges, type RangeGroup } from "@zarrkit/util";

/** An inner chunk's bytes in the shard. */
interface Wanted extends ByteRange {
  part: InnerPart;
}
import type { ShardingConfig } from "./config.js";
import { type InnerPart, innerKey, partTarget } from "./inner-parts.js";
import { type Coalescing, coalescingFor, type ResolvedShardingOptions } from "./options.js";
import { decodeIndex, innerChunkCoords, type ShardIndex } from "./shard-index.js";
import { windowValue } from "./window-value.js";

/**
 * Inner chunks decoded or encoded at once within one shard: enough to keep codec workers busy, bounded for shards of
 * millions.
 */
export const PARTS_IN_FLIGHT = 256;

/**
 * The longest range a whole shard is read in: larger shards are read in pieces this long, so no read buffer grows with
 * the shard.
 */
const WHOLE_RANGE_BYTES = 64 * 2 ** 20;

/** A decoded shard index with what the store said of the shard it was read from. */
export interface IndexEntry {
  index: ShardIndex;
  /** The shard's version: reads planned from this index are conditioned on it. Undefined when the store keeps none. */
  version: string | undefined;
  /** Size of the shard, when the index read reported it. */
  size: number | undefined;
}

/** Read and check the index of a stored shard; undefined when the shard does not exist. */
export async function fetchIndex(
  config: ShardingConfig,
  value: StoredValue,
  ctx: CodecContext,
): Promise<IndexEntry | undefined> {
  const { indexSize, indexLocation } = config;
  const range = indexLocation === "end" ? { suffixLength: indexSize } : { offset: 0, length: indexSize };
  if (value.getRangeWithSize) {
    // Knowing the shard's size lets every entry be checked against its end, including entries pointing into a trailing
    // index.
    const sized = await value.getRangeWithSize(range, { signal: ctx.signal });
    if (!sized) return undefined;
    return {
      index: await decodeIndex(config, sized.value, ctx.key, sized.size),
      version: sized.version,
      size: sized.size,
    };
  }
  const bytes = await value.getRange!(range, { signal: ctx.signal });
  return bytes && { index: await decodeIndex(config, bytes, ctx.key), version: undefined, size: undefined };
}

/** What reading some inner chunks of a shard takes, planned from its index. */
export interface ReadPlan {
  /** Empty inner chunks: the fill value, nothing to read. */
  empty: InnerPart[];
  /** Parts of nested shards, each read through a window of ours. */
  nested: { part: InnerPart; offset: number; length: number }[];
  /** Coalesced byte ranges and the inner chunks each holds. */
  ranges: RangeGroup<Wanted>[];
}

/**
 * One shard seen through one decoded index: plans the byte ranges a read
 * needs, then reads them, every read conditioned on the version the index
 * came from. When the shard has changed since, a read fails with
 * `PreconditionFailedError` and the caller plans again from a fresh index.
 */
export class ShardPartialDecoder {
  constructor(
    private readonly config: ShardingConfig,
    private readonly options: ResolvedShardingOptions,
    private readonly value: StoredValue,
    readonly entry: IndexEntry,
  ) {}

  /**
   * The reads `parts` need; `whole`: their stored bytes in as few ranges as a read buffer allows, as when reading a
   * whole shard.
   */
  plan(parts: Iterable<InnerPart>, whole = false): ReadPlan {
    const { index } = this.entry;
    const plan: ReadPlan = { empty: [], nested: [], ranges: [] };
    const wanted: Wanted[] = [];
    for (const part of parts) {
      const offset = index.offsets[part.linear]!;
      const length = index.lengths[part.linear]!;
      if (offset < 0) plan.empty.push(part);
      else if (!part.full && this.config.inner.decodesPartially) plan.nested.push({ part, offset, length });
      else wanted.push({ offset, length, part });
    }
    const { coalesceGapBytes, maxRequestBytes } = this.coalescing(whole);
    plan.ranges = coalesceRanges(wanted, coalesceGapBytes, maxRequestBytes);
    return plan;
  }

  /**
   * The coalesced byte ranges holding every stored inner chunk of `parts` (`whole`: as for a whole shard), nested
   * shards whole: what `plannedReads` reports.
   */
  byteRanges(parts: Iterable<InnerPart>, whole = false): { offset: number; length: number }[] {
    const { index } = this.entry;
    const wanted: ByteRange[] = [];
    for (const part of parts) {
      if (index.offsets[part.linear]! >= 0)
        wanted.push({ offset: index.offsets[part.linear]!, length: index.lengths[part.linear]! });
    }
    const { coalesceGapBytes, maxRequestBytes } = this.coalescing(whole);
    return coalesceRanges(wanted, coalesceGapBytes, maxRequestBytes).map(({ offset, length }) => ({ offset, length }));
  }

  /**
   * How ranges are merged: as the options and the store say, or (`whole`) into one, in pieces of at most
   * WHOLE_RANGE_BYTES.
   */
  private coalescing(whole: boolean): Coalescing {
    return whole
      ? { coalesceGapBytes: Number.POSITIVE_INFINITY, maxRequestBytes: WHOLE_RANGE_BYTES }
      : coalescingFor(this.options, this.value);
  }

  async read(plan: ReadPlan, out: ArrayRegion, spec: ChunkSpec, ctx: CodecContext): Promise<void> {
    const { version } = this.entry;
    for (const part of plan.empty) fillPart(part, out, spec);
    const tasks = plan.nested.map(({ part, offset, length }) => {
      // A nested shard: let it read just what it needs from inside ours.
      const inner = windowValue(this.value, innerKey(ctx.key, part), offset, length, version);
      return this.config.inner.decodeInto(inner, part.local, partTarget(part, out), { ...ctx, key: inner.key });
    });
    const options = { signal: ctx.signal, ...(version !== undefined && { ifMatch: version }) };
    /** The range's inner chunks, in a range of which `available` bytes exist. */
    const partsOf = (range: RangeGroup<Wanted>, available: number | undefined) => {
      if (available === undefined) throw disappeared(ctx.key);
      return range.members.map((m): StoredPart => {
        const start = m.offset - range.offset;
        if (start + m.length > available) throw pastEnd(this.config, ctx.key, m.part, m.offset, m.length);
        const outOffset = partTarget(m.part, out).offset;
        return { key: innerKey(ctx.key, m.part), offset: start, length: m.length, selection: m.part.local, outOffset };
      });
    };
    // Every decode under way settles before this does, even after a failure: the bytes may be a pooled buffer, lent
    // until then.
    const decodeRange = (range: RangeGroup<Wanted>, bytes: Uint8Array | undefined) =>
      this.config.inner.decodeMany(bytes!, partsOf(range, bytes?.length), out, ctx);
    const value = this.value;
    const inner = this.config.inner;
    tasks.push(
      forEachConcurrent(plan.ranges, this.options.concurrency, async (range) => {
        const window = { offset: range.offset, length: range.length };
        if (value.lendRange && inner.readsLent(out, range.members.length)) {
          // The codec workers read the range themselves.
          const readHere = (part: WindowQuery, target: Uint8Array) =>
            readInto(value, { offset: window.offset + part.offset, length: part.length }, target, options);
          return value.lendRange(window, options, (lent) =>
            lent === undefined
              ? Promise.reject(disappeared(ctx.key))
              : inner.decodeLent(lent, (available) => partsOf(range, available), out, ctx, readHere),
          );
        }
        if (!value.getRangeInto) return decodeRange(range, await value.getRange!(window, options));
        const readable = value as StoredValue & Required<Pick<StoredValue, "getRangeInto">>;
        await withRangeRead(
          readable,
          window,
          options,
          (bytes) => decodeRange(range, bytes),
          this.config.inner.readsShared(out),
        );
      }),
    );
    await settleAll(tasks);
  }
}

/** The shard was deleted since its index was read: plan again from whatever is there now. */
function disappeared(key: string): PreconditionFailedError {
  return new PreconditionFailedError(`Shard ${key} disappeared while it was being read`, { key });
}

/** `getRangeInto` of `value`, or `getRange` copied into `target` where it has none. */
export async function readInto(
  value: StoredValue,
  window: WindowQuery,
  target: Uint8Array,
  options: ReadOptions,
): Promise<number | undefined> {
  if (value.getRangeInto) return value.getRangeInto(window, target, options);
  const bytes = await value.getRange!(window, options);
  if (bytes === undefined) return undefined;
  // A store must not answer with more than asked; a hostile one is cut short here.
  const got = bytes.subarray(0, window.length);
  target.set(got);
  return got.length;
}

export function fillPart(part: InnerPart, out: ArrayRegion, spec: ChunkSpec): void {
  fillSelection(
    out.chunk,
    blockSlices(partTarget(part, out).offset, part.counts),
    spec.fillValue,
    dataType(spec.dataType.name),
  );
}

function pastEnd(
  config: ShardingConfig,
  key: string,
  part: InnerPart,
  offset: number,
  length: number,
): CorruptDataError {
  return new CorruptDataError(
    `Inner chunk [${innerChunkCoords(config, part.linear).join(", ")}] of shard ${key} ` +
      `(bytes [${offset}, ${offset + length})) extends past the end of the shard`,
    { key },
  );
}
