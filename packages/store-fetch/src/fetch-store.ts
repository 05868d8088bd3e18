import { type RangeQuery, type RequestOptions, type SetOptions, type SizedValue, type Store, StoreError, type VersionedValue, ZarrkitError } from "@zarrkit/registry";
import { abortableSleep, contentRangeProblem, contentRangeTotal, rangeHeader, unsatisfiedRangeSize } from "@zarrkit/registry/http";
import { BodyCache } from "./body-cache.js";
import { statusError } from "./http-errors.js";
import { ignoresRanges, learnRangeSupport } from "./range-support.js";
import { overlaps, sliceRange } from "./ranges.js";
import { redactUrl } from "./redact.js";
import { backoffMs, defaultRetry, type RetryOptions } from "./retry.js";
import { keyUrl, parseBaseUrl } from "./urls.js";

export interface FetchStoreOptions {
  /** Headers for every request, e.g. `{ Authorization: "Bearer ..." }`. */
  headers?: HeadersInit;
  /** Other fetch options for every request: `credentials`, `mode`, `cache`, `referrerPolicy`, ... */
  init?: Omit<RequestInit, "method" | "headers" | "body" | "signal">;
  /** The fetch implementation. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Statuses meaning "no such key". Default `[404]`; add 403 for buckets that hide missing keys behind it. */
  missingStatuses?: readonly number[];
  /** Bounded retries of 5xx answers and network errors, with exponential backoff and jitter. 4xx answers are never retried. */
  retry?: RetryOptions;
  /** Offer `set` (PUT) and `delete` (DELETE). Default false: the store is read-only. */
  writable?: boolean;
  /** Bytes of whole values kept for servers that ignore Range. Default 32 MiB; 0 keeps none. */
  fullBodyCacheBytes?: number;
  /**
   * The store's `coalesceGapBytes` hint: readers that coalesce ranges (the
   * sharding codec) fetch ranges of one value less than this apart with one
   * request. Default 4 MiB, about what a round trip costs in transfer; lower
   * it for fast, close servers, raise it for slow, far ones. A non-negative integer.
   */
  coalesceGapBytes?: number;
}

/** Default `coalesceGapBytes`: over HTTP a request costs a round trip, worth megabytes of transfer. */
const DEFAULT_COALESCE_GAP_BYTES = 4 * 2 ** 20;

interface HttpResult {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

interface SendOptions {
  signal?: AbortSignal | undefined;
  headers?: Record<string, string>;
  body?: Uint8Array<ArrayBuffer>;
  /** `missingStatuses` mean "no value" (reads, DELETE) rather than failure (PUT). */
  missingIsUndefined?: boolean;
  /** A network error may hide a write that happened: retrying a conditional write would then fail spuriously. */
  retryNetworkErrors?: boolean;
}

/**
 * A store over HTTP(S) with fetch, for browsers and Node. Key "a/b" is
 * `<url>/a/b`. Reads use Range requests (suffix ranges directly, no HEAD);
 * servers that ignore Range are detected and handled. There is no listing:
 * plain HTTP has no way to enumerate keys.
 */
export class FetchStore implements Store {
  /** PUT, when constructed with `writable: true`. */
  readonly set?: (key: string, value: Uint8Array, options?: SetOptions) => Promise<void>;
  /** DELETE, when constructed with `writable: true`. A missing key is not an error. */
  readonly delete?: (key: string, options?: RequestOptions) => Promise<void>;
  /** Ranges of one value less than this many bytes apart are cheaper to read as one request (the `coalesceGapBytes` option). */
  readonly coalesceGapBytes: number;

  readonly #base: URL;
  readonly #headers: Headers;
  readonly #init: FetchStoreOptions["init"];
  readonly #fetch: typeof fetch;
  readonly #missing: ReadonlySet<number>;
  readonly #retry: Required<RetryOptions>;
  readonly #bodies: BodyCache;

