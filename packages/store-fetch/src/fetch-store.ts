import {
  checkRange,
  LruCache,
  PreconditionFailedError,
  type RangeQuery,
  type ReadOptions,
  type RequestOptions,
  type SetOptions,
  type SizedValue,
  type Store,
  StoreError,
  type VersionedValue,
} from "@zarrkit/registry";
import { type BodyLimit, checkIfMatch, confirmVersion, configuredSecrets, contentRangeProblem, contentRangeTotal, isWeak, rangeHeader, type RetryOptions, redactText, redactUrl, strongEtag, unsatisfiedRangeSize, withVersion } from "@zarrkit/registry/http";
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
  /** Bounded retries of 5xx and 429 answers, network errors and idle timeouts, with exponential backoff and jitter. Other 4xx answers are never retried. */
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
}

/** Default `coalesceGapBytes`: over HTTP a request costs a round trip, worth megabytes of transfer. */
const DEFAULT_COALESCE_GAP_BYTES = 4 * 2 ** 20;
/** Default `idleTimeoutMs`: longer than any healthy server stays silent, short enough that a stuck read fails visibly. */
const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
/** Retries of FetchStore: 3, backing off from 200 ms (S3Store starts at 50 ms: a conditional write racing another gets its answer sooner). */
const DEFAULT_RETRY: Required<RetryOptions> = { retries: 3, baseDelayMs: 200, maxDelayMs: 5000 };
/**
 * Default `maxBodyBytes`: 2^31 - 1, the largest ArrayBuffer browsers allocate
 * everywhere (and the largest value whose offsets fit an int32, which codecs
 * index with); a reply the store cannot hold fails as itself, not as a
 * RangeError from deep inside fetch.
 */
