// One retry policy for stores over HTTP: which answers are worth another
// attempt, how long to wait before it, and which typed error a final status is.
import { AuthError, PreconditionFailedError, StoreError } from "../errors.js";

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
