// One retry policy for stores over HTTP: which answers are worth another
// attempt, how long to wait before it, and which typed error a final status is.
import { AuthError, PreconditionFailedError, StoreError, ZarrkitError } from "../errors.js";
import { Attempt } from "./transfer.js";

/** How a store retries a request. */
export interface RetryOptions {
  /** Retries after the first attempt, for 5xx and 429 answers, network errors and idle timeouts. */
  retries?: number;
  /** Upper bound of the first backoff, doubled per retry. */
  baseDelayMs?: number;
  /** Cap on any one backoff. */
  maxDelayMs?: number;
}

/** A status a later attempt may well not get: the server failed (5xx) or asked the client to slow down (429). */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 429;
}

/** "Full jitter" exponential backoff: uniform in [0, min(max, base * 2^retry)), so clients that failed together spread out. */
export function backoffMs(retry: number, options: Required<RetryOptions>): number {
  return Math.random() * Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
}

/**
 * The typed error for a final HTTP status: `AuthError` for 401 and 403,
 * `PreconditionFailedError` for 412 (and S3's 409 ConditionalRequestConflict,
 * its answer to a conditional write racing another), else `StoreError`.
 */
export function statusError(status: number, message: string, context: { key?: string; cause?: unknown }, s3Code?: string): StoreError {
  if (status === 401 || status === 403) return new AuthError(message, context);
  if (status === 412 || (status === 409 && s3Code === "ConditionalRequestConflict")) return new PreconditionFailedError(message, context);
  return new StoreError(message, context);
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
  retry: Required<RetryOptions>;
  /** An attempt with no bytes for this long is abandoned (0: never). */
  idleTimeoutMs: number;
  /** Aborts the attempt in flight and the loop, with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** The request has a body: its idle timer starts at the reply, as fetch does not report upload progress. */
  upload: boolean;
  /** Whether a network error or idle timeout is retried (a retried conditional write could fail spuriously). Default true. */
  retryFailures?: boolean;
  /** The typed error for an attempt that failed without an answer (network error, idle timeout), after `tries` attempts. */
  failure(error: unknown, timedOut: boolean, tries: number): Error;
}

/**
 * Run `attempt` until it returns something other than RETRY, at most
 * 1 + `retries` times, each under its own idle timer, with backoff between
 * them. Typed errors and aborts end it at once; other errors (the network)
 * are retried while attempts are left and then become `failure(...)`.
 */
export async function retrying<T>(loop: RetryLoop, attempt: (timer: Attempt, canRetry: boolean, retry: number) => Promise<T | typeof RETRY>): Promise<T> {
  const { signal } = loop;
  for (let retry = 0; ; retry++) {
    signal?.throwIfAborted();
    const canRetry = retry < loop.retry.retries;
    const timer = new Attempt(loop.idleTimeoutMs, signal, loop.upload);
    try {
      const outcome = await attempt(timer, canRetry, retry);
      if (outcome !== RETRY) return outcome as T;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof ZarrkitError) throw error;
      if (!canRetry || loop.retryFailures === false) throw loop.failure(error, timer.timedOut, retry + 1);
    } finally {
      timer.end();
    }
    await abortableSleep(backoffMs(retry, loop.retry), signal);
  }
}
