import type { LentRange, RangeQuery, ReadOptions, Store, WindowQuery } from "@zarrkit/registry";

type LendUse = (lent: LentRange | undefined) => Promise<unknown>;

/** One completed store request, as `withRequestLog` reports it. */
export interface StoreRequest {
  /** The store method called. */
  method:
    | "get"
    | "getRange"
    | "getRangeWithSize"
    | "getRangeInto"
    | "lendRange"
    | "getVersioned"
    | "set"
    | "setParts"
    | "delete"
    | "list"
    | "listDir"
    | "size"
    | "append"
    | "setRange"
    | "truncate"
    | "recover";
  /** The key it concerned (the prefix, for listings). */
  key: string;
  /** The range asked for, for ranged reads. */
  range?: RangeQuery;
  /** Bytes returned (reads) or sent (writes). */
  bytes: number;
}

const READS = new Set<StoreRequest["method"]>([
  "get",
  "getRange",
  "getRangeWithSize",
  "getRangeInto",
  "lendRange",
  "getVersioned",
]);
const RANGED = new Set<StoreRequest["method"]>(["getRange", "getRangeWithSize", "getRangeInto"]);

/**
 * Whether the request read a value (get, getRange, getRangeWithSize, getRangeInto, getVersioned; lendRange, whose bytes
 * the codec workers read).
 */
export function isRead(request: StoreRequest): boolean {
  return READS.has(request.method);
}

function byteCount(method: StoreRequest["method"], args: unknown[], result: unknown): number {
  if (method === "getRangeInto") return typeof result === "number" ? result : 0;
  if (READS.has(method)) {
    const value =
      method === "getVersioned" || method === "getRangeWithSize"
        ? (result as { value?: Uint8Array } | undefined)?.value
        : result;
    return value instanceof Uint8Array ? value.byteLength : 0;
  }
  if (method === "setParts") return (args[0] as readonly Uint8Array[]).reduce((n, part) => n + part.byteLength, 0);
  const sent = args.find((a) => a instanceof Uint8Array) as Uint8Array | undefined;
  return sent?.byteLength ?? 0;
}

/**
 * A store that reports every request (after it completes) to `onRequest`, for
 * tools, tests and benchmarks that count requests and bytes. It has exactly
 * the capabilities (and the `coalesceGapBytes` hint) of the wrapped store, so
 * readers plan the same requests through it as without it.
 */
export function withRequestLog(inner: Store, onRequest: (request: StoreRequest) => void): Store {
  const wrapped: Record<string, unknown> = {};
  if (inner.coalesceGapBytes !== undefined) wrapped.coalesceGapBytes = inner.coalesceGapBytes;
  const methods: StoreRequest["method"][] = [
    "get",
    "getRange",
    "getRangeWithSize",
    "getRangeInto",
    "getVersioned",
    "set",
    "setParts",
    "delete",
    "listDir",
    "size",
    "append",
    "setRange",
    "truncate",
    "recover",
  ];
  for (const method of methods) {
    const fn = inner[method] as ((...args: unknown[]) => Promise<unknown>) | undefined;
    if (typeof fn !== "function") continue;
    wrapped[method] = async (...args: unknown[]) => {
      const result = await fn.apply(inner, args);
      const key = method === "listDir" ? String(args[0]) : (args[0] as string);
      const range = RANGED.has(method) ? (args[1] as RangeQuery) : undefined;
      onRequest({ method, key, ...(range ? { range } : {}), bytes: byteCount(method, args.slice(1), result) });
      return result;
    };
  }
  if (typeof inner.lendRange === "function") {
    // Logged once lent, with the bytes lent: the workers read them then.
    wrapped.lendRange = (key: string, range: WindowQuery, options: ReadOptions | undefined, use: LendUse) =>
      inner.lendRange!(key, range, options, (lent) => {
        onRequest({ method: "lendRange", key, range, bytes: lent?.length ?? 0 });
        return use(lent);
      });
  }
  if (typeof inner.list === "function") {
    wrapped.list = (prefix: string, options?: unknown) => {
      onRequest({ method: "list", key: prefix, bytes: 0 });
      return inner.list!(prefix, options as never);
    };
  }
  return wrapped as unknown as Store;
}

/** A store that keeps a log of its requests, for tests, tools and benchmarks. */
export interface CountedStore extends Store {
  /** Every request since the last reset, in completion order. */
  readonly log: StoreRequest[];
  /**
   * Read requests (get, getRange, getRangeWithSize, getRangeInto, lendRange, getVersioned) since the last reset, or
   * those of one method.
   */
  reads(method?: StoreRequest["method"]): number;
  /** Bytes returned by reads since the last reset. */
  bytesRead(): number;
  /** Empty the log. */
  reset(): void;
}

/** `inner` with a log of its requests: `reads()`, `bytesRead()`, `reset()` (see `withRequestLog`). */
export function countRequests(inner: Store): CountedStore {
  const log: StoreRequest[] = [];
  return Object.assign(
    withRequestLog(inner, (request) => log.push(request)),
    {
      log,
      reads: (method?: StoreRequest["method"]) => log.filter((r) => (method ? r.method === method : isRead(r))).length,
      bytesRead: () => log.filter(isRead).reduce((n, r) => n + r.bytes, 0),
      reset: () => {
        log.length = 0;
      },
    },
  );
}
