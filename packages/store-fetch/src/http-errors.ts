import { AuthError, PreconditionFailedError, StoreError } from "@zarrkit/registry";
import { redactUrl } from "./redact.js";

/**
 * No bytes arrived for `idleTimeoutMs` (while waiting for the headers or
 * within the body): the request was cancelled. `code` is "STORE_TIMEOUT";
 * `S3Store` throws an error with the same code.
 */
export class StoreTimeoutError extends StoreError {
  override readonly code = "STORE_TIMEOUT";
}

/**
 * A reply was larger than what was asked for (a range's length) or than
 * `maxBodyBytes`: the store stopped reading it and cancelled the connection.
 * `code` is "RESPONSE_TOO_LARGE"; `S3Store` throws an error with the same code.
 */
export class ResponseTooLargeError extends StoreError {
  override readonly code = "RESPONSE_TOO_LARGE";
}

/** The typed error for an HTTP status that is neither success nor "missing". */
export function statusError(status: number, statusText: string, method: string, url: URL, key: string, retries: number): StoreError {
  const after = retries > 0 ? ` after ${retries} ${retries === 1 ? "retry" : "retries"}` : "";
  const message = `HTTP ${status}${statusText ? ` ${statusText}` : ""} for ${method} ${redactUrl(url)} (key ${JSON.stringify(key)})${after}.`;
  if (status === 401 || status === 403) return new AuthError(`${message} Check the credentials or headers given to FetchStore.`, { key });
  if (status === 412) return new PreconditionFailedError(message, { key });
  return new StoreError(message, { key });
}
