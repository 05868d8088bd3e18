import { coalesceGapHint, InvalidOptionError, renamedOption, showValue, type StoredValue } from "@zarrkit/registry";

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
   * Ranges at most this many bytes apart are fetched as one request. Default:
   * the store's `coalesceGapBytes` hint (4 MiB for the HTTP and S3 stores),
   * else 64 KiB. Setting it overrides the store's hint.
   */
  coalesceGapBytes?: number;
  /** @deprecated Use coalesceGapBytes. */
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

type CoalescingOption = "coalesceGapBytes" | "maxRequestBytes";

/**
 * Every option with its default, except the coalescing ones: undefined
 * unless set, as their defaults depend on the store read (see `coalescingFor`).
 */
export type ResolvedShardingOptions = Required<Omit<ShardingOptions, CoalescingOption | "maxGapBytes">> &
  Pick<ShardingOptions, CoalescingOption>;

/** The gap up to which ranges are coalesced when neither the options nor the store say. */
export const DEFAULT_COALESCE_GAP_BYTES = 64 * 2 ** 10;
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

const PREFIX = "codecOptions.sharding_indexed.";

export function resolveOptions(options: Readonly<Record<string, unknown>>): ResolvedShardingOptions {
  const { maxGapBytes: _deprecated, ...current } = options as ShardingOptions;
  const coalesceGapBytes = renamedOption(options, "coalesceGapBytes", "maxGapBytes", PREFIX) as number | undefined;
  const resolved: ResolvedShardingOptions = { ...DEFAULTS, ...current, coalesceGapBytes };
  const bad = (name: string, why: string): never => {
    const field = `${PREFIX}${name}`;
    throw new InvalidOptionError(`${field} ${why}, got ${showValue(resolved[name as keyof ResolvedShardingOptions])}`, {
      field,
    });
  };
  if (!["rewrite", "append", "in-place"].includes(resolved.writeStrategy))
    bad("writeStrategy", 'must be "rewrite", "append" or "in-place"');
  if (!["morton", "c"].includes(resolved.chunkOrder)) bad("chunkOrder", 'must be "morton" or "c"');
  for (const name of ["indexCacheBytes", "coalesceGapBytes", "maxRequestBytes"] as const) {
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

/** How the ranges of one read are coalesced into requests. */
export interface Coalescing {
  /** Ranges at most this many bytes apart share a request. */
  coalesceGapBytes: number;
  /** A request grows past this many bytes only by a range overlapping it. */
  maxRequestBytes: number;
}

/**
 * How ranges of `value` are coalesced. The gap: the `coalesceGapBytes` option
 * when set, else the `coalesceGapBytes` hint of the value's store (a broken
 * hint is a StoreError), else 64 KiB. The cap: the `maxRequestBytes` option
 * when set, else 16 MiB or 8 gaps, whichever is larger.
 */
export function coalescingFor(options: ResolvedShardingOptions, value: StoredValue): Coalescing {
  const gap = options.coalesceGapBytes ?? coalesceGapHint(value, value.key) ?? DEFAULT_COALESCE_GAP_BYTES;
  return {
    coalesceGapBytes: gap,
    maxRequestBytes: options.maxRequestBytes ?? Math.max(DEFAULT_MAX_REQUEST_BYTES, REQUEST_GAPS * gap),
  };
}
