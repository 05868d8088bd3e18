import {
  type ArrayRegion,
  type ArrayToBytesCodec,
  blockSlices,
  bytesValue,
  type Chunk,
  type ChunkSpec,
  ChecksumError,
  type CodecContext,
  type CodecFactory,
  CorruptDataError,
  cartesian,
  type DimSlice,
  dataType,
  dimensionParts,
  fillSelection,
  forEachConcurrent,
  PreconditionFailedError,
  product,
  regularChunkGrid,
  type SetOptions,
  StoreError,
  type StoredValue,
  type WriteSource,
} from "@zarrkit/core";
import { chunkOrder } from "./chunk-order.js";
import { coalesceRanges, type Wanted } from "./coalesce.js";
import { parseShardingConfig, type ShardLayout } from "./config.js";
import { LruCache } from "./lru-cache.js";
import { coalescingFor, type ResolvedShardingOptions, resolveOptions } from "./options.js";
import { decodeIndex, emptyIndex, encodeIndex, indexBytes, indexRange, innerChunkCoords, type ShardIndex } from "./shard-index.js";
import { windowValue } from "./window-value.js";

/** One inner chunk a selection touches. */
interface InnerPart {
  linear: number;
  coords: number[];
  /** The selection inside the inner chunk. */
  local: DimSlice[];
  /** Position of the part in the selection's output (relative to the selection's origin). */
  outOffset: number[];
  counts: number[];
  /** The selection covers the whole inner chunk. */
  full: boolean;
}

/**
 * A decoded shard index with the version of the shard it was read from. Only
 * entries with a version are cached: every later read planned from them is
 * conditioned on that version, so a replaced shard can never answer with the
 * bytes at its old offsets.
 */
interface IndexEntry {
  index: ShardIndex;
  version: string | undefined;
  /** Size of the shard, when the index read reported it. */
  size: number | undefined;
}

/** Byte ranges a read of a shard will fetch: the whole shard, or its index and coalesced data ranges. */
export interface ShardReadPlan {
  key: string;
  whole: boolean;
  ranges: { offset: number; length: number }[];
}

