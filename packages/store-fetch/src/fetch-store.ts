import {
  checkRange,
  checkWindow,
  type LentRange,
  PreconditionFailedError,
  type RangeQuery,
  type ReadOptions,
  type RequestOptions,
  type SetOptions,
  type SizedValue,
  type Store,
  InvalidOptionError,
  StoreError,
  type VersionedValue,
  type WindowQuery,
  configuredSecrets,
  redactText,
  redactUrl,
} from "@zarrkit/registry";
import { LruCache } from "@zarrkit/util";
import {
  type BodyLimit,
  bodyLength,
  type CrossOriginRedirects,
  checkIfMatch,
  confirmVersion,
  contentRangeProblem,
  contentRangeTotal,
  ifMatchHeaders,
  ifNoneMatchHeaders,
  isLastModifiedVersion,
  isWeak,
  MAX_RETRY_AFTER_MS,
  rangeHeader,
  type RetryOptions,
  replyVersion,
  sameVersion,
  strongEtag,
  unsatisfiedRangeSize,
  wholeValueProblem,
  withVersion,
} from "@zarrkit/http";
import { ignoresRanges, learnRangeSupport } from "./range-support.js";
import { overlaps, sliceRange } from "./ranges.js";
import { HttpClient, type HttpResult } from "./client.js";
import { keyUrl, parseBaseUrl } from "./urls.js";

/** Options of `FetchStore` (also accepted by `openStore("https://...", options)`). */
export interface FetchStoreOptions {
  /** Headers for every request, e.g. `{ Authorization: "Bearer ..." }`. */
  headers?: HeadersInit;
  /** Other fetch options for every request: `credentials`, `mode`, `cache`, `referrerPolicy`, ... */
  init?: Omit<RequestInit, "method" | "headers" | "body" | "signal">;
  /** The fetch implementation. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Statuses meaning "no such key". Default `[404]`; add 403 for buckets that hide missing keys behind it. */
  missingStatuses?: readonly number[];
  /**
   * Bounded retries of 5xx and 429 answers, network errors and idle timeouts, with exponential backoff and jitter.
   * Other 4xx answers are never retried.
   */
  retry?: RetryOptions;
  /** Offer `set` (PUT) and `delete` (DELETE). Default false: the store is read-only. */
  writable?: boolean;
  /** Bytes of whole values kept for servers that ignore Range. Default 32 MiB; 0 keeps none. */
  fullBodyCacheBytes?: number;
  /**
   * The store's `coalesceGapBytes` hint: readers that coalesce ranges (the
   * sharding codec) fetch ranges of one value at most this far apart with one
   * request. Default 4 MiB, about what a round trip costs in transfer; lower
   * it for fast, close servers, raise it for slow, far ones. A non-negative integer.
   */
  coalesceGapBytes?: number;
  /**
   * Milliseconds without a byte from the server (waiting for the headers of a
   * read, or between chunks of any body) after which a request is cancelled
   * with a `StoreTimeoutError` (code "STORE_TIMEOUT"), then retried like a
   * network error. Default 30 000; 0 disables it. A non-negative integer.
   */
  idleTimeoutMs?: number;
  /**
   * The largest body accepted where the request does not bound it: whole
   * values (`get`, `getVersioned`) and ranged reads answered with the whole
   * value by servers that ignore Range. A larger reply is a
   * `ResponseTooLargeError` (code "RESPONSE_TOO_LARGE") and its connection is
   * closed. Ranged reads accept at most the bytes of the range. Default
   * 2 GiB - 1 (2^31 - 1), the largest buffer every JavaScript engine allocates.
   */
  maxBodyBytes?: number;
  /**
   * Milliseconds an attempt of a request may take in all, headers and body,
   * however steadily bytes arrive; past it the request is cancelled with a
   * `StoreTimeoutError` and not retried. Default 600 000 (10 minutes); 0
   * disables it. A non-negative integer.
   */
  requestTimeoutMs?: number;
  /**
   * The slowest body accepted, in bytes per second, measured over every
   * 10 seconds once the reply's headers are in: a body that brings fewer
   * bytes in a window (a server trickling a byte every few seconds, which the
   * idle timeout never sees) is cancelled with a `StoreTimeoutError` and not
   * retried. Default 1024; 0 disables it. A non-negative integer.
   */
  minBytesPerSecond?: number;
  /**
   * Redirects to another origin (scheme, host, port): "strip-headers" (the
   * default) follows them without the headers given in `headers` or built
   * from the URL's credentials (only the request's own Range and conditions
   * go on); "refuse" makes them a `StoreError`. Caller headers always follow
   * redirects within the origin; a redirect from https to http is always
   * refused.
   */
  crossOriginRedirects?: CrossOriginRedirects;
  /**
   * Let codec workers fetch the ranges readers lend them (`lendRange`: a
   * whole shard, or a shard's range of inner chunks, read into a result
   * over shared memory), so that their bodies never reach the calling
   * thread. Default: true in browsers, where the page's thread is what a
   * viewer feels (Chromium: busy 7-9% of a whole sharded read instead of
   * 74-80%); false in Node, where it measured 5-7% slower with 20 ms of
   * latency (a worker busy decoding answers its fetches late) and the
   * calling thread is not the bottleneck.
   */
  workerFetches?: boolean;
  /**
   * The data behind this URL never changes (a published, versioned data
   * set): cached whole values and the shard indexes readers cache are reused
   * without asking the server again, so a warm read costs one request at most,
   * and values are reported at the constant version "immutable". A value
   * replaced on the server anyway is not noticed. Not with `writable`.
   */
  immutable?: boolean;
}

