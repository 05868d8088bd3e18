import { ResponseTooLargeError, StoreError, StoreTimeoutError, redactError, redactText } from "@zarrkit/registry";
import {
  type Attempt,
  type BodyLimit,
  discard,
  fetchFollowing,
  MAX_RETRY_AFTER_MS,
  PROTOCOL_HEADERS,
  type RetryAfter,
  type RETRY,
  readBodyPart,
  retryFor,
  retrying,
  untilAborted,
} from "@zarrkit/http";
import { AwsClient } from "aws4fetch";
import { isMissingKey, responseError, type S3ResponseError, storeErrorFor } from "./errors.js";
import type { S3Config } from "./options.js";

export interface S3Request {
  method: "GET" | "HEAD" | "PUT" | "POST" | "DELETE";
  url: string;
  headers?: Record<string, string>;
  body?: Uint8Array | string;
  signal?: AbortSignal;
  /** For error messages, e.g. "GET s3://bucket/a/zarr.json". */
  what: string;
  /** The store key the request is about, for the error's `key`. */
  key?: string;
  /** Read the body of a successful reply, up to this many bytes; without it the body is dropped unread. */
  limit?: BodyLimit;
}

/** A reply that succeeded (or whose status was accepted), with its body when `limit` was given. */
export interface S3Reply {
  status: number;
  headers: Headers;
  body: Uint8Array<ArrayBuffer>;
  /** False when reading stopped at the limit's `stopAt` and the rest of the body was abandoned. */
  complete: boolean;
  /** True when only the end of the body was kept (the limit's `keepTail`); `total` is then its length. */
  tail: boolean;
  /** Bytes of body read in all. */
  total: number;
}

/** S3 error documents are a few hundred bytes; more is not read (a hostile server could send gigabytes). */
const ERROR_BODY_BYTES = 64 * 1024;
/**
 * Backoff between attempts: FetchStore's policy, starting at 50 ms rather than
 * 200 ms, as a conditional write racing another on radosgw may get a 500 that
 * the next attempt turns into the 412 its caller is waiting for.
 */
const BACKOFF = { baseDelayMs: 50, maxDelayMs: 5000, maxRetryAfterMs: MAX_RETRY_AFTER_MS };

/**
 * Sends signed (or, without credentials, unsigned) requests, retrying 5xx,
 * 429, network failures and idle timeouts with exponential backoff. Retrying a
 * 5xx is also what makes conditional writes exact on radosgw, which answers
 * some of the losers of a race with 500 instead of 412 (their write did not
 * land; the retry gets the 412). Each attempt runs under the idle timeout
 * (from the start for requests without a body, from the reply for uploads,
 * whose progress fetch does not report) and reads bodies under their caps.
 */
export class S3Client {
  readonly #config: S3Config;
  readonly #signer: AwsClient | undefined;

  constructor(config: S3Config) {
    this.#config = config;
    const { credentials, region } = config;
    this.#signer = credentials && new AwsClient({ ...credentials, service: "s3", region, retries: 0 });
  }

