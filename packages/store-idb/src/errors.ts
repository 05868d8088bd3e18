import { PreconditionFailedError, QuotaExceededError, StoreError, ZarrkitError } from "@zarrkit/registry";

/**
 * The typed error for a failed IndexedDB operation. A quota failure aborts
 * the transaction, so nothing it wrote is kept: the previous values stand.
 */
export function idbError(what: string, key: string | undefined, error: unknown): ZarrkitError {
  if (error instanceof ZarrkitError) return error;
  const context = { cause: error, ...(key === undefined ? {} : { key }) };
  // DOMExceptions (what IndexedDB reports) are told apart by name.
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  const detail = typeof name === "string" ? (message ? `${name}: ${String(message)}` : name) : String(error);
  if (name === "QuotaExceededError") {
    return new QuotaExceededError(
      `IndexedDB ${what} failed: the storage quota is exceeded; previous values are intact (${detail}).`,
      context,
    );
  }
  // Only add() (a write with ifNoneMatch: "*") raises it: the key exists.
  if (name === "ConstraintError")
    return new PreconditionFailedError(`IndexedDB ${what} failed: the key exists.`, context);
  return new StoreError(`IndexedDB ${what} failed: ${detail}.`, context);
}