/** Default `coalesceGapBytes`: over HTTP a request costs a round trip, worth megabytes of transfer. */
const DEFAULT_COALESCE_GAP_BYTES = 4 * 2 ** 20;
/**
 * Default `idleTimeoutMs`: longer than any healthy server stays silent, short enough that a stuck read fails visibly.
 */
const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
/** Default `requestTimeoutMs`: a 2 GiB value at under 4 MB/s still fits; a request that never ends does not. */
const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;
/** Default `minBytesPerSecond`: far below any link data is worth reading over, far above a trickle. */
const DEFAULT_MIN_BYTES_PER_SECOND = 1024;
/**
 * Retries of FetchStore: 3, backing off from 200 ms (S3Store starts at 50 ms: a conditional write racing another gets
 * its answer sooner).
 */
const DEFAULT_RETRY: Required<RetryOptions> = {
  retries: 3,
  baseDelayMs: 200,
  maxDelayMs: 5000,
  maxRetryAfterMs: MAX_RETRY_AFTER_MS,
};
/**
 * Default `maxBodyBytes`: 2^31 - 1, the largest ArrayBuffer browsers allocate
 * everywhere (and the largest value whose offsets fit an int32, which codecs
 * index with); a reply the store cannot hold fails as itself, not as a
 * RangeError from deep inside fetch.
 */
const DEFAULT_MAX_BODY_BYTES = 2 ** 31 - 1;
/**
 * Bytes read past the end of a window when a server answers it with the whole
 * value (200) and reading stops there: enough to see a value that ends just
 * after the window end (then it is whole, and its size known), little next to
 * what an endless or huge body would cost.
 */
const WINDOW_MARGIN_BYTES = 64 * 2 ** 10;
/** The version of every value of an `immutable` store. */
const IMMUTABLE = "immutable";