  constructor(url: string | URL, options: FetchStoreOptions = {}) {
    const { url: base, authorization } = parseBaseUrl(url);
    this.#base = base;
    this.#headers = new Headers(options.headers);
    if (authorization && !this.#headers.has("Authorization")) this.#headers.set("Authorization", authorization);
    this.#init = options.init;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#missing = new Set(options.missingStatuses ?? [404]);
    this.#retry = { ...defaultRetry, ...options.retry };
    this.#bodies = new BodyCache(options.fullBodyCacheBytes ?? 32 * 2 ** 20);
    const gap = options.coalesceGapBytes ?? DEFAULT_COALESCE_GAP_BYTES;
    if (!(Number.isSafeInteger(gap) && gap >= 0)) {
      throw new StoreError(`FetchStore option coalesceGapBytes must be a non-negative integer, got ${JSON.stringify(gap)}.`);
    }
    this.coalesceGapBytes = gap;
    if (options.writable) {
      this.set = (key, value, setOptions) => this.#put(key, value, setOptions);
      this.delete = (key, requestOptions) => this.#delete(key, requestOptions);
    }
  }

  /** The base URL, with credentials and secret-looking query values redacted. */
  get url(): string {
    return redactUrl(this.#base);
  }

  async get(key: string, options?: RequestOptions): Promise<Uint8Array | undefined> {
    const result = await this.#send("GET", key, { signal: options?.signal, missingIsUndefined: true });
    if (!result) return undefined;
    // On a server that ignores Range, a later ranged read of this key can use this body.
    if (this.#ignoresRanges()) this.#bodies.set(key, result.body.slice());
    return result.body;
  }

  async getRange(key: string, range: RangeQuery, options?: RequestOptions): Promise<Uint8Array | undefined> {
    return (await this.getRangeWithSize(key, range, options))?.value;
  }

  /** A ranged read that also reports the value's size, from the Content-Range total (or the whole body). */
  async getRangeWithSize(key: string, range: RangeQuery, options?: RequestOptions): Promise<SizedValue | undefined> {
    checkRange(key, range);
    const empty = "suffixLength" in range ? range.suffixLength === 0 : range.length === 0;
    // HTTP cannot ask for zero bytes: only find out whether the key exists.
    if (empty) {
      const probed = await this.#probe(key, options?.signal);
      return probed && { value: new Uint8Array(0), ...probed };
    }
    const cached = this.#cachedBody(key);
    if (cached) return { value: sliceRange(cached, range), size: cached.byteLength };
    const result = await this.#send("GET", key, { signal: options?.signal, headers: { Range: rangeHeader(range) }, missingIsUndefined: true });
    if (!result) return undefined;
    if (result.status === 206) {
      learnRangeSupport(this.#base.origin, true);
      this.#checkContentRange(key, range, result);
      const size = contentRangeTotal(result.headers.get("Content-Range"));
      return size === undefined ? { value: result.body } : { value: result.body, size };
    }
    if (result.status === 416) {
      const size = unsatisfiedRangeSize(result.headers.get("Content-Range"));
      // 416 for a range that has bytes is a server bug (some reject suffixes longer than the value): read it all.
      if (size !== undefined && overlaps(range, size)) {
        const whole = await this.get(key, options);
        return whole && { value: sliceRange(whole, range), size: whole.byteLength };
      }
      return size === undefined ? { value: new Uint8Array(0) } : { value: new Uint8Array(0), size };
    }
    this.#rememberWholeBody(key, result.body);
    return { value: sliceRange(result.body, range), size: result.body.byteLength };
  }

  /** The value and its ETag as the version. A StoreError when the server sends no ETag. */
  async getVersioned(key: string, options?: RequestOptions): Promise<VersionedValue | undefined> {
    const result = await this.#send("GET", key, { signal: options?.signal, missingIsUndefined: true });
    if (!result) return undefined;
    const version = result.headers.get("ETag");
    if (!version) throw new StoreError(`${this.url} sent no ETag for ${JSON.stringify(key)}, so it has no version to offer.`, { key });
    return { value: result.body, version };
  }

  /** From the Content-Range of a one-byte ranged GET (no HEAD, which presigned URLs often do not allow). */
  async size(key: string, options?: RequestOptions): Promise<number | undefined> {
    const probed = await this.#probe(key, options?.signal);
    if (!probed) return undefined;
    return probed.size ?? (await this.get(key, options))?.byteLength;
  }

  /** Whether the key exists and, when the server says, its size: a GET of its first byte. */
  async #probe(key: string, signal: AbortSignal | undefined): Promise<{ size?: number } | undefined> {
    const cached = this.#cachedBody(key);
    if (cached) return { size: cached.byteLength };
    const result = await this.#send("GET", key, { signal, headers: { Range: "bytes=0-0" }, missingIsUndefined: true });
    if (!result) return undefined;
    if (result.status === 416) return { size: unsatisfiedRangeSize(result.headers.get("Content-Range")) ?? 0 };
    if (result.status === 206) {
      learnRangeSupport(this.#base.origin, true);
      this.#checkContentRange(key, { offset: 0, length: 1 }, result);
      const total = contentRangeTotal(result.headers.get("Content-Range"));
      return total === undefined ? {} : { size: total };
    }
    this.#rememberWholeBody(key, result.body);
    return { size: result.body.byteLength };
  }

  async #put(key: string, value: Uint8Array, options: SetOptions = {}): Promise<void> {
    const headers: Record<string, string> = { "Content-Type": "application/octet-stream" };
    if (options.ifMatch !== undefined) headers["If-Match"] = options.ifMatch;
    if (options.ifNoneMatch !== undefined) headers["If-None-Match"] = options.ifNoneMatch;
    const conditional = options.ifMatch !== undefined || options.ifNoneMatch !== undefined;
    try {
      // A copy: the caller may reuse its buffer while the request is in flight.
      await this.#send("PUT", key, { signal: options.signal, headers, body: value.slice(), retryNetworkErrors: !conditional });
    } finally {
      // Even a failed write may have landed; a read racing it may have cached the old body.
      this.#bodies.delete(key);
    }
  }

  async #delete(key: string, options?: RequestOptions): Promise<void> {
    try {
      await this.#send("DELETE", key, { signal: options?.signal, missingIsUndefined: true });
    } finally {
      this.#bodies.delete(key);
    }
  }

  #ignoresRanges(): boolean {
    return ignoresRanges(this.#base.origin);
  }

  #cachedBody(key: string): Uint8Array | undefined {
    return this.#ignoresRanges() ? this.#bodies.get(key) : undefined;
  }

  /** A ranged GET got the whole value: the server ignores Range. */
  #rememberWholeBody(key: string, body: Uint8Array): void {
    learnRangeSupport(this.#base.origin, false);
    this.#bodies.set(key, body);
  }

  #checkContentRange(key: string, range: RangeQuery, result: HttpResult): void {
    const problem = contentRangeProblem(result.headers.get("Content-Range"), range, result.body.byteLength);
    if (problem) throw new StoreError(`Bad partial response for GET ${redactUrl(keyUrl(this.#base, key))}: ${problem}.`, { key });
  }