  /** URL of an object; `objectKey` is the full key in the bucket. */
  objectUrl(objectKey: string, query: Record<string, string> = {}): string {
    return withQuery(this.#config.baseUrl + encodeKey(objectKey), query);
  }

  /** `text` (from the server) without the configured secrets or anything credential-like. */
  redact(text: string): string {
    return redactText(text, this.#config.secrets);
  }

  bucketUrl(query: Record<string, string>): string {
    return withQuery(this.#config.baseUrl, query);
  }

  /**
   * Send `request`: the reply when it succeeded or its status is in
   * `accept`, undefined when the key does not exist, the typed error otherwise.
   */
  async request(request: S3Request, accept: readonly number[] = []): Promise<S3Reply | undefined> {
    const reply = await this.send(request, accept);
    if (!("body" in reply)) {
      if (isMissingKey(reply)) return undefined;
      throw storeErrorFor(request.what, request.key, reply);
    }
    return reply;
  }

  /** Send `request`, retrying what is worth retrying: the reply, or what S3 answered to the last attempt. */
  async send(request: S3Request, accept: readonly number[] = []): Promise<S3Reply | S3ResponseError> {
    const { retries, idleTimeoutMs, secrets, requestTimeoutMs, minBytesPerSecond } = this.#config;
    const { signal, what, key } = request;
    const context = key === undefined ? {} : { key };
    return retrying(
      {
        retry: { retries, ...BACKOFF },
        idleTimeoutMs,
        limits: { deadlineMs: requestTimeoutMs, minBytesPerSecond },
        signal,
        upload: request.body !== undefined,
        failure: (error, timedOut, tries, timeout) => {
          if (timedOut) {
            const why =
              timeout === "deadline"
                ? `not done within requestTimeoutMs (${requestTimeoutMs} ms)`
                : timeout === "slow"
                  ? `a body slower than minBytesPerSecond (${minBytesPerSecond} bytes/s)`
                  : `no bytes for ${idleTimeoutMs} ms`;
            return new StoreTimeoutError(`S3 ${what} failed: ${why}; gave up after ${tries} attempt(s).`, context);
          }
          const reason = redactText(error instanceof Error ? error.message : String(error), secrets);
          return new StoreError(`S3 ${what} failed: ${reason}.`, { cause: redactError(error, secrets), ...context });
        },
      },
      (timer, canRetry) => this.#attempt(request, accept, timer, canRetry),
    );
  }

  async #attempt(
    request: S3Request,
    accept: readonly number[],
    timer: Attempt,
    canRetry: boolean,
  ): Promise<S3Reply | S3ResponseError | typeof RETRY | RetryAfter> {
    const { url, init } = await this.#prepare(request, timer.signal);
    const policy = {
      crossOrigin: this.#config.crossOriginRedirects,
      keepAcrossOrigins: PROTOCOL_HEADERS,
      show: (shown: URL) => this.redact(shown.href),
    };
    // One Request per hop, as the store's fetch has always been called.
    const send = (target: URL, hop: RequestInit) => this.#config.fetch(new Request(target, hop));
    const response = await untilAborted(fetchFollowing(send, url, init, policy), timer.signal);
    timer.replied();
    const { status, headers } = response;
    const again = retryFor(status, headers, canRetry, { maxRetryAfterMs: this.#config.maxRetryAfterMs });
    if (again !== undefined) {
      await discard(response);
      return again;
    }
    if (response.ok || accept.includes(status)) {
      if (!request.limit || !response.ok) {
        await discard(response);
        return { status, headers, body: new Uint8Array(0), complete: true, tail: false, total: 0 };
      }
      const { bytes, why, stopAt, keepTail } = request.limit(status, headers);
      const { body, complete, tail, total } = await readBodyPart(response, {
        limit: bytes,
        attempt: timer,
        ...(stopAt !== undefined && { stopAt }),
        ...(keepTail !== undefined && { keepTail }),
        tooLarge: (detail) =>
          new ResponseTooLargeError(
            `S3 ${request.what} failed: the reply ${detail}, more than the ${bytes} bytes ${why}; the connection ` +
              `was closed.`,
            request.key === undefined ? {} : { key: request.key },
          ),
      });
      return { status, headers, body, complete, tail, total };
    }
    const text = request.method === "HEAD" ? "" : await readPrefix(response, ERROR_BODY_BYTES, timer);
    return responseError(status, headers, text, this.#config.secrets);
  }

  /**
   * The URL and init of the request, signed when there are credentials: every header the signature adds stays with S3's
   * origin on a redirect.
   */
  async #prepare(
    { method, url, headers, body }: S3Request,
    signal: AbortSignal,
  ): Promise<{ url: URL; init: RequestInit & { headers: Headers } }> {
    // Store values are ArrayBuffer-backed; TypeScript's Uint8Array type also admits SharedArrayBuffer.
    const payload = body as Uint8Array<ArrayBuffer> | string | undefined;
    const init: RequestInit = {
      method,
      signal,
      ...(headers && { headers }),
      ...(payload !== undefined && { body: payload }),
    };
    if (!this.#signer) return { url: new URL(url), init: { ...init, headers: new Headers(headers) } };
    const signed = await this.#signer.sign(url, init);
    return {
      url: new URL(signed.url),
      init: { method, signal, headers: new Headers(signed.headers), ...(payload !== undefined && { body: payload }) },
    };
  }
}

/** The first `max` bytes of the body as text; the rest is not read (the connection is closed instead). */
async function readPrefix(response: Response, max: number, timer: Attempt): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < max) {
      const { done, value } = await untilAborted(reader.read(), timer.signal);
      if (done) break;
      timer.received(value.byteLength);
      chunks.push(value.subarray(0, max - length));
      length += Math.min(value.byteLength, max - length);
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** A reply body as text (S3's XML documents). */
export function decodeText(body: Uint8Array): string {
  return new TextDecoder().decode(body);
}

/**
 * Percent-encode each path segment the way SigV4 canonicalises S3 paths
 * (RFC 3986: also `!'()*`), so the signed path is the path sent and keys with
 * spaces, "+", "%" or Unicode reach S3 unchanged.
 */
export function encodeKey(key: string): string {
  return key.split("/").map(encodeRfc3986).join("/");
}

// Not URLSearchParams: it writes spaces as "+", which the signature would not cover.
function withQuery(url: string, query: Record<string, string>): string {
  const search = Object.entries(query)
    .map(([name, value]) => `${encodeRfc3986(name)}=${encodeRfc3986(value)}`)
    .join("&");
  return search ? `${url}?${search}` : url;
}

function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
