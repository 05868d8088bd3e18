import type { ErrorContext, ZarrkitError } from "@zarrkit/registry";

/** Where in which archive a problem lies, for messages. */
export interface ZipPlace {
  /** The archive as its store names it (its key, or a name given by the caller). */
  archive: string;
  /** The entry's name inside the archive, when the problem concerns one. */
  entry?: string;
}

type ErrorClass<E extends ZarrkitError> = new (message: string, context?: ErrorContext) => E;

/**
 * An error of the registry's class `Kind` whose message names the archive and
 * the entry (which is also its `key`), e.g.
 * `zip archive "image.ozx", entry "0/c/0": the local header ...`.
 */
export function zipError<E extends ZarrkitError>(
  Kind: ErrorClass<E>,
  place: ZipPlace,
  problem: string,
  cause?: unknown,
): E {
  const entry = place.entry === undefined ? "" : `, entry ${JSON.stringify(place.entry)}`;
  const context: ErrorContext = {};
  if (place.entry !== undefined) context.key = place.entry;
  if (cause !== undefined) context.cause = cause;
  return new Kind(`zip archive ${JSON.stringify(place.archive)}${entry}: ${problem}`, context);
}
