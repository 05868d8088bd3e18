// One retry policy for stores over HTTP: which answers are worth another
// attempt, how long to wait before it, and which typed error a final status is.
import { AuthError, PreconditionFailedError, StoreError, ZarrkitError } from "@zarrkit/registry";
import { httpDate } from "./etag.js";
import { Attempt, type AttemptLimits, type TimeoutKind } from "./transfer.js";

/** How a store retries a request. */
export interface RetryOptions {
  /** Retries after the first attempt, for 5xx and 429 answers, network errors and idle timeouts. */
  retries?: number;
  /** Upper bound of the first backoff, doubled per retry. */
  baseDelayMs?: number;
  /** Cap on any one backoff. */
  maxDelayMs?: number;
  /**
   * The longest `Retry-After` of a 429 or 503 answer that is waited for before
   * the next attempt; a server asking for a longer wait gets no retry (its
   * status error comes at once, naming the wait). Default 30 000.
   */
  maxRetryAfterMs?: number;
}

/** Default `maxRetryAfterMs`: a server's "come back in a few seconds" is honoured; "in an hour" is not waited for. */
export const MAX_RETRY_AFTER_MS = 30_000;

/** A status a later attempt may well not get: the server failed (5xx) or asked the client to slow down (429). */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 429;
}

/**
 * "Full jitter" exponential backoff: uniform in [0, min(max, base * 2^retry)), so clients that failed together spread
 * out.
 */
export function backoffMs(retry: number, options: Pick<Required<RetryOptions>, "baseDelayMs" | "maxDelayMs">): number {
  return Math.random() * Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
}

/**
 * The typed error for a final HTTP status: `AuthError` for 401 and 403,
 * `PreconditionFailedError` for 412 (and S3's 409 ConditionalRequestConflict,
 * its answer to a conditional write racing another), else `StoreError`.
 */
export function statusError(
  status: number,
  message: string,
  context: { key?: string; cause?: unknown },
  s3Code?: string,
): StoreError {
  if (status === 401 || status === 403) return new AuthError(message, context);
  if (status === 412 || (status === 409 && s3Code === "ConditionalRequestConflict"))
    return new PreconditionFailedError(message, context);
  return new StoreError(message, context);
}

/**
 * The wait a 429 or 503 answer asks for with `Retry-After` (delta-seconds, or
 * an HTTP date measured against the answer's own `Date` so clock skew does not
 * count), in milliseconds; undefined without one or for another status.
 */
export function retryAfterMs(status: number, headers: Headers, now = Date.now()): number | undefined {
  if (status !== 429 && status !== 503) return undefined;
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d{1,10}$/.test(value)) return Number(value) * 1000;
  const at = httpDate(value);
  if (at === undefined) return undefined;
  return Math.max(0, at - (httpDate(headers.get("date")) ?? now));
}

/**
 * What an attempt returns for an answer worth another attempt, not before `ms` milliseconds (the server's Retry-After).
 */
export class RetryAfter {
  constructor(
    /** How long to wait before the next attempt. */
    readonly ms: number,
  ) {}
}

/**
 * Whether an answer with `status` gets another attempt: RETRY, a RetryAfter
 * when the server said how long to wait (429 and 503), or undefined when its
 * status is final: not retryable, no attempt left, or a Retry-After longer than
 * `maxRetryAfterMs` (the store then reports the status at once).
 */
export function retryFor(
  status: number,
  headers: Headers,
  canRetry: boolean,
  options: RetryOptions,
): typeof RETRY | RetryAfter | undefined {
  if (!canRetry || !isRetryableStatus(status)) return undefined;
  const after = retryAfterMs(status, headers);
  if (after === undefined) return RETRY;
  return after <= (options.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS) ? new RetryAfter(after) : undefined;
}

/**
 * For the message of a final 429 or 503: " (Retry-After asked for N s, more than maxRetryAfterMs)" when that is why it
 * was not retried.
 */
export function retryAfterNote(status: number, headers: Headers, options: RetryOptions): string {
  const after = retryAfterMs(status, headers);
  const max = options.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS;
  return after !== undefined && after > max
    ? ` (it asked to retry after ${Math.ceil(after / 1000)} s with Retry-After, more than maxRetryAfterMs ${max})`
    : "";
}

/** Wait `ms` (a backoff before a retry), rejecting with the signal's reason as soon as it aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** What an attempt of `retrying` returns for an answer worth another attempt. */
export const RETRY: unique symbol = Symbol("retry");

/** How `retrying` runs its attempts: how many, how far apart, under which idle timeout, and the error of the last. */
export interface RetryLoop {
  /** Attempts after the first, and the backoff between them. */
  retry: Required<Omit<RetryOptions, "maxRetryAfterMs">> & RetryOptions;
  /** An attempt with no bytes for this long is abandoned (0: never). */
  idleTimeoutMs: number;
  /**
   * Each attempt's deadline and its body's minimum rate; an attempt ended by either is not retried (it already took its
   * time).
   */
  limits?: AttemptLimits;
  /** Aborts the attempt in flight and the loop, with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** The request has a body: its idle timer starts at the reply, as fetch does not report upload progress. */
  upload: boolean;
  /**
   * Whether a network error or idle timeout is retried (a retried conditional write could fail spuriously). Default
   * true.
   */
  retryFailures?: boolean;
  /**
   * The typed error for an attempt that failed without an answer (network error, a time bound: `timeout` says which),
   * after `tries` attempts.
   */
  failure(error: unknown, timedOut: boolean, tries: number, timeout: TimeoutKind | undefined): Error;
}

/**
 * Run `attempt` until it returns something other than RETRY or a RetryAfter,
 * at most 1 + `retries` times, each under its own time bounds, with backoff
 * between them (at least the RetryAfter's wait). Typed errors and aborts end
 * it at once; other errors (the network, the idle timeout) are retried while
 * attempts are left and then become `failure(...)`; an attempt past its
 * deadline or too slow is not retried.
 */
export async function retrying<T>(
  loop: RetryLoop,
  attempt: (timer: Attempt, canRetry: boolean, retry: number) => Promise<T | typeof RETRY | RetryAfter>,
): Promise<T> {
  const { signal } = loop;
  for (let retry = 0; ; retry++) {
    signal?.throwIfAborted();
    const canRetry = retry < loop.retry.retries;
    const timer = new Attempt(loop.idleTimeoutMs, signal, loop.upload, loop.limits);
    let wait = 0;
    try {
      const outcome = await attempt(timer, canRetry, retry);
      if (outcome instanceof RetryAfter) wait = outcome.ms;
      else if (outcome !== RETRY) return outcome as T;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof ZarrkitError) throw error;
      const final =
        !canRetry || loop.retryFailures === false || timer.timeout === "deadline" || timer.timeout === "slow";
      if (final) throw loop.failure(error, timer.timedOut, retry + 1, timer.timeout);
    } finally {
      timer.end();
    }
    await abortableSleep(Math.max(wait, backoffMs(retry, loop.retry)), signal);
  }
}
