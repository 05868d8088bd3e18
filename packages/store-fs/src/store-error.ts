import { StoreError, ZarrkitError } from "@zarrkit/registry";
import { errorCode } from "./file-io.js";

/**
 * Wrap filesystem errors in a StoreError naming the key; zarrkit errors and
 * aborts (an AbortSignal's reason) pass through.
 */
export function storeError(action: string, key: string, error: unknown): Error {
  const aborted = error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
  if (error instanceof ZarrkitError || aborted) return error;
  const code = errorCode(error);
  const reason =
    code === "ENOTDIR" || code === "EEXIST"
      ? "a parent of the key is a value, not a directory"
      : code === "EISDIR"
        ? "the key is a directory"
        : String(error);
  return new StoreError(`Could not ${action} ${JSON.stringify(key)}: ${reason}.`, { key, cause: error });
}