const DEFAULT_MAX_BODY_BYTES = 2 ** 31 - 1;

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
  readonly #client: HttpClient;
  /** The last whole values fetched from a server that ignores Range, so ranged reads of one key (an index, then chunks) fetch it once. */
  readonly #bodies: LruCache<string, CachedBody>;
  readonly #maxBodyBytes: number;
  /** Credentials this store was given, looked for in text it did not write (causes from fetch, status texts). */
  readonly #secrets: readonly string[];

  constructor(url: string | URL, options: FetchStoreOptions = {}) {
    const { url: base, authorization, secrets } = parseBaseUrl(url);
    this.#base = base;
    let headers: Headers;
    try {
      headers = new Headers(options.headers);
    } catch {
      // No cause, no detail: the header that does not parse may be the secret one.
      throw new StoreError("FetchStore option headers holds a header name or value that is not valid HTTP.");
    }
    if (authorization && !headers.has("Authorization")) headers.set("Authorization", authorization);
    this.#secrets = [...new Set([...secrets, ...configuredSecrets(undefined, headers)])].sort((a, b) => b.length - a.length);
    this.#client = new HttpClient(base, {
      headers,
      init: options.init,
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      missing: new Set(options.missingStatuses ?? [404]),
      retry: { ...DEFAULT_RETRY, ...options.retry },
      idleTimeoutMs: integerOption("idleTimeoutMs", options.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS),
      secrets: this.#secrets,
    });
    this.#bodies = new LruCache(options.fullBodyCacheBytes ?? 32 * 2 ** 20, (body) => body.value.byteLength);
    this.coalesceGapBytes = integerOption("coalesceGapBytes", options.coalesceGapBytes, DEFAULT_COALESCE_GAP_BYTES);
    this.#maxBodyBytes = integerOption("maxBodyBytes", options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES);
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
   * A ranged read that also reports the value's size (from the Content-Range
   * total, or the whole body) and its version: the strong ETag of the reply.
   * With `ifMatch`, the request carries `If-Match` and the reply must come
   * from that version (412, another ETag, no ETag, or a missing key are a
   * `PreconditionFailedError`).
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
    if (cached) return withVersion({ value: sliceRange(cached.value, range), size: cached.value.byteLength }, cached.version);
    const headers: Record<string, string> = { Range: rangeHeader(range) };
    if (ifMatch !== undefined) headers["If-Match"] = ifMatch;
    const result = await this.#client.send("GET", key, { signal, headers, missingIsUndefined: true, limit: this.#rangeLimit(wanted) });
    if (!result) return this.#gone(key, ifMatch);
    if (result.status === 416) {
      const size = unsatisfiedRangeSize(result.headers.get("Content-Range"));
      // 416 for a range that has bytes is a server bug (some reject suffixes longer than the value): read it all.
      if (size !== undefined && overlaps(range, size)) {
        const whole = await this.#getWhole(key, signal, ifMatch);
        return whole && withVersion({ value: sliceRange(whole.value, range), size: whole.value.byteLength }, whole.version);
      }
      // Servers (nginx) often send no ETag with a 416: then a probe of the first byte, with If-Match, says which version it was.
      if (ifMatch !== undefined && strongEtag(result.headers) === undefined) {
        const probed = await this.#probe(key, signal, ifMatch);
        return probed && { value: new Uint8Array(0), ...probed };
      }
      const version = this.#confirmVersion(key, result, ifMatch);
      return withVersion(size === undefined ? { value: new Uint8Array(0) } : { value: new Uint8Array(0), size }, version);
    }
    const version = this.#confirmVersion(key, result, ifMatch);
    if (result.status === 206) {
      learnRangeSupport(this.#base.origin, true);
      this.#checkContentRange(key, range, result);
      const size = contentRangeTotal(result.headers.get("Content-Range"));
      return withVersion(size === undefined ? { value: result.body } : { value: result.body, size }, version);
    }
    this.#rememberWholeBody(key, result.body, version);
    return withVersion({ value: sliceRange(result.body, range), size: result.body.byteLength }, version);
  }

  /**
   * The value and its ETag as the version. A `StoreError` when the server
   * sends no ETag or only a weak one (`W/"..."`): a weak ETag does not promise
   * identical bytes and never matches `If-Match`, so it is no version.
   */
  async getVersioned(key: string, options?: RequestOptions): Promise<VersionedValue | undefined> {
    const result = await this.#client.send("GET", key, { signal: options?.signal, missingIsUndefined: true, limit: this.#wholeLimit() });
    if (!result) return undefined;
    const etag = result.headers.get("ETag");
    const version = strongEtag(result.headers);
    if (version === undefined) {
      const why = etag && isWeak(etag) ? "only a weak ETag (W/...), which does not promise identical bytes and never matches If-Match" : "no ETag";
      throw new StoreError(`${this.url} sent ${why} for ${JSON.stringify(key)}, so it has no version to offer.`, { key });
    }
    return { value: result.body, version };
  }

  /** From the Content-Range of a one-byte ranged GET (no HEAD, which presigned URLs often do not allow). */
  async size(key: string, options?: RequestOptions): Promise<number | undefined> {
    const probed = await this.#probe(key, options?.signal, undefined);
    if (!probed) return undefined;
    return probed.size ?? (await this.get(key, options))?.byteLength;
  }

  /** The whole value and its version (strong ETag), checked against `ifMatch` when given. */
  async #getWhole(key: string, signal: AbortSignal | undefined, ifMatch: string | undefined): Promise<CachedBody | undefined> {
    const headers: Record<string, string> = ifMatch === undefined ? {} : { "If-Match": ifMatch };
    const result = await this.#client.send("GET", key, { signal, headers, missingIsUndefined: true, limit: this.#wholeLimit() });
    if (!result) return this.#gone(key, ifMatch);
    const version = this.#confirmVersion(key, result, ifMatch);
    // On a server that ignores Range, a later ranged read of this key can use this body (a copy: the caller may change its own).
    if (this.#ignoresRanges()) this.#bodies.set(key, { value: result.body.slice(), version });
    return { value: result.body, version };
  }

  /** Whether the key exists and, when the server says, its size and version: a GET of its first byte. */
  async #probe(key: string, signal: AbortSignal | undefined, ifMatch: string | undefined): Promise<{ size?: number; version?: string } | undefined> {
    const cached = await this.#cachedBody(key, signal, ifMatch);
    if (cached === "missing") return undefined;
    if (cached) return withVersion({ size: cached.value.byteLength }, cached.version);
    const headers: Record<string, string> = { Range: "bytes=0-0" };
    if (ifMatch !== undefined) headers["If-Match"] = ifMatch;
    const result = await this.#client.send("GET", key, { signal, headers, missingIsUndefined: true, limit: this.#rangeLimit(1) });
    if (!result) return this.#gone(key, ifMatch);
    const version = this.#confirmVersion(key, result, ifMatch);
    if (result.status === 416) return withVersion({ size: unsatisfiedRangeSize(result.headers.get("Content-Range")) ?? 0 }, version);
    if (result.status === 206) {
      learnRangeSupport(this.#base.origin, true);
      this.#checkContentRange(key, { offset: 0, length: 1 }, result);
      const total = contentRangeTotal(result.headers.get("Content-Range"));
      return withVersion(total === undefined ? {} : { size: total }, version);
    }
    this.#rememberWholeBody(key, result.body, version);
    return withVersion({ size: result.body.byteLength }, version);
  }

  async #put(key: string, value: Uint8Array, options: SetOptions = {}): Promise<void> {
    const headers: Record<string, string> = { "Content-Type": "application/octet-stream" };
    const ifMatch = checkIfMatch(key, options.ifMatch, "write");
    if (ifMatch !== undefined) headers["If-Match"] = ifMatch;
    if (options.ifNoneMatch !== undefined) {
      if (options.ifNoneMatch !== "*") throw new StoreError(`ifNoneMatch for ${JSON.stringify(key)} must be "*".`, { key });
      headers["If-None-Match"] = options.ifNoneMatch;
    }
    const conditional = ifMatch !== undefined || options.ifNoneMatch !== undefined;
    try {
      // A copy: the caller may reuse its buffer while the request is in flight.
      await this.#client.send("PUT", key, { signal: options.signal, headers, body: value.slice(), retryNetworkErrors: !conditional });
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
   * The cached whole value of `key` (servers that ignore Range), once the
   * server has confirmed it is current: a GET with `If-None-Match` of its
   * ETag answers 304 without a body while it is (with `ifMatch`, also
   * `If-Match`, so a changed value is a 412). A changed value comes back
   * whole and replaces the entry. "missing" when the key is gone; undefined
   * when there is nothing cached to use. Bodies without an ETag cannot be
   * revalidated and are used as they are (see the README's limits).
   */
  async #cachedBody(key: string, signal: AbortSignal | undefined, ifMatch: string | undefined): Promise<CachedBody | "missing" | undefined> {
    const cached = this.#ignoresRanges() ? this.#bodies.get(key) : undefined;
    if (!cached || (ifMatch !== undefined && cached.version !== ifMatch)) return undefined;
    if (cached.version === undefined) return cached;
    const headers: Record<string, string> = { "If-None-Match": cached.version };
    if (ifMatch !== undefined) headers["If-Match"] = ifMatch;
    try {
      const result = await this.#client.send("GET", key, { signal, headers, missingIsUndefined: true, limit: this.#wholeLimit() });
      if (!result) {
        this.#bodies.delete(key);
        this.#gone(key, ifMatch);
        return "missing";
      }
      if (result.status === 304) return cached;
      const version = this.#confirmVersion(key, result, ifMatch);
      this.#bodies.set(key, { value: result.body, version });
      return { value: result.body, version };
    } catch (error) {
      this.#bodies.delete(key);
      throw error;
    }
  }

  /** A ranged GET got the whole value: the server ignores Range. */
  #rememberWholeBody(key: string, body: Uint8Array, version: string | undefined): void {
    learnRangeSupport(this.#base.origin, false);
    this.#bodies.set(key, { value: body, version });
  }

  #checkContentRange(key: string, range: RangeQuery, result: HttpResult): void {
    const problem = contentRangeProblem(result.headers.get("Content-Range"), range, result.body.byteLength);
    if (problem) throw new StoreError(`Bad partial response for GET ${this.#where(key)}: ${redactText(problem, this.#secrets)}.`, { key });
  }

  /** The reply's version (strong ETag), which must be `ifMatch` when given. */
  #confirmVersion(key: string, result: HttpResult, ifMatch: string | undefined): string | undefined {
    return confirmVersion(result.headers, ifMatch, key, (got) =>
      redactText(`GET ${this.#where(key)} answered with ${got}, not the version ${ifMatch} asked for with If-Match: the value was replaced.`, this.#secrets),
    );
  }

  /** A missing key: undefined, or a PreconditionFailedError when a version of it was asked for. */
  #gone(key: string, ifMatch: string | undefined): undefined {
    if (ifMatch === undefined) return undefined;
    throw new PreconditionFailedError(`GET ${this.#where(key)}: the key no longer exists, so it does not have the version ${ifMatch} asked for with If-Match.`, {
      key,
    });
  }

  #wholeLimit(): BodyLimit {
    const bytes = this.#maxBodyBytes;
    return () => ({ bytes, why: "maxBodyBytes allows" });
  }

  /** A 206 holds at most the range; a 200 is the whole value, up to `maxBodyBytes`. */
  #rangeLimit(wanted: number): BodyLimit {
    const max = this.#maxBodyBytes;
    return (status) => (status === 206 ? { bytes: Math.min(wanted, max), why: "the range asked for" } : { bytes: max, why: "maxBodyBytes allows" });
  }

  /** The URL of `key` as messages show it, with the key. */
  #where(key: string): string {
    return `${redactUrl(keyUrl(this.#base, key))} (key ${JSON.stringify(key)})`;
  }

}

/** A whole value fetched from a server that ignores Range, with its version (strong ETag) when the server sent one. */
interface CachedBody {
  value: Uint8Array;
  version: string | undefined;
}


/** A non-negative integer option, or its default. */
function integerOption(name: string, value: number | undefined, fallback: number): number {
  const n = value ?? fallback;
  if (!(Number.isSafeInteger(n) && n >= 0)) {
    throw new StoreError(`FetchStore option ${name} must be a non-negative integer, got ${JSON.stringify(n) ?? String(n)}.`);
  }
  return n;
}

