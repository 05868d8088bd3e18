import { ChecksumError, CorruptDataError, PreconditionFailedError, StoreError, type WriteSource } from "@zarrkit/core";
import { bytesValue, forEachConcurrent, product, type StoredPart, withScratch } from "@zarrkit/core/internal";
import type {
  ArrayRegion,
  ArrayToBytesCodec,
  Chunk,
  ChunkSpec,
  CodecContext,
  CodecFactory,
  DimSlice,
  StoredValue,
  WindowQuery,
} from "@zarrkit/registry";
import { LruCache } from "@zarrkit/util";
import { parseShardingConfig, type ShardingConfig } from "./config.js";
import { coversShard, type InnerPart, InnerGrid, innerKey, partTarget } from "./inner-parts.js";
import { type ResolvedShardingOptions, resolveOptions } from "./options.js";
import {
  fetchIndex,
  fillPart,
  type IndexEntry,
  PARTS_IN_FLIGHT,
  readInto,
  ShardPartialDecoder,
} from "./partial-decoder.js";
import { assembleShard, type EncodedChunks, indexOfShard } from "./shard-format.js";
import { indexBytes, type ShardIndex } from "./shard-index.js";
import { putShard, type ShardWrite, writeAppend, writeInPlace, writeRewrite } from "./write-strategies.js";

/** Shards larger than this (at the most) are not lent whole: a pooled read buffer that long would be wasteful. */
const MAX_LENT_SHARD_BYTES = 64 * 2 ** 20;

/** Byte ranges a read of a shard will fetch: the whole shard, or its index and coalesced data ranges. */
export interface ShardReadPlan {
  /** The shard's store key. */
  key: string;
  /**
   * Whether the whole shard is read in one request (stores that cannot read into caller memory; others read its index
   * and one range).
   */
  whole: boolean;
  /** The byte ranges read (after coalescing), when not whole. */
  ranges: {
    /** First byte. */
    offset: number;
    /** Bytes. */
    length: number;
  }[];
}

/**
 * `sharding_indexed`: an array->bytes codec whose stored value is a shard of
 * inner chunks. Reads go through a `ShardPartialDecoder` built from the
 * shard's (cached, versioned) index; writes through one of the strategies in
 * write-strategies.ts.
 */