  /** One request with retries. Undefined when the status means "missing"; a typed error for other failures. */
  async #send(method: string, key: string, options: SendOptions): Promise<HttpResult | undefined> {
    const url = keyUrl(this.#base, key);
    const { signal } = options;
    signal?.throwIfAborted();
    const headers = new Headers(this.#headers);
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    const init: RequestInit = { ...this.#init, method, headers, body: options.body ?? null, signal: signal ?? null };
    for (let retry = 0; ; retry++) {
      const canRetry = retry < this.#retry.retries;
      try {
        const response = await this.#fetch(url, init);
        if (options.missingIsUndefined && this.#missing.has(response.status)) {
          await discard(response);
          return undefined;
        }
        if (response.status >= 500 && canRetry) {
          await discard(response);
          await abortableSleep(backoffMs(retry, this.#retry), signal);
          continue;
        }
        // A 416 answer to a Range is left to the caller, which knows what it asked for.
        if (!response.ok && !(response.status === 416 && headers.has("Range"))) {
          await discard(response);
          throw statusError(response.status, response.statusText, method, url, key, retry);
        }
        return { status: response.status, headers: response.headers, body: new Uint8Array(await response.arrayBuffer()) };
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (error instanceof ZarrkitError) throw error;
        if (!canRetry || options.retryNetworkErrors === false) {
          // The cause may be a TypeError from fetch; the message names the URL without secrets.
          throw new StoreError(`Network error for ${method} ${redactUrl(url)} (key ${JSON.stringify(key)}) after ${retry + 1} attempt(s).`, {
            key,
            cause: error,
          });
        }
        await abortableSleep(backoffMs(retry, this.#retry), signal);
      }
    }
  }
}

/** Drop an unused body so the connection can be reused. */
async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

function checkRange(key: string, range: RangeQuery): void {
  const counts = "suffixLength" in range ? [range.suffixLength] : [range.offset, range.length];
  if (!counts.every((n) => Number.isSafeInteger(n) && n >= 0)) {
    throw new StoreError(`Invalid range ${JSON.stringify(range)} for ${JSON.stringify(key)}: offsets and lengths are non-negative integers.`, { key });
  }
}
