import {
  ResponseTooLargeError,
  StoreError,
  StoreTimeoutError,
  redactError,
  redactText,
  redactUrl,
} from "@zarrkit/registry";
import {
  type Attempt,
  type AttemptLimits,
  type BodyLimit,
  type CrossOriginRedirects,
  discard,
  fetchFollowing,
  PROTOCOL_HEADERS,
  type RETRY,
  type RetryAfter,
  type RetryOptions,
  readBodyPart,
  retryAfterNote,
  retryFor,
  retrying,
  statusError,
  untilAborted,
} from "@zarrkit/http";
import { keyUrl } from "./urls.js";

// The transport of FetchStore: requests with retries, idle timeouts and capped
// bodies; the store above it knows what the requests mean.

export interface HttpResult {
  status: number;
  headers: Headers;
  /** Empty unless `limit` was given and the status is a success. */
  body: Uint8Array<ArrayBuffer>;
  /** False when reading stopped at the limit's `stopAt` and the rest of the body was abandoned. */
  complete: boolean;
  /** True when only the end of the body was kept (the limit's `keepTail`); `total` is then its length. */
  tail: boolean;
  /** Bytes of body read in all. */
  total: number;
}

export interface SendOptions {
  signal?: AbortSignal | undefined;
  headers?: Record<string, string>;
  body?: Uint8Array<ArrayBuffer>;
  /** `missingStatuses` mean "no value" (reads, DELETE) rather than failure (PUT). */
  missingIsUndefined?: boolean;
  /** A network error may hide a write that happened: retrying a conditional write would then fail spuriously. */
  retryNetworkErrors?: boolean;
  /** Read the body of a successful reply, up to this many bytes; without it the body is dropped. */
  limit?: BodyLimit;
}

/** What a client sends every request with. */
export interface ClientConfig {
  headers: Headers;
  init: Omit<RequestInit, "method" | "headers" | "body" | "signal"> | undefined;
  fetch: typeof fetch;
  /** Statuses that mean "no value" for reads and DELETE. */
  missing: ReadonlySet<number>;
  retry: Required<RetryOptions>;
  idleTimeoutMs: number;
  /** Each attempt's deadline and its body's minimum rate. */
  limits: AttemptLimits;
  /** What a redirect to another origin does. */
  crossOriginRedirects: CrossOriginRedirects;
  /** Credentials looked for in text the client did not write (causes from fetch, status texts). */
  secrets: readonly string[];
}

/**
 * Sends the requests of one FetchStore: bounded retries of 5xx and 429 answers, network errors and idle timeouts, with
 * backoff.
 */
export class HttpClient {
  readonly #config: ClientConfig;

  constructor(
    readonly base: URL,
    config: ClientConfig,
  ) {
    this.#config = config;
  }

  /** One request with retries. Undefined when the status means "missing"; a typed error for other failures. */
  async send(method: string, key: string, options: SendOptions): Promise<HttpResult | undefined> {
    const url = keyUrl(this.base, key);
    const { signal } = options;
    signal?.throwIfAborted();
    const headers = new Headers(this.#config.headers);
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    return retrying(
      {
        retry: this.#config.retry,
        idleTimeoutMs: this.#config.idleTimeoutMs,
        limits: this.#config.limits,
        signal,
        upload: options.body !== undefined,
        retryFailures: options.retryNetworkErrors !== false,
        failure: (error, timedOut, tries, timeout) =>
          timedOut
            ? new StoreTimeoutError(
                `${timeoutText(timeout, this.#config)} ${method} ${redactUrl(url)} (key ${JSON.stringify(key)}); ` +
                  `gave up after ${tries} attempt(s).`,
                {
                  key,
                },
              )
            : // The cause may be a TypeError from fetch; it is kept redacted, and the message names the URL
              // without secrets.
              new StoreError(
                `Network error for ${method} ${redactUrl(url)} (key ${JSON.stringify(key)}) after ${tries} attempt(s).`,
                {
                  key,
                  cause: redactError(error, this.#config.secrets),
                },
              ),
      },
      (attempt, canRetry, retry) => this.#attempt(method, url, key, headers, options, attempt, canRetry, retry),
    );
  }

  /** One attempt: the result, RETRY for an answer worth retrying, a typed error for other failures. */
  async #attempt(
    method: string,
    url: URL,
    key: string,
    headers: Headers,
    options: SendOptions,
    attempt: Attempt,
    canRetry: boolean,
    retry: number,
  ): Promise<HttpResult | undefined | typeof RETRY | RetryAfter> {
    const init = { ...this.#config.init, method, headers, body: options.body ?? null, signal: attempt.signal };
    const policy = {
      crossOrigin: this.#config.crossOriginRedirects,
      keepAcrossOrigins: PROTOCOL_HEADERS,
      show: redactUrl,
    };
    const response = await untilAborted(fetchFollowing(this.#config.fetch, url, init, policy), attempt.signal);
    attempt.replied();
    if (options.missingIsUndefined && this.#config.missing.has(response.status)) {
      await discard(response);
      return undefined;
    }
    const again = retryFor(response.status, response.headers, canRetry, this.#config.retry);
    if (again !== undefined) {
      await discard(response);
      return again;
    }
    // A 416 answer to a Range, or a 304 to If-None-Match, is left to the caller, which knows what it asked for.
    const unsatisfied =
      (response.status === 416 && headers.has("Range")) ||
      (response.status === 304 && (headers.has("If-None-Match") || headers.has("If-Modified-Since")));
    if (!response.ok && !unsatisfied) {
      await discard(response);
      const after = retry > 0 ? ` after ${retry} ${retry === 1 ? "retry" : "retries"}` : "";
      const statusText = redactText(response.statusText, this.#config.secrets);
      const note = retryAfterNote(response.status, response.headers, this.#config.retry);
      const message =
        `HTTP ${response.status}${statusText ? ` ${statusText}` : ""} for ${method} ${redactUrl(url)} ` +
        `(key ${JSON.stringify(key)})${after}${note}.`;
      const hint =
        response.status === 401 || response.status === 403
          ? " Check the credentials or headers given to FetchStore."
          : "";
      throw statusError(response.status, message + hint, { key });
    }
    if (!options.limit || unsatisfied) {
      await discard(response);
      return {
        status: response.status,
        headers: response.headers,
        body: new Uint8Array(0),
        complete: true,
        tail: false,
        total: 0,
      };
    }
    const { bytes, why, stopAt, keepTail } = options.limit(response.status, response.headers);
    const { body, complete, tail, total } = await readBodyPart(response, {
      limit: bytes,
      attempt,
      ...(stopAt !== undefined && { stopAt }),
      ...(keepTail !== undefined && { keepTail }),
      tooLarge: (detail) =>
        new ResponseTooLargeError(
          `The reply to ${method} ${redactUrl(url)} (key ${JSON.stringify(key)}) ${detail}, more than the ${bytes} ` +
            `bytes ${why}; the connection was closed.`,
          { key },
        ),
    });
    return { status: response.status, headers: response.headers, body, complete, tail, total };
  }
}

/** The start of a StoreTimeoutError's message: which time bound ended the request. */
function timeoutText(timeout: string | undefined, config: ClientConfig): string {
  if (timeout === "deadline") return `Not done within requestTimeoutMs (${config.limits.deadlineMs} ms):`;
  if (timeout === "slow")
    return `A body slower than minBytesPerSecond (${config.limits.minBytesPerSecond} bytes/s) from`;
  return `No bytes for ${config.idleTimeoutMs} ms from`;
}
