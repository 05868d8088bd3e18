import { PreconditionFailedError, type SetOptions, StoreError } from "@zarrkit/core";
import type { CodecContext, StoredValue } from "@zarrkit/registry";
import { concatBytes } from "@zarrkit/util";
import type { ShardingConfig } from "./config.js";
import type { InnerPart } from "./inner-parts.js";
import type { ResolvedShardingOptions } from "./options.js";
import { fetchIndex } from "./partial-decoder.js";
import { assembleShard, chunksOfShard, type EncodedChunks, shardPieces } from "./shard-format.js";
import { encodeIndex, type ShardIndex } from "./shard-index.js";

/** One write into part of a stored shard. */
export interface ShardWrite {
  config: ShardingConfig;
  options: ResolvedShardingOptions;
  value: StoredValue;
  ctx: CodecContext;
  /** The inner chunks the write touches. */
  parts: InnerPart[];
  /**
   * Encode the new content of each touched inner chunk into `chunks` (which
   * holds the old encoded bytes of partly covered ones); undefined: all fill
   * value, left out unless `keepEmpty`.
   */
  encodeParts(chunks: EncodedChunks, keepEmpty?: boolean): Promise<void>;
}

/**
 * Store a whole shard, or delete it when no inner chunk is left (stores that cannot delete get an index of empty
 * entries).
 */
export async function putShard(
  { config, options, value, ctx }: Pick<ShardWrite, "config" | "options" | "value" | "ctx">,
  chunks: EncodedChunks,
  condition: SetOptions,
): Promise<void> {
  if (value.delete && chunks.every((c) => c === undefined)) {
    await value.delete({ signal: ctx.signal });
    return;
  }
  const setOptions = { ...condition, signal: ctx.signal };
  // A store that writes pieces itself takes the encoded chunks as they are, with no copy of the whole shard.
  if (value.setParts) await value.setParts(await shardPieces(config, chunks, options.chunkOrder, ctx.key), setOptions);
  else await value.set!(await assembleShard(config, chunks, options.chunkOrder, ctx.key), setOptions);
}

/**
 * Read the shard, replace the touched inner chunks, copy the others' bytes
 * unchanged, write it whole. With versions it is a compare-and-swap: a
 * concurrent writer in another process makes ours retry instead of vanishing.
 */
export async function writeRewrite(w: ShardWrite): Promise<void> {
  const { value, ctx } = w;
  for (let attempt = 1; ; attempt++) {
    const versioned = value.getVersioned ? await value.getVersioned({ signal: ctx.signal }) : undefined;
    const bytes = value.getVersioned ? versioned?.value : await value.get({ signal: ctx.signal });
    const chunks = await chunksOfShard(w.config, bytes, ctx.key);
    await w.encodeParts(chunks);
    const condition: SetOptions = !value.getVersioned
      ? {}
      : versioned
        ? { ifMatch: versioned.version }
        : { ifNoneMatch: "*" };
    try {
      return await putShard(w, chunks, condition);
    } catch (error) {
      if (!(error instanceof PreconditionFailedError) || attempt >= w.options.maxConflictRetries) throw error;
    }
  }
}

/**
 * Append the new inner chunks and a new index, conditioned on the shard's
 * version; false when this store or shard cannot take it. Needs a checksummed
 * index: a reader racing the append, or finding one torn by a crash, must see
 * a bad checksum (and recover) rather than decode a partial tail as an index.
 */
export async function writeAppend(w: ShardWrite): Promise<boolean> {
  const { config, options, value, ctx, parts } = w;
  if (
    !value.append ||
    !value.getRangeWithSize ||
    !value.getRange ||
    config.indexLocation !== "end" ||
    !config.index.checksummed
  )
    return false;
  for (let attempt = 1; ; attempt++) {
    const entry = await fetchIndex(config, value, ctx);
    if (!entry || entry.version === undefined || entry.size === undefined) return false;
    const { index, version, size } = entry;
    const conditioned = { signal: ctx.signal, ifMatch: version };
    const chunks: EncodedChunks = new Array(config.chunkCount).fill(undefined);
    await Promise.all(
      parts.map(async (part) => {
        if (!part.full && index.offsets[part.linear]! >= 0) {
          chunks[part.linear] = await value.getRange!(
            { offset: index.offsets[part.linear]!, length: index.lengths[part.linear]! },
            conditioned,
          );
        }
      }),
    );
    await w.encodeParts(chunks);
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
    let live = config.indexSize;
    for (let i = 0; i < updated.lengths.length; i++) if (updated.offsets[i]! >= 0) live += updated.lengths[i]!;
    const total = position + config.indexSize;
    if (live === config.indexSize || total - live > options.compactionThreshold * total) return false;
    appended.push(await encodeIndex(config, updated, ctx.key));
    try {
      const landed = await value.append(concatBytes(appended), conditioned);
      if (landed !== size) {
        throw new StoreError(
          `Shard ${ctx.key} grew from ${size} to ${landed} bytes during a conditional append; the store ` +
            `ignored ifMatch`,
          {
            key: ctx.key,
          },
        );
      }
      return true;
    } catch (error) {
      if (!(error instanceof PreconditionFailedError) || attempt >= options.maxConflictRetries) throw error;
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
export async function writeInPlace(w: ShardWrite): Promise<boolean> {
  const { config, options, value, ctx, parts } = w;
  const fixed = config.inner.encodedSize();
  if (fixed === undefined || !value.setRange || !value.getRangeWithSize || !value.getRange || !config.inner.checksummed)
    return false;
  for (let attempt = 1; ; attempt++) {
    const entry = await fetchIndex(config, value, ctx);
    if (!entry || entry.version === undefined || parts.some((p) => entry.index.lengths[p.linear] !== fixed))
      return false;
    const { index } = entry;
    let version: string | undefined = entry.version;
    const chunks: EncodedChunks = new Array(config.chunkCount).fill(undefined);
    try {
      await Promise.all(
        parts.map(async (part) => {
          if (!part.full) {
            chunks[part.linear] = await value.getRange!(
              { offset: index.offsets[part.linear]!, length: fixed },
              { signal: ctx.signal, ifMatch: version },
            );
          }
        }),
      );
      // Fill-valued chunks stay stored here: their slot exists and freeing it would need a new index.
      await w.encodeParts(chunks, true);
      for (const part of parts) {
        const written = await value.setRange(index.offsets[part.linear]!, chunks[part.linear]!, {
          signal: ctx.signal,
          ifMatch: version,
        });
        version = typeof written === "string" ? written : undefined;
      }
      return true;
    } catch (error) {
      if (!(error instanceof PreconditionFailedError) || attempt >= options.maxConflictRetries) throw error;
    }
  }
}
