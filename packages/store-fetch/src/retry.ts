export interface RetryOptions {
  /** Retries after the first attempt, for 5xx responses and network errors. Default 3. */
  retries?: number;
  /** Upper bound of the first backoff, doubled per retry. Default 200 ms. */
  baseDelayMs?: number;
  /** Cap on any one backoff. Default 5000 ms. */
  maxDelayMs?: number;
}

export const defaultRetry: Required<RetryOptions> = { retries: 3, baseDelayMs: 200, maxDelayMs: 5000 };

/** "Full jitter" exponential backoff: uniform in [0, min(max, base * 2^retry)), so clients that failed together spread out. */
export function backoffMs(retry: number, options: Required<RetryOptions>): number {
  return Math.random() * Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
}