/** Node (where `workerFetches` is off by default), not a browser. */
export const IN_NODE =
  (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node !== undefined;

/** The range reader codec workers read `lendRange`'s windows with (fetch-range-reader.ts). */
export const FETCH_READER = "@zarrkit/store-fetch:range";
/** The range reader of bytes lent as they are: fetched here already (fetch-range-reader.ts). */
export const BYTES_READER = "@zarrkit/store-fetch:bytes";

/** What a codec worker needs to build this store again: its URL and options as plain data. */
export interface LentStore {
  url: string;
  options: FetchStoreOptions;
}

/**
 * The store as a worker rebuilds it, or undefined when it cannot cross to one: a `fetch` of the caller's (a function)
 * or options structured clone does not keep (an `init` with objects of the runtime's own).
 */
function lentStore(url: URL, headers: Headers, options: FetchStoreOptions): LentStore | undefined {
  if (options.fetch !== undefined) return undefined;
  // Whole values are not kept in workers: the calling thread's store keeps them, and lends them as bytes.
  const { writable: _writable, workerFetches: _workerFetches, ...rest } = options;
  const entries: [string, string][] = [];
  headers.forEach((value, name) => {
    entries.push([name, value]);
  });
  const lent = { url: url.href, options: { ...rest, headers: entries, fullBodyCacheBytes: 0 } };
  try {
    return structuredClone(lent);
  } catch {
    return undefined;
  }
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
  /**
   * Ranges of one value at most this many bytes apart are cheaper to read as one request (the `coalesceGapBytes`
   * option).
   */
  readonly coalesceGapBytes: number;

  readonly #base: URL;
  readonly #client: HttpClient;
  /**
   * The last whole values fetched from a server that ignores Range, so ranged reads of one key (an index, then chunks)
   * fetch it once. Only values with a version (or of an immutable store): others cannot be revalidated.
   */
  readonly #bodies: LruCache<string, CachedBody>;
  readonly #fullBodyCacheBytes: number;
  readonly #maxBodyBytes: number;
  readonly #immutable: boolean;
  /** Credentials this store was given, looked for in text it did not write (causes from fetch, status texts). */
  readonly #secrets: readonly string[];
  /**
   * False once the server was seen sending a new ETag for every request: versions then come from Last-Modified only.
   */
  #etags = true;
  /** Whether the server allows HEAD, with which values versioned by Last-Modified are revalidated. */
  #headAllowed = true;
  /**
   * The ETag of the last reply that failed a read's If-Match, by key: the next read of the key tells whether the value
   * changed or the ETag did.
   */
  readonly #conflicts = new LruCache<string, string>(1000, () => 1);
  /**
   * `lendRange`, with `workerFetches` (see there): codec workers fetch the windows readers lend them.
   */
  readonly lendRange?: <T>(
    key: string,
    range: WindowQuery,
    options: ReadOptions | undefined,
    use: (lent: LentRange | undefined) => Promise<T>,
  ) => Promise<T>;
  /** This store as codec workers rebuild it to read lent windows themselves; undefined when it cannot cross. */
  readonly #lent: LentStore | undefined;

  constructor(url: string | URL, options: FetchStoreOptions = {}) {
    const { url: base, authorization, secrets } = parseBaseUrl(url);
    this.#base = base;
    let headers: Headers;
    try {
      headers = new Headers(options.headers);
    } catch {
      // No cause, no detail: the header that does not parse may be the secret one.
      throw new InvalidOptionError("FetchStore option headers holds a header name or value that is not valid HTTP.", {
        field: "headers",
      });
    }
    if (authorization && !headers.has("Authorization")) headers.set("Authorization", authorization);
    this.#secrets = [...new Set([...secrets, ...configuredSecrets(undefined, headers)])].sort(
      (a, b) => b.length - a.length,
    );
    const crossOriginRedirects = options.crossOriginRedirects ?? "strip-headers";
    if (crossOriginRedirects !== "strip-headers" && crossOriginRedirects !== "refuse") {
      throw new InvalidOptionError(
        'FetchStore option crossOriginRedirects must be "strip-headers" or "refuse", ' +
          `got ${JSON.stringify(String(crossOriginRedirects))}.`,
        { field: "crossOriginRedirects" },
      );
    }
    this.#immutable = options.immutable === true;
    if (this.#immutable && options.writable)
      throw new InvalidOptionError(
        "FetchStore options immutable and writable exclude each other: an immutable store's values never change.",
        { field: "immutable" },
      );
    this.#client = new HttpClient(base, {
      headers,
      init: options.init,
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      missing: new Set(options.missingStatuses ?? [404]),
      retry: { ...DEFAULT_RETRY, ...options.retry },
      idleTimeoutMs: integerOption("idleTimeoutMs", options.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS),
      limits: {
        deadlineMs: integerOption("requestTimeoutMs", options.requestTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS),
        minBytesPerSecond: integerOption("minBytesPerSecond", options.minBytesPerSecond, DEFAULT_MIN_BYTES_PER_SECOND),
      },
      crossOriginRedirects,
      secrets: this.#secrets,
    });
    this.#fullBodyCacheBytes = integerOption("fullBodyCacheBytes", options.fullBodyCacheBytes, 32 * 2 ** 20);
    this.#bodies = new LruCache(this.#fullBodyCacheBytes, (body) => body.value.byteLength);
    this.coalesceGapBytes = integerOption("coalesceGapBytes", options.coalesceGapBytes, DEFAULT_COALESCE_GAP_BYTES);
    this.#maxBodyBytes = integerOption("maxBodyBytes", options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES);
    this.#lent = lentStore(base, headers, options);
    if (options.workerFetches !== undefined && typeof options.workerFetches !== "boolean") {
      throw new InvalidOptionError(
        `FetchStore option workerFetches must be true or false, got ${JSON.stringify(String(options.workerFetches))}.`,
        { field: "workerFetches" },
      );
    }
    if (options.workerFetches ?? !IN_NODE)
      this.lendRange = (key, range, lendOptions, use) => this.#lend(key, range, lendOptions, use);
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
    return (await this.#getWhole(key, options?.signal, undefined))?.value;
  }

  async getRange(key: string, range: RangeQuery, options?: ReadOptions): Promise<Uint8Array | undefined> {
    return (await this.getRangeWithSize(key, range, options))?.value;
  }

  /**
   * Lends a window to codec workers without a request: a worker fetches it
   * with a store built from this one's URL and options (one request for the
   * window, Range and `ifMatch` as `getRangeWithSize` sends them), so its
   * bytes never reach the calling thread. The length lent is the length
   * asked; a missing key, or a value changed since `ifMatch`'s version, is a
   * `PreconditionFailedError` when the worker reads. Windows of a value
   * cached whole, of a server that ignores Range, or of a store that cannot
   * cross to a worker (a `fetch` of the caller's) are fetched here and lent as
   * bytes.
   */
  async #lend<T>(
    key: string,
    range: WindowQuery,
    options: ReadOptions | undefined,
    use: (lent: LentRange | undefined) => Promise<T>,
  ): Promise<T> {
    checkWindow(key, range, "lendRange");
    keyUrl(this.#base, key);
    const ifMatch = checkIfMatch(key, options?.ifMatch, "read");
    if (this.#lent === undefined || ignoresRanges(this.#base.origin) || this.#bodies.get(key)) {
      const bytes = await this.getRange(key, range, options);
      return use(
        bytes && { source: { reader: BYTES_READER, bytes }, offset: 0, length: bytes.length, splittable: true },
      );
    }
    const source = { reader: FETCH_READER, ...this.#lent, key, ...(ifMatch !== undefined && { ifMatch }) };
    return use({ source, offset: range.offset, length: range.length });
  }

  /**
   * A ranged read that also reports the value's size (from the Content-Range
   * total, or the whole body) and its version: the strong ETag of the reply,
   * else its Last-Modified with the size when that is strong (see the README).
   * With `ifMatch`, the request carries `If-Match` (or `If-Unmodified-Since`)
   * and the reply must come from that version (412, another version, none,
   * or a missing key are a `PreconditionFailedError`).
   */
  async getRangeWithSize(key: string, range: RangeQuery, options?: ReadOptions): Promise<SizedValue | undefined> {
    checkRange(key, range);
    const ifMatch = checkIfMatch(key, options?.ifMatch, "read");
    const signal = options?.signal;
    const wanted = "suffixLength" in range ? range.suffixLength : range.length;
    // HTTP cannot ask for zero bytes: only find out whether the key exists.
    if (wanted === 0) {
      const probed = await this.#probe(key, signal, ifMatch);
      return probed && { value: new Uint8Array(0), ...probed };
    }
    const cached = await this.#cachedBody(key, signal, ifMatch);
    if (cached === "missing") return undefined;
    if (cached)
      return withVersion({ value: sliceRange(cached.value, range), size: cached.value.byteLength }, cached.version);
    const headers: Record<string, string> = { Range: rangeHeader(range), ...this.#conditions(ifMatch) };
    const result = await this.#client.send("GET", key, {
      signal,
      headers,
      missingIsUndefined: true,
      limit: this.#rangeLimit(range),
    });
    if (!result) return this.#gone(key, ifMatch);
    if (result.status === 416) {
      const size = unsatisfiedRangeSize(result.headers.get("Content-Range"));
      // 416 for a range that has bytes is a server bug (some reject suffixes longer than the value): read it all.
      if (size !== undefined && overlaps(range, size)) {
        const whole = await this.#getWhole(key, signal, ifMatch);
        return (
          whole && withVersion({ value: sliceRange(whole.value, range), size: whole.value.byteLength }, whole.version)
        );
      }
      // Servers (nginx) often send no ETag with a 416: then a probe of the first byte, with If-Match, says which
      // version it was.
      if (ifMatch !== undefined && !this.#immutable && replyVersion(result.headers, size, this.#etags) === undefined) {
        const probed = await this.#probe(key, signal, ifMatch);
        return probed && { value: new Uint8Array(0), ...probed };
      }
      const version = this.#confirmVersion(key, result, ifMatch, size);
      return withVersion(
        size === undefined ? { value: new Uint8Array(0) } : { value: new Uint8Array(0), size },
        version,
      );
    }
    if (result.status === 206) {
      learnRangeSupport(this.#base.origin, true);
      this.#checkContentRange(key, range, result);
      const size = contentRangeTotal(result.headers.get("Content-Range"));
      const version = this.#confirmVersion(key, result, ifMatch, size);
      return withVersion(size === undefined ? { value: result.body } : { value: result.body, size }, version);
    }
    // 200: the server ignores Range and sends the value: whole, or (a long value) up to a window's end, or only its end
    // kept for a suffix.
    learnRangeSupport(this.#base.origin, false);
    if (result.tail)
      return withVersion(
        { value: result.body, size: result.total },
        this.#confirmVersion(key, result, ifMatch, result.total),
      );
    const size = result.complete ? result.body.byteLength : bodyLength(result.headers);
    const version = this.#confirmVersion(key, result, ifMatch, size);
    if (result.complete) this.#keepBody(key, result.body, version);
    const value = sliceRange(result.body, range);
    return withVersion(size === undefined ? { value } : { value, size }, version);
  }

  /**
   * The value and its version: its strong ETag, else its Last-Modified with
   * its size when that is strong. A `StoreError` when the server sends
   * neither (a weak ETag does not promise identical bytes and never matches
   * `If-Match`, so it is no version).
   */
  async getVersioned(key: string, options?: RequestOptions): Promise<VersionedValue | undefined> {
    const whole = await this.#getWhole(key, options?.signal, undefined);
    if (!whole) return undefined;
    if (whole.version === undefined) {
      const etag = whole.headers.get("ETag");
      const why =
        etag && isWeak(etag)
          ? "only a weak ETag (W/...), which does not promise identical bytes and never matches If-Match,"
          : "no ETag";
      const modified = whole.headers.get("Last-Modified")
        ? " and a Last-Modified within the second of its Date (not a strong validator)"
        : " and no Last-Modified";
      throw new StoreError(
        `${this.url} sent ${why}${modified} for ${JSON.stringify(key)}, so it has no version to offer.`,
        { key },
      );
    }
    return { value: whole.value, version: whole.version };
  }

  /** From the Content-Range of a one-byte ranged GET (no HEAD, which presigned URLs often do not allow). */
  async size(key: string, options?: RequestOptions): Promise<number | undefined> {
    const probed = await this.#probe(key, options?.signal, undefined);
    if (!probed) return undefined;
    return probed.size ?? (await this.get(key, options))?.byteLength;
  }

  /**
   * The whole value and its version, checked against `ifMatch` when given; only a complete value (see
   * `wholeValueProblem`).
   */
  async #getWhole(
    key: string,
    signal: AbortSignal | undefined,
    ifMatch: string | undefined,
  ): Promise<(CachedBody & { headers: Headers }) | undefined> {
    const result = await this.#client.send("GET", key, {
      signal,
      headers: this.#conditions(ifMatch),
      missingIsUndefined: true,
      limit: this.#wholeLimit(),
    });
    if (!result) return this.#gone(key, ifMatch);
    this.#checkWhole(key, result);
    const version = this.#confirmVersion(key, result, ifMatch, result.body.byteLength);
    // On a server that ignores Range, a later ranged read of this key can use this body (a copy: the caller may change
    // its own).
    if (this.#ignoresRanges()) this.#keepBody(key, result.body.slice(), version);
    return { value: result.body, version, headers: result.headers };
  }

  /** Whether the key exists and, when the server says, its size and version: a GET of its first byte. */
  async #probe(
    key: string,
    signal: AbortSignal | undefined,
    ifMatch: string | undefined,
  ): Promise<{ size?: number; version?: string } | undefined> {
    const cached = await this.#cachedBody(key, signal, ifMatch);
    if (cached === "missing") return undefined;
    if (cached) return withVersion({ size: cached.value.byteLength }, cached.version);
    const range = { offset: 0, length: 1 };
    const headers: Record<string, string> = { Range: "bytes=0-0", ...this.#conditions(ifMatch) };
    const result = await this.#client.send("GET", key, {
      signal,
      headers,
      missingIsUndefined: true,
      limit: this.#rangeLimit(range),
    });
    if (!result) return this.#gone(key, ifMatch);
    if (result.status === 416) {
      const size = unsatisfiedRangeSize(result.headers.get("Content-Range")) ?? 0;
      return withVersion({ size }, this.#confirmVersion(key, result, ifMatch, size));
    }
    if (result.status === 206) {
      learnRangeSupport(this.#base.origin, true);
      this.#checkContentRange(key, range, result);
      const total = contentRangeTotal(result.headers.get("Content-Range"));
      return withVersion(total === undefined ? {} : { size: total }, this.#confirmVersion(key, result, ifMatch, total));
    }
    learnRangeSupport(this.#base.origin, false);
    const size = result.complete ? result.body.byteLength : bodyLength(result.headers);
    const version = this.#confirmVersion(key, result, ifMatch, size);
    if (result.complete) this.#keepBody(key, result.body, version);
    return withVersion(size === undefined ? {} : { size }, version);
  }

  async #put(key: string, value: Uint8Array, options: SetOptions = {}): Promise<void> {
    const ifMatch = checkIfMatch(key, options.ifMatch, "write");
    const headers: Record<string, string> = {
      "Content-Type": "application/octet-stream",
      ...(ifMatch !== undefined && ifMatchHeaders(ifMatch)),
    };
    if (options.ifNoneMatch !== undefined) {
      if (options.ifNoneMatch !== "*")
        throw new StoreError(`ifNoneMatch for ${JSON.stringify(key)} must be "*".`, { key });
      headers["If-None-Match"] = options.ifNoneMatch;
    }
    const conditional = ifMatch !== undefined || options.ifNoneMatch !== undefined;
    try {
      // A copy: the caller may reuse its buffer while the request is in flight.
      await this.#client.send("PUT", key, {
        signal: options.signal,
        headers,
        body: value.slice(),
        retryNetworkErrors: !conditional,
      });
    } finally {
      // Even a failed write may have landed; a read racing it may have cached the old body.
      this.#bodies.delete(key);
    }
  }

  async #delete(key: string, options?: RequestOptions): Promise<void> {
    try {
      await this.#client.send("DELETE", key, { signal: options?.signal, missingIsUndefined: true });
    } finally {
      this.#bodies.delete(key);
    }
  }

  #ignoresRanges(): boolean {
    return ignoresRanges(this.#base.origin);
  }

  /**
   * The headers that make the server check `ifMatch` (none for an immutable store, whose versions are all the same).
   */
  #conditions(ifMatch: string | undefined): Record<string, string> {
    return ifMatch === undefined || this.#immutable ? {} : ifMatchHeaders(ifMatch);
  }

  /**
   * The cached whole value of `key` (servers that ignore Range), once the
   * server has confirmed it is current. A value versioned by its ETag: a GET
   * with `If-None-Match` answers 304 without a body while it is (with
   * `ifMatch`, also `If-Match`, so a changed value is a 412). A value
   * versioned by Last-Modified and size: a HEAD, whose Last-Modified and
   * Content-Length must be the cached ones exactly (`If-Modified-Since` would
   * answer 304 for a value replaced by one with an older Last-Modified, a copy
   * that keeps times); where HEAD is not allowed, a GET with
   * `If-Modified-Since` instead. A changed value comes back whole and
   * replaces the entry. "missing" when the key is gone; undefined when there
   * is nothing cached to use. Only values with a version are cached; an
   * immutable store's are used without asking.
   */
  async #cachedBody(
    key: string,
    signal: AbortSignal | undefined,
    ifMatch: string | undefined,
  ): Promise<CachedBody | "missing" | undefined> {
    const cached = this.#ignoresRanges() ? this.#bodies.get(key) : undefined;
    if (!cached || cached.version === undefined) return undefined;
    if (this.#immutable) return cached;
    if (ifMatch !== undefined && !sameVersion(cached.version, ifMatch)) return undefined;
    try {
      if (isLastModifiedVersion(cached.version) && this.#headAllowed) {
        const current = await this.#headVersion(key, signal);
        if (current !== "no HEAD") {
          if (current === "missing") {
            this.#bodies.delete(key);
            this.#gone(key, ifMatch);
            return "missing";
          }
          if (current === cached.version) return cached;
          this.#bodies.delete(key);
          return undefined;
        }
      }
      const headers = { ...ifNoneMatchHeaders(cached.version), ...this.#conditions(ifMatch) };
      const result = await this.#client.send("GET", key, {
        signal,
        headers,
        missingIsUndefined: true,
        limit: this.#wholeLimit(),
      });
      if (!result) {
        this.#bodies.delete(key);
        this.#gone(key, ifMatch);
        return "missing";
      }
      if (result.status === 304) return cached;
      this.#bodies.delete(key);
      this.#checkWhole(key, result);
      const version = this.#confirmVersion(key, result, ifMatch, result.body.byteLength);
      this.#keepBody(key, result.body, version);
      return { value: result.body, version };
    } catch (error) {
      this.#bodies.delete(key);
      throw error;
    }
  }

  /**
   * The version a HEAD of `key` reports (Last-Modified with Content-Length), "missing", or "no HEAD" when the server
   * does not allow HEAD (then never tried again).
   */
  async #headVersion(
    key: string,
    signal: AbortSignal | undefined,
  ): Promise<string | undefined | "missing" | "no HEAD"> {
    let result: HttpResult | undefined;
    try {
      result = await this.#client.send("HEAD", key, { signal, missingIsUndefined: true });
    } catch (error) {
      // 405 Method Not Allowed, 501 Not Implemented, 403 from a URL signed for GET only.
      const status = error instanceof StoreError ? /^HTTP (\d{3})/.exec(error.message)?.[1] : undefined;
      if (status !== "405" && status !== "501" && status !== "403") throw error;
      this.#headAllowed = false;
      return "no HEAD";
    }
    if (!result) return "missing";
    return replyVersion(result.headers, bodyLength(result.headers), this.#etags);
  }

  /**
   * Tell a server whose ETag changes with every request from a value that
   * changed: when a read conditioned on one ETag got another, and the next
   * read of the key, right after, gets a third, the ETags say nothing of the
   * bytes. ETags are then no versions here (Last-Modified still is, when
   * strong): readers read without conditions rather than failing every read
   * of a sharded array, and a warning says so, once.
   */
  #watchEtags(key: string, etag: string | undefined, ifMatch: string | undefined): void {
    if (etag === undefined) return;
    if (ifMatch !== undefined) {
      if (!isLastModifiedVersion(ifMatch) && !sameVersion(etag, ifMatch)) this.#conflicts.set(key, etag);
      return;
    }
    const seen = this.#conflicts.get(key);
    if (seen === undefined) return;
    this.#conflicts.delete(key);
    if (sameVersion(seen, etag)) return;
    this.#etags = false;
    this.#bodies.clear();
    console.warn(
      `zarrkit: ${this.url} sent a new ETag for ${JSON.stringify(key)} with each of two requests in a row (${seen}, ` +
        `then ${etag}), so FetchStore no longer takes its ETags for versions: ` +
        "reads are not conditioned on them (Last-Modified is used where it is a strong validator), and readers read " +
        "shards without a cached index.",
    );
  }

  /**
   * Keep a whole value from a server that ignores Range, when it can be revalidated (it has a version) or need not be
   * (immutable).
   */
  #keepBody(key: string, body: Uint8Array, version: string | undefined): void {
    if (version === undefined) this.#bodies.delete(key);
    else this.#bodies.set(key, { value: body, version });
  }

  #checkContentRange(key: string, range: RangeQuery, result: HttpResult): void {
    const problem = contentRangeProblem(result.headers.get("Content-Range"), range, result.body.byteLength);
    if (problem)
      throw new StoreError(`Bad partial response for GET ${this.#where(key)}: ${redactText(problem, this.#secrets)}.`, {
        key,
      });
  }

  /** A reply to a GET without Range must be the whole value: a StoreError for a partial one. */
  #checkWhole(key: string, result: HttpResult): void {
    const problem = wholeValueProblem(result.status, result.headers, result.body.byteLength);
    if (problem)
      throw new StoreError(
        `Incomplete value from GET ${this.#where(key)}: ${redactText(problem, this.#secrets)}; refused.`,
        { key },
      );
  }

  /** The reply's version (strong ETag, else strong Last-Modified with `size`), which must be `ifMatch` when given. */
  #confirmVersion(
    key: string,
    result: HttpResult,
    ifMatch: string | undefined,
    size: number | undefined,
  ): string | undefined {
    if (this.#immutable) return IMMUTABLE;
    if (this.#etags) this.#watchEtags(key, strongEtag(result.headers), ifMatch);
    return confirmVersion(
      result.headers,
      ifMatch,
      key,
      (got) => {
        const how = ifMatch !== undefined && isLastModifiedVersion(ifMatch) ? "If-Unmodified-Since" : "If-Match";
        return redactText(
          `GET ${this.#where(key)} answered with ${got}, not the version ${ifMatch} asked for with ${how}: the ` +
            `value was replaced.`,
          this.#secrets,
        );
      },
      size,
      this.#etags,
    );
  }

  /** A missing key: undefined, or a PreconditionFailedError when a version of it was asked for. */
  #gone(key: string, ifMatch: string | undefined): undefined {
    if (ifMatch === undefined) return undefined;
    throw new PreconditionFailedError(
      `GET ${this.#where(key)}: the key no longer exists, so it does not have the version ${ifMatch} asked for.`,
      {
        key,
      },
    );
  }

  #wholeLimit(): BodyLimit {
    const bytes = this.#maxBodyBytes;
    return () => ({ bytes, why: "maxBodyBytes allows" });
  }

  /**
   * A 206 holds at most the range; a 200 is the whole value, up to
   * `maxBodyBytes`. Of a 200 answering a window, only the bytes up to the
   * window's end (and a margin) are read when the value is too large to
   * cache or of unknown length: a huge or endless body is not read to the cap.
   * Of one answering a suffix, only the suffix is kept once the value is
   * larger than what is worth caching: memory stays bounded.
   */
  #rangeLimit(range: RangeQuery): BodyLimit {
    const max = this.#maxBodyBytes;
    return (status, headers) => {
      if (status === 206)
        return {
          bytes: Math.min("suffixLength" in range ? range.suffixLength : range.length, max),
          why: "the range asked for",
        };
      const whole = { bytes: max, why: "maxBodyBytes allows" };
      // A suffix needs the end: past what is worth caching, only the end is kept.
      if ("suffixLength" in range)
        return { ...whole, keepTail: { after: this.#fullBodyCacheBytes, bytes: range.suffixLength } };
      const announced = bodyLength(headers);
      if (announced !== undefined && announced <= this.#fullBodyCacheBytes) return whole;
      return { ...whole, stopAt: range.offset + range.length + WINDOW_MARGIN_BYTES };
    };
  }

  /** The URL of `key` as messages show it, with the key. */
  #where(key: string): string {
    return `${redactUrl(keyUrl(this.#base, key))} (key ${JSON.stringify(key)})`;
  }
}

/** A whole value fetched from a server that ignores Range, with its version when the server gave one. */
interface CachedBody {
  value: Uint8Array;
  version: string | undefined;
}

/** A non-negative integer option, or its default. */
function integerOption(name: string, value: number | undefined, fallback: number): number {
  const n = value ?? fallback;
  if (!(Number.isSafeInteger(n) && n >= 0)) {
    throw new InvalidOptionError(
      `FetchStore option ${name} must be a non-negative integer, got ${JSON.stringify(n) ?? String(n)}.`,
      { field: name },
    );
  }
  return n;
}
