// Errors in words a person understands: what failed, which key, and why.
import { ChecksumError, CorruptDataError, NotFoundError, StoreError, ZarrkitError } from "zarrkit";

/** A one-line message naming the key (when known) and the cause. */
export function explainError(error: unknown, fallbackKey?: string): string {
  if (!(error instanceof Error)) return `Unexpected failure: ${String(error)}`;
  // The app's own errors about a source text are already in plain words.
  if (error.name === "SourceError") return error.message;
  const key = error instanceof ZarrkitError && error.key ? error.key : fallbackKey;
  const where = key ? ` (key ${key})` : "";
  if (error instanceof ChecksumError)
    return `Checksum mismatch${where}: the stored bytes are damaged. ${error.message}`;
  if (error instanceof CorruptDataError) return `Corrupt data${where}: ${error.message}`;
  if (error instanceof NotFoundError) return `Not found${where}: ${error.message}`;
  if (error instanceof StoreError) {
    // fetch rejects with a TypeError when the network fails or CORS refuses the answer.
    if (error.cause instanceof TypeError) {
      return `The server did not answer, or the browser refused its answer (CORS)${where}: ${error.message}`;
    }
    return `The store refused${where}: ${error.message}`;
  }
  return `${error.name}${where}: ${error.message}`;
}