export class ShardingCodec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes";
  readonly name = "sharding_indexed";
  /** Decoded indexes of shards whose store reported a version, by shard key. */
  private readonly indexCache: LruCache<string, IndexEntry>;
  private readonly grid: InnerGrid;

  constructor(
    readonly config: ShardingConfig,
    readonly options: ResolvedShardingOptions,
  ) {
    this.indexCache = new LruCache(options.indexCacheBytes, (entry) => indexBytes(entry.index));
    this.grid = new InnerGrid(config);
  }

  toJSON() {
    return { name: this.name, configuration: this.config.configuration };
  }

  get subChunkShape(): readonly number[] {
    return this.config.chunkShape;
  }

  // ---- reading -------------------------------------------------------------

  async decode(bytes: Uint8Array, spec: ChunkSpec, ctx: CodecContext): Promise<Chunk> {
    const shape = [...spec.shape];
    const chunk: Chunk = { data: spec.dataType.allocate(product(shape)), shape };
    await this.decodeFromBytes(bytes, this.grid.parts(whole(shape)), { chunk, offset: shape.map(() => 0) }, spec, ctx);
    return chunk;
  }

  async decodeInto(
    value: StoredValue,
    selection: DimSlice[],
    spec: ChunkSpec,
    out: ArrayRegion,
    ctx: CodecContext,
  ): Promise<void> {
    await this.recovering(value, ctx, async () => {
      const covered = coversShard(selection, spec.shape);
      if (covered && value.getRangeInto) {
        // A store that reads into caller memory reads the shard's inner chunks in one range into a pooled buffer, after
        // the (cached) index.
        return this.readParts(value, [...this.grid.parts(selection)], out, spec, ctx, true);
      }
      const lends = covered && value.lendRange && this.config.inner.readsLent(out, this.config.chunkCount);
      if (lends && this.storedBound <= MAX_LENT_SHARD_BYTES)
        return this.readLentShard(value, selection, out, spec, ctx);
      if (covered || !value.getRange) {
        const bytes = await value.get({ signal: ctx.signal });
        if (bytes === undefined) {
          for (const part of this.grid.parts(selection)) fillPart(part, out, spec);
          return;
        }
        return this.decodeFromBytes(bytes, this.grid.parts(selection), out, spec, ctx);
      }
      await this.readParts(value, [...this.grid.parts(selection)], out, spec, ctx);
    });
  }

  /**
   * The most bytes a shard may hold: its index, and each inner chunk at the
   * most its chain can store (a packed shard; appends and in-place writes
   * leave more, read with `get`).
   */
  private get storedBound(): number {
    return this.config.indexSize + this.config.chunkCount * this.config.inner.chain.maxStoredBytes;
  }

  /**
   * A whole shard from a store that reads by request (HTTP): lent to a codec
   * worker, which fetches it with one request (a window as long as any shard
   * can be) into pooled shared memory, where the inner chunks are decoded
   * from; its bytes never reach this thread, only its index is read here.
   */
  private async readLentShard(
    value: StoredValue,
    selection: DimSlice[],
    out: ArrayRegion,
    spec: ChunkSpec,
    ctx: CodecContext,
  ): Promise<void> {
    const bound = this.storedBound;
    const window = { offset: 0, length: bound + 1 };
    const options = { signal: ctx.signal };
    const missing = () => {
      for (const part of this.grid.parts(selection)) fillPart(part, out, spec);
    };
    const decode = async (bytes: Uint8Array | undefined) => {
      if (bytes === undefined) return missing();
      // Longer than any packed shard: read whole, as it is.
      const whole = bytes.length > bound ? await value.get(options) : bytes;
      if (whole === undefined) return missing();
      return this.decodeFromBytes(whole, this.grid.parts(selection), out, spec, ctx);
    };
    const readHere = (part: WindowQuery, target: Uint8Array) => readInto(value, part, target, options);
    return value.lendRange!(window, options, (lent) =>
      lent === undefined ? Promise.resolve(missing()) : this.config.inner.readLent(lent, ctx, readHere, decode),
    );
  }

  /**
   * Run a read (or a write, which reads first); when the bytes fail a checksum
   * or cannot be decoded and the store can recover the value (an append or
   * in-place write in progress, or one torn by a writer that died), let it,
   * then run once more.
   */
  private async recovering(value: StoredValue, ctx: CodecContext, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      if (!value.recover || !(error instanceof ChecksumError || error instanceof CorruptDataError)) throw error;
      if (!(await value.recover({ signal: ctx.signal }))) throw error;
      this.indexCache.delete(ctx.key);
      await run();
    }
  }

  /**
   * Read `parts` with ranged reads planned from the index, planning again from a fresh index when the shard changed
   * meanwhile.
   */
  private async readParts(
    value: StoredValue,
    parts: InnerPart[],
    out: ArrayRegion,
    spec: ChunkSpec,
    ctx: CodecContext,
    whole = false,
  ): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const decoder = await this.partialDecoder(value, ctx);
      if (decoder === undefined) {
        for (const part of parts) fillPart(part, out, spec);
        return;
      }
      try {
        return await decoder.read(decoder.plan(parts, whole), out, spec, ctx);
      } catch (error) {
        if (!(error instanceof PreconditionFailedError)) throw error;
        this.indexCache.delete(ctx.key);
        if (attempt >= this.options.maxConflictRetries) {
          throw new StoreError(`Shard ${ctx.key} kept changing while it was read (${attempt} attempts)`, {
            key: ctx.key,
            cause: error,
          });
        }
      }
    }
  }

  /** What a read of `selection` would fetch, reading (and caching) the index if needed. */
  async planRead(
    value: StoredValue,
    selection: DimSlice[],
    spec: ChunkSpec,
    ctx: CodecContext,
  ): Promise<ShardReadPlan> {
    const covered = coversShard(selection, spec.shape);
    if ((covered && !value.getRangeInto) || !value.getRange) return { key: ctx.key, whole: true, ranges: [] };
    const decoder = await this.partialDecoder(value, ctx);
    if (!decoder) return { key: ctx.key, whole: false, ranges: [] };
    return { key: ctx.key, whole: false, ranges: decoder.byteRanges(this.grid.parts(selection), covered) };
  }

  /**
   * The decoded index of a stored shard (cached when the store reports versions), or undefined when the shard does not
   * exist.
   */
  async readIndex(value: StoredValue, ctx: CodecContext): Promise<ShardIndex | undefined> {
    return (await this.partialDecoder(value, ctx))?.entry.index;
  }

  /**
   * The shard seen through its index (cached only with a version to condition reads on); undefined when it does not
   * exist.
   */
  private async partialDecoder(value: StoredValue, ctx: CodecContext): Promise<ShardPartialDecoder | undefined> {
    const load = () => fetchIndex(this.config, value, ctx);
    const entry =
      this.options.indexCacheBytes === 0
        ? await load()
        : await this.indexCache.getOrLoad(ctx.key, load, (e) => e.version !== undefined);
    return entry && new ShardPartialDecoder(this.config, this.options, value, entry);
  }

  private async decodeFromBytes(
    bytes: Uint8Array,
    parts: Iterable<InnerPart>,
    out: ArrayRegion,
    spec: ChunkSpec,
    ctx: CodecContext,
  ): Promise<void> {
    const index = await indexOfShard(this.config, bytes, ctx.key);
    // A group of parts at a time (batches for the workers), bounded for shards of millions.
    let group: StoredPart[] = [];
    for (const part of parts) {
      const offset = index.offsets[part.linear]!;
      if (offset < 0) {
        fillPart(part, out, spec);
        continue;
      }
      const outOffset = partTarget(part, out).offset;
      group.push({
        key: innerKey(ctx.key, part),
        offset,
        length: index.lengths[part.linear]!,
        selection: part.local,
        outOffset,
      });
      if (group.length === PARTS_PER_GROUP) {
        await this.config.inner.decodeMany(bytes, group, out, ctx);
        group = [];
      }
    }
    if (group.length > 0) await this.config.inner.decodeMany(bytes, group, out, ctx);
  }

  // ---- writing -------------------------------------------------------------

  async encode(chunk: Chunk, spec: ChunkSpec, ctx: CodecContext): Promise<Uint8Array> {
    const source: WriteSource = { chunk, offset: spec.shape.map(() => 0) };
    const chunks: EncodedChunks = new Array(this.config.chunkCount).fill(undefined);
    await this.encodeParts(this.grid.parts(whole(spec.shape)), source, chunks, ctx);
    return assembleShard(this.config, chunks, this.options.chunkOrder, ctx.key);
  }

  async encodeInto(
    value: StoredValue,
    selection: DimSlice[],
    source: WriteSource,
    spec: ChunkSpec,
    ctx: CodecContext,
  ): Promise<void> {
    const parts = [...this.grid.parts(selection)];
    const write: ShardWrite = {
      config: this.config,
      options: this.options,
      value,
      ctx,
      parts,
      encodeParts: (chunks, keepEmpty) => this.encodeParts(parts, source, chunks, ctx, keepEmpty),
    };
    try {
      if (coversShard(selection, spec.shape)) {
        const writeWhole = async (room?: Room) => {
          const chunks: EncodedChunks = new Array(this.config.chunkCount).fill(undefined);
          await this.encodeParts(parts, source, chunks, ctx, false, room);
          await putShard(write, chunks, {});
        };
        // Inner chunks are encoded into pooled memory (laid out here, or written there by codec workers), lent until
        // the shard is written: a store that writes pieces keeps no reference to them, so no buffer is allocated per
        // inner chunk.
        const room =
          value.setParts && !("fill" in source) ? this.config.inner.encodeRoom(source.chunk, parts.length) : undefined;
        if (!room) return await writeWhole();
        const { slot, shared } = room;
        return await withScratch(slot * parts.length, shared, (buffer) => writeWhole({ buffer, slot }));
      }
      // Every strategy reads before it writes: bytes torn by a writer that died are recovered first.
      await this.recovering(value, ctx, async () => {
        const strategy = this.options.writeStrategy;
        if (strategy === "in-place" && (await writeInPlace(write))) return;
        if (strategy === "append" && (await writeAppend(write))) return;
        await writeRewrite(write);
      });
    } finally {
      // Forget what we know of a shard we (may have) changed.
      this.indexCache.delete(ctx.key);
    }
  }

  /**
   * Encode the new content of each touched inner chunk into `chunks` (undefined: all fill value, left out unless
   * `keepEmpty`).
   */
  private async encodeParts(
    parts: Iterable<InnerPart>,
    source: WriteSource,
    chunks: EncodedChunks,
    ctx: CodecContext,
    keepEmpty = false,
    room?: Room,
  ): Promise<void> {
    // A group of parts at a time: a shard may hold millions of inner chunks.
    let group: InnerPart[] = [];
    let done = 0;
    const encodeGroup = async () => {
      const groupRoom = room && { buffer: room.buffer.subarray(done * room.slot), slot: room.slot };
      await this.encodeGroup(group, source, chunks, ctx, keepEmpty, groupRoom);
      done += group.length;
      group = [];
    };
    for (const part of parts) {
      group.push(part);
      if (group.length === PARTS_PER_GROUP) await encodeGroup();
    }
    await encodeGroup();
  }

  private async encodeGroup(
    parts: InnerPart[],
    source: WriteSource,
    chunks: EncodedChunks,
    ctx: CodecContext,
    keepEmpty: boolean,
    room?: Room,
  ): Promise<void> {
    const sourceOffset = (part: InnerPart) =>
      "fill" in source ? [] : part.outOffset.map((o, d) => source.offset[d]! + o);
    let rest = parts;
    if (!("fill" in source)) {
      // Inner chunks the source covers whole go to the codec workers in batches.
      const full = parts.filter((part) => part.full);
      const wanted = full.map((part) => ({ key: innerKey(ctx.key, part), offset: sourceOffset(part) }));
      const encoded =
        full.length > 0
          ? await this.config.inner.encodeMany(source.chunk, wanted, ctx, keepEmpty, room?.buffer)
          : undefined;
      if (encoded) {
        full.forEach((part, i) => {
          chunks[part.linear] = encoded[i];
        });
        rest = parts.filter((part) => !part.full);
      }
    }
    await forEachConcurrent(rest, PARTS_IN_FLIGHT, async (part) => {
      const key = innerKey(ctx.key, part);
      const memory = bytesValue(key, part.full ? undefined : chunks[part.linear]);
      const innerSource: WriteSource = "fill" in source ? source : { chunk: source.chunk, offset: sourceOffset(part) };
      await this.config.inner.encodeInto(
        memory,
        part.local,
        innerSource,
        { ...ctx, key },
        { writeEmptyChunks: keepEmpty },
      );
      chunks[part.linear] = memory.current();
    });
  }
}

/** Pooled memory a whole shard's inner chunks are laid out in: one slot of `slot` bytes per inner chunk. */
interface Room {
  buffer: Uint8Array;
  slot: number;
}

/** Inner chunks `encodeParts` takes at once: batches for the workers, bounded for shards of millions. */
const PARTS_PER_GROUP = 4096;

function whole(shape: readonly number[]): DimSlice[] {
  return shape.map((n) => ({ start: 0, stop: n, step: 1 }));
}

export const shardingCodecFactory: CodecFactory = async (configuration, ctx) => {
  const config = await parseShardingConfig(configuration, ctx);
  return new ShardingCodec(config, resolveOptions(ctx.options));
};
