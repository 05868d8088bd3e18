import { AuthError, PreconditionFailedError, StoreError } from "@zarrkit/registry";
import { redactUrl } from "@zarrkit/registry/http";

/** The typed error for an HTTP status that is neither success nor "missing". */
export function statusError(status: number, statusText: string, method: string, url: URL, key: string, retries: number): StoreError {
  const after = retries > 0 ? ` after ${retries} ${retries === 1 ? "retry" : "retries"}` : "";
  const message = `HTTP ${status}${statusText ? ` ${statusText}` : ""} for ${method} ${redactUrl(url)} (key ${JSON.stringify(key)})${after}.`;
  if (status === 401 || status === 403) return new AuthError(`${message} Check the credentials or headers given to FetchStore.`, { key });
  if (status === 412) return new PreconditionFailedError(message, { key });
  return new StoreError(message, { key });
}
