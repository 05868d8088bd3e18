import {
  type ArrayRegion,
  type ArrayToBytesCodec,
  blockSlices,
  bytesValue,
  type Chunk,
  type ChunkSpec,
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

/** Byte ranges a read of a shard will fetch: the whole shard, or its index and coalesced data ranges. */
export interface ShardReadPlan {
  key: string;
  whole: boolean;
  ranges: { offset: number; length: number }[];
}

export class ShardingCodec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes";
  readonly name = "sharding_indexed";
  private readonly indexCache: LruCache<ShardIndex>;
  /** Writes by this process per shard key: part of the identity of nested shards, so their cached indexes go stale with ours. */
  private readonly generations = new Map<string, number>();
  private readonly innerDims;
  private readonly strides: number[];

  constructor(
    readonly layout: ShardLayout,
    readonly options: ResolvedShardingOptions,
  ) {
    this.indexCache = new LruCache(options.indexCacheBytes, indexBytes);
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
    if (this.coversShard(selection, spec) || !value.getRange) {
      const bytes = await value.get(ctx);
      if (bytes === undefined) return this.fillParts(parts, out, spec);
      return this.decodeFromBytes(bytes, parts, out, spec, ctx);
    }
    const index = await this.readIndex(value, ctx);
    if (index === undefined) return this.fillParts(parts, out, spec);
    const pending: Wanted<InnerPart>[] = [];
    const tasks: Promise<void>[] = [];
    for (const part of parts) {
      const offset = index.offsets[part.linear]!;
      const length = index.lengths[part.linear]!;
      if (offset < 0) this.fillPart(part, out, spec);
      else if (!part.full && this.layout.inner.decodesPartially) {
        // A nested shard: let it read just what it needs from inside ours.
        const inner = windowValue(value, this.innerKey(ctx.key, part), offset, length);
        tasks.push(this.layout.inner.decodeInto(inner, part.local, this.target(part, out), { ...ctx, key: inner.key }));
      } else pending.push({ offset, length, item: part });
    }
    const { maxGap, maxRequest } = coalescingFor(this.options, value);
    const ranges = coalesceRanges(pending, maxGap, maxRequest);
    tasks.push(
      forEachConcurrent(ranges, this.options.concurrency, async (range) => {
        const bytes = await value.getRange!({ offset: range.offset, length: range.length }, ctx);
        if (bytes === undefined) {
          throw new StoreError(`Shard ${ctx.key} disappeared while it was being read`, { key: ctx.key });
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
    await Promise.all(tasks);
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

  /** The decoded index of a stored shard (cached), or undefined when the shard does not exist. */
  readIndex(value: StoredValue, ctx: CodecContext): Promise<ShardIndex | undefined> {
    if (this.options.indexCacheBytes === 0) return this.fetchIndex(value, ctx);
    return this.indexCache.getOrLoad(ctx.key, () => this.fetchIndex(value, ctx));
  }

  private async fetchIndex(value: StoredValue, ctx: CodecContext, shardSize?: number): Promise<ShardIndex | undefined> {
    const { indexSize, indexLocation } = this.layout;
    const range = indexLocation === "end" ? { suffixLength: indexSize } : { offset: 0, length: indexSize };
    if (value.getRangeWithSize) {
      // Knowing the shard's size lets every entry be checked against its end, including entries pointing into a trailing index.
      const sized = await value.getRangeWithSize(range, ctx);
      return sized && decodeIndex(this.layout, sized.value, ctx.key, shardSize ?? sized.size);
    }
    const bytes = await value.getRange!(range, ctx);
    return bytes && decodeIndex(this.layout, bytes, ctx.key, shardSize);
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
      const strategy = this.options.writeStrategy;
      if (strategy === "in-place" && (await this.writeInPlace(value, parts, source, ctx))) return;
      if (strategy === "append" && (await this.writeAppend(value, parts, source, ctx))) return;
      await this.writeRewrite(value, parts, source, ctx);
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

  /** Append the new inner chunks and a new index; false when this store or shard cannot take it. */
  private async writeAppend(value: StoredValue, parts: InnerPart[], source: WriteSource, ctx: CodecContext): Promise<boolean> {
    if (!value.append || !value.size || !value.getRange || this.layout.indexLocation !== "end") return false;
    const size = await value.size(ctx);
    if (size === undefined) return false;
    const index = await this.fetchIndex(value, ctx, size);
    if (!index) return false;
    const chunks: (Uint8Array | undefined)[] = new Array(this.layout.chunkCount).fill(undefined);
    await Promise.all(
      parts.map(async (part) => {
        if (!part.full && index.offsets[part.linear]! >= 0) {
          chunks[part.linear] = await value.getRange!({ offset: index.offsets[part.linear]!, length: index.lengths[part.linear]! }, ctx);
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
    const landed = await value.append(concat(appended), ctx);
    if (landed !== size) {
      throw new StoreError(`Shard ${ctx.key} grew from ${size} to ${landed} bytes during an append by another writer; its last index may be wrong`, {
        key: ctx.key,
      });
    }
    return true;
  }

  /** Overwrite inner chunks of fixed encoded size where they lie; false when that is not possible for this write. */
  private async writeInPlace(value: StoredValue, parts: InnerPart[], source: WriteSource, ctx: CodecContext): Promise<boolean> {
    const fixed = this.layout.inner.encodedSize();
    if (fixed === undefined || !value.setRange || !value.getRange) return false;
    const index = await this.fetchIndex(value, ctx);
    if (!index || parts.some((p) => index.lengths[p.linear] !== fixed)) return false;
    const chunks: (Uint8Array | undefined)[] = new Array(this.layout.chunkCount).fill(undefined);
    await Promise.all(
      parts.map(async (part) => {
        if (!part.full) chunks[part.linear] = await value.getRange!({ offset: index.offsets[part.linear]!, length: fixed }, ctx);
      }),
    );
    // Fill-valued chunks stay stored here: their slot exists and freeing it would need a new index.
    await this.encodeParts(parts, source, chunks, ctx, true);
    await forEachConcurrent(parts, this.options.concurrency, (part) => value.setRange!(index.offsets[part.linear]!, chunks[part.linear]!, ctx));
    return true;
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
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
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
    const generation = this.generations.get(key);
    return `${key}[${part.coords.join(",")}]${generation ? `~${generation}` : ""}`;
  }

  private pastEnd(key: string, part: InnerPart, offset: number, length: number): CorruptDataError {
    return new CorruptDataError(
      `Inner chunk [${innerChunkCoords(this.layout, part.linear).join(", ")}] of shard ${key} (bytes [${offset}, ${offset + length})) extends past the end of the shard`,
      { key },
    );
  }
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

