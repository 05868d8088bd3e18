import { coalesceGapHint, InvalidMetadataError, showValue, type StoredValue } from "@zarrkit/registry";

/**
 * Runtime options of the sharding codec, passed as
 * `openArray(store, path, { codecOptions: { sharding_indexed: {...} } })`.
 * The spec forbids storing write strategies in metadata, so they live here.
 */
export interface ShardingOptions {
  /**
   * How a write that touches part of an existing shard is stored:
   * - "rewrite" (default): the whole shard is replaced at once; untouched inner chunks' bytes are copied unchanged.
   * - "append": new inner chunks and a new index are appended (stores with `append`; index_location "end"), compacting
   * when too much is wasted.
   * - "in-place": inner chunks of fixed encoded size are overwritten where they are (stores with `setRange`).
   * A strategy the store or the metadata cannot support falls back to "rewrite".
   */
  writeStrategy?: "rewrite" | "append" | "in-place";
  /** Order of inner chunks in a newly assembled shard (default "morton", as zarr-python writes). */
  chunkOrder?: "morton" | "c";
  /** Budget of the decoded-index cache, in bytes (default 16 MiB; 0 disables it). */
  indexCacheBytes?: number;
  /**
   * Ranges closer than this many bytes are fetched as one request. Default:
   * the store's `coalesceGapBytes` hint (4 MiB for the HTTP and S3 stores),
   * else 64 KiB. Setting it overrides the store's hint.
   */
  maxGapBytes?: number;
  /**
   * A coalesced request never grows beyond this many bytes (a single larger
   * inner chunk is still one request). Default: 16 MiB, or 8 times the gap in
   * use when that is larger (32 MiB with the HTTP and S3 stores' 4 MiB), so
   * that the cap never splits what the gap says to merge.
   */
  maxRequestBytes?: number;
  /** Range requests in flight per shard (default 8). */
  concurrency?: number;
  /** With "append": compact when wasted bytes exceed this fraction of the shard (default 0.5). */
  compactionThreshold?: number;
  /** With "rewrite" on stores with versions: attempts before giving up on a contended shard (default 8). */
  maxConflictRetries?: number;
}

type Coalescing = "maxGapBytes" | "maxRequestBytes";

/**
 * Every option with its default, except the coalescing ones: undefined
 * unless set, as their defaults depend on the store read (see `coalescingFor`).
 */
export type ResolvedShardingOptions = Required<Omit<ShardingOptions, Coalescing>> & Pick<ShardingOptions, Coalescing>;

/** The gap below which ranges are coalesced when neither the options nor the store say. */
export const DEFAULT_MAX_GAP_BYTES = 64 * 2 ** 10;
/** The smallest default cap of a coalesced request. */
export const DEFAULT_MAX_REQUEST_BYTES = 16 * 2 ** 20;
/**
 * The default cap of a coalesced request is at least this many gaps: splitting a long read then costs at most one
 * request per 8 gaps' worth of transfer.
 */
const REQUEST_GAPS = 8;

const DEFAULTS: ResolvedShardingOptions = {
  writeStrategy: "rewrite",
  chunkOrder: "morton",
  indexCacheBytes: 16 * 2 ** 20,
  concurrency: 8,
  compactionThreshold: 0.5,
  maxConflictRetries: 8,
};

export function resolveOptions(options: Readonly<Record<string, unknown>>): ResolvedShardingOptions {
  const resolved = { ...DEFAULTS, ...(options as ShardingOptions) };
  const bad = (name: string, why: string): never => {
    const field = `codecOptions.sharding_indexed.${name}`;
    throw new InvalidMetadataError(`${field} ${why}, got ${showValue(resolved[name as keyof ShardingOptions])}`, {
      field,
    });
  };
  if (!["rewrite", "append", "in-place"].includes(resolved.writeStrategy))
    bad("writeStrategy", 'must be "rewrite", "append" or "in-place"');
  if (!["morton", "c"].includes(resolved.chunkOrder)) bad("chunkOrder", 'must be "morton" or "c"');
  for (const name of ["indexCacheBytes", "maxGapBytes", "maxRequestBytes"] as const) {
    const value = resolved[name];
    if (name !== "indexCacheBytes" && value === undefined) continue;
    if (!(Number.isSafeInteger(value) && value! >= 0)) bad(name, "must be a non-negative integer");
  }
  for (const name of ["concurrency", "maxConflictRetries"] as const) {
    if (!(Number.isSafeInteger(resolved[name]) && resolved[name] >= 1)) bad(name, "must be a positive integer");
  }
  if (!(resolved.compactionThreshold >= 0 && resolved.compactionThreshold <= 1))
    bad("compactionThreshold", "must be between 0 and 1");
  return resolved;
}

/**
 * How ranges of `value` are coalesced. The gap: the `maxGapBytes` option when
 * set, else the `coalesceGapBytes` hint of the value's store (a broken hint
 * is a StoreError), else 64 KiB. The cap: the `maxRequestBytes` option when set,
 * else 16 MiB or 8 gaps, whichever is larger.
 */
export function coalescingFor(
  options: ResolvedShardingOptions,
  value: StoredValue,
): { maxGap: number; maxRequest: number } {
  const maxGap = options.maxGapBytes ?? coalesceGapHint(value, value.key) ?? DEFAULT_MAX_GAP_BYTES;
  return { maxGap, maxRequest: options.maxRequestBytes ?? Math.max(DEFAULT_MAX_REQUEST_BYTES, REQUEST_GAPS * maxGap) };
}