export class ShardingCodec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes";
  readonly name = "sharding_indexed";
  private readonly indexCache: LruCache<IndexEntry>;
  private readonly innerDims;
  private readonly strides: number[];

  constructor(
    readonly layout: ShardLayout,
    readonly options: ResolvedShardingOptions,
  ) {
    this.indexCache = new LruCache(options.indexCacheBytes, (entry) => indexBytes(entry.index));
    this.innerDims = regularChunkGrid(layout.chunkShape, layout.chunkShape).dims;
    this.strides = layout.gridShape.map((_, d) => layout.gridShape.slice(d + 1).reduce((a, b) => a * b, 1));
  }

  toJSON() {
    return { name: this.name, configuration: this.layout.configuration };
  }

  // ---- reading -------------------------------------------------------------

  async decode(bytes: Uint8Array, spec: ChunkSpec, ctx: CodecContext): Promise<Chunk> {
    const shape = [...spec.shape];
    const chunk: Chunk = { data: spec.dataType.allocate(product(shape)), shape };
    const all = shape.map((n) => ({ start: 0, stop: n, step: 1 }));
    await this.decodeFromBytes(bytes, this.innerParts(all), { chunk, offset: shape.map(() => 0) }, spec, ctx);
    return chunk;
  }

  async decodeInto(value: StoredValue, selection: DimSlice[], spec: ChunkSpec, out: ArrayRegion, ctx: CodecContext): Promise<void> {
    const parts = this.innerParts(selection);
    await this.recovering(value, ctx, async () => {
      if (this.coversShard(selection, spec) || !value.getRange) {
        const bytes = await value.get({ signal: ctx.signal });
        if (bytes === undefined) return this.fillParts(parts, out, spec);
        return this.decodeFromBytes(bytes, parts, out, spec, ctx);
      }
      await this.readParts(value, parts, out, spec, ctx);
    });
  }

  /**
   * Run a read; when the bytes fail a checksum or cannot be decoded and the
   * store can recover the value (an append or in-place write in progress, or
   * one torn by a writer that died), let it, then read once more.
   */
  private async recovering(value: StoredValue, ctx: CodecContext, read: () => Promise<void>): Promise<void> {
    try {
      await read();
    } catch (error) {
      if (!value.recover || !(error instanceof ChecksumError || error instanceof CorruptDataError)) throw error;
      if (!(await value.recover({ signal: ctx.signal }))) throw error;
      this.indexCache.delete(ctx.key);
      await read();
    }
  }

  /** Read the inner chunks of `parts` with ranged reads planned from the index, again from a fresh index when the shard changed meanwhile. */
  private async readParts(value: StoredValue, parts: InnerPart[], out: ArrayRegion, spec: ChunkSpec, ctx: CodecContext): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const entry = await this.readIndexEntry(value, ctx);
      if (entry === undefined) return this.fillParts(parts, out, spec);
      try {
        return await this.readPartsWith(value, entry, parts, out, spec, ctx);
      } catch (error) {
        if (!(error instanceof PreconditionFailedError)) throw error;
        this.indexCache.delete(ctx.key);
        if (attempt >= this.options.maxConflictRetries) {
          throw new StoreError(`Shard ${ctx.key} kept changing while it was read (${attempt} attempts)`, { key: ctx.key, cause: error });
        }
      }
    }
  }

  private async readPartsWith(
    value: StoredValue,
    { index, version }: IndexEntry,
    parts: InnerPart[],
    out: ArrayRegion,
    spec: ChunkSpec,
    ctx: CodecContext,
  ): Promise<void> {
    const pending: Wanted<InnerPart>[] = [];
    const tasks: Promise<void>[] = [];
    for (const part of parts) {
      const offset = index.offsets[part.linear]!;
      const length = index.lengths[part.linear]!;
      if (offset < 0) this.fillPart(part, out, spec);
      else if (!part.full && this.layout.inner.decodesPartially) {
        // A nested shard: let it read just what it needs from inside ours.
        const inner = windowValue(value, this.innerKey(ctx.key, part), offset, length, version);
        tasks.push(this.layout.inner.decodeInto(inner, part.local, this.target(part, out), { ...ctx, key: inner.key }));
      } else pending.push({ offset, length, item: part });
    }
    const { maxGap, maxRequest } = coalescingFor(this.options, value);
    const ranges = coalesceRanges(pending, maxGap, maxRequest);
    const options = { signal: ctx.signal, ...(version !== undefined && { ifMatch: version }) };
    tasks.push(
      forEachConcurrent(ranges, this.options.concurrency, async (range) => {
        const bytes = await value.getRange!({ offset: range.offset, length: range.length }, options);
        if (bytes === undefined) {
          // Deleted since the index was read: plan again from whatever is there now.
          throw new PreconditionFailedError(`Shard ${ctx.key} disappeared while it was being read`, { key: ctx.key });
        }
        await Promise.all(
          range.members.map((m) => {
            const slice = bytes.subarray(m.offset - range.offset, m.offset - range.offset + m.length);
            if (slice.length !== m.length) throw this.pastEnd(ctx.key, m.item, m.offset, m.length);
            return this.decodePart(slice, m.item, out, ctx);
          }),
        );
      }),
    );
    await settleAll(tasks);
  }

  /** What a read of `selection` would fetch, reading (and caching) the index if needed. */
  async planRead(value: StoredValue, selection: DimSlice[], spec: ChunkSpec, ctx: CodecContext): Promise<ShardReadPlan> {
    if (this.coversShard(selection, spec) || !value.getRange) return { key: ctx.key, whole: true, ranges: [] };
    const index = await this.readIndex(value, ctx);
    if (!index) return { key: ctx.key, whole: false, ranges: [] };
    const wanted = this.innerParts(selection)
      .filter((p) => index.offsets[p.linear]! >= 0)
      .map((p) => ({ offset: index.offsets[p.linear]!, length: index.lengths[p.linear]!, item: p }));
    const { maxGap, maxRequest } = coalescingFor(this.options, value);
    const ranges = coalesceRanges(wanted, maxGap, maxRequest);
    return { key: ctx.key, whole: false, ranges: ranges.map(({ offset, length }) => ({ offset, length })) };
  }

  /** The decoded index of a stored shard (cached when the store reports versions), or undefined when the shard does not exist. */
  async readIndex(value: StoredValue, ctx: CodecContext): Promise<ShardIndex | undefined> {
    return (await this.readIndexEntry(value, ctx))?.index;
  }

  private readIndexEntry(value: StoredValue, ctx: CodecContext): Promise<IndexEntry | undefined> {
    if (this.options.indexCacheBytes === 0) return this.fetchIndex(value, ctx);
    return this.indexCache.getOrLoad(ctx.key, () => this.fetchIndex(value, ctx), (entry) => entry.version !== undefined);
  }

  private async fetchIndex(value: StoredValue, ctx: CodecContext): Promise<IndexEntry | undefined> {
    const { indexSize, indexLocation } = this.layout;
    const range = indexLocation === "end" ? { suffixLength: indexSize } : { offset: 0, length: indexSize };
    if (value.getRangeWithSize) {
      // Knowing the shard's size lets every entry be checked against its end, including entries pointing into a trailing index.
      const sized = await value.getRangeWithSize(range, { signal: ctx.signal });
      if (!sized) return undefined;
      return { index: await decodeIndex(this.layout, sized.value, ctx.key, sized.size), version: sized.version, size: sized.size };
    }
    const bytes = await value.getRange!(range, { signal: ctx.signal });
    return bytes && { index: await decodeIndex(this.layout, bytes, ctx.key), version: undefined, size: undefined };
  }

  private async decodeFromBytes(bytes: Uint8Array, parts: InnerPart[], out: ArrayRegion, spec: ChunkSpec, ctx: CodecContext): Promise<void> {
    const index = await this.indexOfShard(bytes, ctx.key);
    await Promise.all(
      parts.map((part) => {
        const offset = index.offsets[part.linear]!;
        if (offset < 0) return this.fillPart(part, out, spec);
        return this.decodePart(bytes.subarray(offset, offset + index.lengths[part.linear]!), part, out, ctx);
      }),
    );
  }

  private indexOfShard(bytes: Uint8Array, key: string): Promise<ShardIndex> {
    if (bytes.length < this.layout.indexSize) {
      throw new CorruptDataError(`Shard ${key} has ${bytes.length} bytes, fewer than its ${this.layout.indexSize}-byte index`, { key });
    }
    const [start, end] = indexRange(this.layout, bytes.length);
    return decodeIndex(this.layout, bytes.subarray(start, end), key, bytes.length);
  }

  private decodePart(bytes: Uint8Array, part: InnerPart, out: ArrayRegion, ctx: CodecContext): Promise<void> {
    const key = this.innerKey(ctx.key, part);
    return this.layout.inner.decodeInto(bytesValue(key, bytes), part.local, this.target(part, out), { ...ctx, key });
  }

  private fillParts(parts: InnerPart[], out: ArrayRegion, spec: ChunkSpec): void {
    for (const part of parts) this.fillPart(part, out, spec);
  }

  private fillPart(part: InnerPart, out: ArrayRegion, spec: ChunkSpec): void {
    fillSelection(out.chunk, blockSlices(this.target(part, out).offset, part.counts), spec.fillValue, dataType(spec.dataType.name));
  }

  // ---- writing -------------------------------------------------------------

  async encode(chunk: Chunk, spec: ChunkSpec, ctx: CodecContext): Promise<Uint8Array> {
    const all = spec.shape.map((n) => ({ start: 0, stop: n, step: 1 }));
    const source: WriteSource = { chunk, offset: spec.shape.map(() => 0) };
    const chunks = await this.encodeParts(this.innerParts(all), source, new Array(this.layout.chunkCount).fill(undefined), ctx);
    return this.assemble(chunks, ctx.key);
  }

  async encodeInto(value: StoredValue, selection: DimSlice[], source: WriteSource, spec: ChunkSpec, ctx: CodecContext): Promise<void> {
    const parts = this.innerParts(selection);
    try {
      if (this.coversShard(selection, spec)) {
        const chunks = await this.encodeParts(parts, source, new Array(this.layout.chunkCount).fill(undefined), ctx);
        return await this.store(value, chunks, ctx, {});
      }
      // Every strategy reads before it writes: bytes torn by a writer that died are recovered first.
      await this.recovering(value, ctx, async () => {
        const strategy = this.options.writeStrategy;
        if (strategy === "in-place" && (await this.writeInPlace(value, parts, source, ctx))) return;
        if (strategy === "append" && (await this.writeAppend(value, parts, source, ctx))) return;
        await this.writeRewrite(value, parts, source, ctx);
      });
    } finally {
      this.invalidate(ctx.key);
    }
  }

  /** Read the shard, replace the touched inner chunks, copy the others' bytes unchanged, write it whole. */
  private async writeRewrite(value: StoredValue, parts: InnerPart[], source: WriteSource, ctx: CodecContext): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const versioned = value.getVersioned ? await value.getVersioned(ctx) : undefined;
      const bytes = value.getVersioned ? versioned?.value : await value.get(ctx);
      const chunks: (Uint8Array | undefined)[] = new Array(this.layout.chunkCount).fill(undefined);
      if (bytes !== undefined) {
        const index = await this.indexOfShard(bytes, ctx.key);
        for (let i = 0; i < chunks.length; i++) {
          if (index.offsets[i]! >= 0) chunks[i] = bytes.subarray(index.offsets[i]!, index.offsets[i]! + index.lengths[i]!);
        }
      }
      await this.encodeParts(parts, source, chunks, ctx);
      // With versions, a concurrent writer in another process makes our write fail instead of vanishing.
      const condition: SetOptions = !value.getVersioned ? {} : versioned ? { ifMatch: versioned.version } : { ifNoneMatch: "*" };
      try {
        return await this.store(value, chunks, ctx, condition);
      } catch (error) {
        if (!(error instanceof PreconditionFailedError) || attempt >= this.options.maxConflictRetries) throw error;
      }
    }
  }

  /**
   * Append the new inner chunks and a new index, conditioned on the shard's
   * version; false when this store or shard cannot take it. Needs a
   * checksummed index: a reader racing the append, or finding one torn by a
   * crash, must see a bad checksum (and recover) rather than decode a partial
   * tail as an index.
   */
  private async writeAppend(value: StoredValue, parts: InnerPart[], source: WriteSource, ctx: CodecContext): Promise<boolean> {
    if (!value.append || !value.getRangeWithSize || !value.getRange || this.layout.indexLocation !== "end" || !this.layout.index.checksummed) {
      return false;
    }
    for (let attempt = 1; ; attempt++) {
      const entry = await this.fetchIndex(value, ctx);
      if (!entry || entry.version === undefined || entry.size === undefined) return false;
      const { index, version, size } = entry;
      const read = { signal: ctx.signal, ifMatch: version };
      const chunks: (Uint8Array | undefined)[] = new Array(this.layout.chunkCount).fill(undefined);
      await Promise.all(
        parts.map(async (part) => {
          if (!part.full && index.offsets[part.linear]! >= 0) {
            chunks[part.linear] = await value.getRange!({ offset: index.offsets[part.linear]!, length: index.lengths[part.linear]! }, read);
          }
        }),
      );
      await this.encodeParts(parts, source, chunks, ctx);
      const updated: ShardIndex = { offsets: index.offsets.slice(), lengths: index.lengths.slice() };
      const appended: Uint8Array[] = [];
      let position = size;
      for (const part of parts) {
        const bytes = chunks[part.linear];
        updated.offsets[part.linear] = bytes ? position : -1;
        updated.lengths[part.linear] = bytes ? bytes.length : -1;
        if (bytes) {
          appended.push(bytes);
          position += bytes.length;
        }
      }
      let live = this.layout.indexSize;
      for (let i = 0; i < updated.lengths.length; i++) if (updated.offsets[i]! >= 0) live += updated.lengths[i]!;
      const total = position + this.layout.indexSize;
      if (live === this.layout.indexSize || total - live > this.options.compactionThreshold * total) return false;
      appended.push(await encodeIndex(this.layout, updated, ctx.key));
      try {
        const landed = await value.append(concat(appended), read);
        if (landed !== size) {
          throw new StoreError(`Shard ${ctx.key} grew from ${size} to ${landed} bytes during a conditional append; the store ignored ifMatch`, {
            key: ctx.key,
          });
        }
        return true;
      } catch (error) {
        if (!(error instanceof PreconditionFailedError) || attempt >= this.options.maxConflictRetries) throw error;
      }
    }
  }

  /**
   * Overwrite inner chunks of fixed encoded size where they lie, each write
   * conditioned on the version the previous one left; false when that is not
   * possible for this write. Needs a checksummed inner chain, so that a chunk
   * torn by a crash is detected (and recovered by the store) rather than read
   * as a mix of old and new bytes.
   */
  private async writeInPlace(value: StoredValue, parts: InnerPart[], source: WriteSource, ctx: CodecContext): Promise<boolean> {
    const fixed = this.layout.inner.encodedSize();
    if (fixed === undefined || !value.setRange || !value.getRangeWithSize || !value.getRange || !this.layout.inner.checksummed) return false;
    for (let attempt = 1; ; attempt++) {
      const entry = await this.fetchIndex(value, ctx);
      if (!entry || entry.version === undefined || parts.some((p) => entry.index.lengths[p.linear] !== fixed)) return false;
      const { index } = entry;
      let version: string | undefined = entry.version;
      const chunks: (Uint8Array | undefined)[] = new Array(this.layout.chunkCount).fill(undefined);
      try {
        await Promise.all(
          parts.map(async (part) => {
            if (!part.full) {
              chunks[part.linear] = await value.getRange!({ offset: index.offsets[part.linear]!, length: fixed }, { signal: ctx.signal, ifMatch: version });
            }
          }),
        );
        // Fill-valued chunks stay stored here: their slot exists and freeing it would need a new index.
        await this.encodeParts(parts, source, chunks, ctx, true);
        for (const part of parts) {
          const written = await value.setRange(index.offsets[part.linear]!, chunks[part.linear]!, { signal: ctx.signal, ifMatch: version });
          version = typeof written === "string" ? written : undefined;
        }
        return true;
      } catch (error) {
        if (!(error instanceof PreconditionFailedError) || attempt >= this.options.maxConflictRetries) throw error;
      }
    }
  }

  /** Encode the new content of each touched inner chunk into `chunks` (undefined: all fill value, left out). */
  private async encodeParts(
    parts: InnerPart[],
    source: WriteSource,
    chunks: (Uint8Array | undefined)[],
    ctx: CodecContext,
    keepEmpty = false,
  ): Promise<(Uint8Array | undefined)[]> {
    await Promise.all(
      parts.map(async (part) => {
        const key = this.innerKey(ctx.key, part);
        const memory = bytesValue(key, part.full ? undefined : chunks[part.linear]);
        const innerSource: WriteSource =
          "fill" in source ? source : { chunk: source.chunk, offset: part.outOffset.map((o, d) => source.offset[d]! + o) };
        await this.layout.inner.encodeInto(memory, part.local, innerSource, { ...ctx, key }, { writeEmptyChunks: keepEmpty });
        chunks[part.linear] = memory.current();
      }),
    );
    return chunks;
  }

  /** Write a whole shard from its inner chunks, or delete it when none is left (stores that cannot delete get an index of empty entries). */
  private async store(value: StoredValue, chunks: (Uint8Array | undefined)[], ctx: CodecContext, condition: SetOptions): Promise<void> {
    if (value.delete && chunks.every((c) => c === undefined)) {
      await value.delete!(ctx);
      return;
    }
    await value.set!(await this.assemble(chunks, ctx.key), { ...condition, signal: ctx.signal });
  }

  /** Lay inner chunks out in the configured order with the index at its end of the shard. */
  private async assemble(chunks: (Uint8Array | undefined)[], key: string): Promise<Uint8Array> {
    const { indexSize, indexLocation } = this.layout;
    const dataBytes = chunks.reduce((n, c) => n + (c?.length ?? 0), 0);
    const shard = new Uint8Array(dataBytes + indexSize);
    const index = emptyIndex(this.layout.chunkCount);
    let position = indexLocation === "start" ? indexSize : 0;
    for (const linear of chunkOrder(this.layout.gridShape, this.options.chunkOrder)) {
      const bytes = chunks[linear];
      if (!bytes) continue;
      shard.set(bytes, position);
      index.offsets[linear] = position;
      index.lengths[linear] = bytes.length;
      position += bytes.length;
    }
    shard.set(await encodeIndex(this.layout, index, key), indexLocation === "start" ? 0 : dataBytes);
    return shard;
  }

  /** Forget what we know of a shard we (may have) changed. */
  private invalidate(key: string): void {
    this.indexCache.delete(key);
  }

  // ---- geometry ------------------------------------------------------------

  private coversShard(selection: DimSlice[], spec: ChunkSpec): boolean {
    return selection.every((s, d) => s.start === 0 && s.step === 1 && s.stop === spec.shape[d]);
  }

  private innerParts(selection: DimSlice[]): InnerPart[] {
    const perDim = selection.map((s, d) => dimensionParts(s, this.innerDims[d]!));
    const parts: InnerPart[] = [];
    const chunkShape = this.layout.chunkShape;
    for (const dims of cartesian(perDim)) {
      const coords = dims.map((p) => p.chunkIndex);
      const local = dims.map((p) => p.local);
      parts.push({
        linear: coords.reduce((n, c, d) => n + c * this.strides[d]!, 0),
        coords,
        local,
        outOffset: dims.map((p) => p.outOffset),
        counts: dims.map((p) => p.count),
        full: local.every((s, d) => s.start === 0 && s.step === 1 && s.stop === chunkShape[d]),
      });
    }
    return parts;
  }

  private target(part: InnerPart, out: ArrayRegion): ArrayRegion {
    return { chunk: out.chunk, offset: part.outOffset.map((o, d) => out.offset[d]! + o) };
  }

  private innerKey(key: string, part: InnerPart): string {
    return `${key}[${part.coords.join(",")}]`;
  }

  private pastEnd(key: string, part: InnerPart, offset: number, length: number): CorruptDataError {
    return new CorruptDataError(
      `Inner chunk [${innerChunkCoords(this.layout, part.linear).join(", ")}] of shard ${key} (bytes [${offset}, ${offset + length})) extends past the end of the shard`,
      { key },
    );
  }
}

/** Wait for every task, then throw the first failure: no read is left running when the caller retries. */
async function settleAll(tasks: Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(tasks);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let position = 0;
  for (const p of parts) {
    out.set(p, position);
    position += p.length;
  }
  return out;
}

export const shardingCodecFactory: CodecFactory = async (configuration, ctx) => {
  const layout = await parseShardingConfig(configuration, ctx);
  return new ShardingCodec(layout, resolveOptions(ctx.options));
};

