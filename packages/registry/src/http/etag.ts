import { StoreError } from "../errors.js";

/**
 * The version of a value as an HTTP server states it: its ETag, when strong.
 *
 * A weak ETag (`W/"..."`) only promises that two representations are
 * equivalent, not byte-identical: the same weak ETag may cover a gzipped and a
 * plain body, or bytes that changed in ways the server deems unimportant. It
 * therefore cannot guarantee that a byte range read later comes from the same
 * bytes as an earlier one, and `If-Match` compares ETags strongly (RFC 9110
 * 13.1.1), so a weak one would never match. It is not reported as a version.
 */
export function strongEtag(headers: Headers): string | undefined {
  const etag = headers.get("etag")?.trim();
  return etag && !isWeak(etag) ? etag : undefined;
}

export function isWeak(etag: string): boolean {
  return /^W\//i.test(etag);
}

/** `ifMatch` when given: a version token that can go in an If-Match header, else a StoreError naming the key. */
export function checkIfMatch(key: string, ifMatch: unknown, operation: "read" | "write"): string | undefined {
  if (ifMatch === undefined) return undefined;
  const valid = typeof ifMatch === "string" && ifMatch !== "" && !/[\0\r\n]/.test(ifMatch) && (operation === "write" || ifMatch !== "*");
  if (!valid) {
    const what = operation === "read" ? "a version reported by getRangeWithSize or getVersioned" : "a version reported by getVersioned";
    throw new StoreError(`ifMatch for ${JSON.stringify(key)} must be ${what}.`, { key });
  }
  return ifMatch;
}

/** `value` with `version` added when there is one (no `version: undefined` under exactOptionalPropertyTypes). */
export function withVersion<T extends object>(value: T, version: string | undefined): T & {
  /** The value's version, when the server stated one. */
  version?: string;
} {
  return version === undefined ? value : { ...value, version };
}
