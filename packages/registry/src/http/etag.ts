import { PreconditionFailedError, StoreError } from "../errors.js";

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
  // A weak ETag is never a version (see strongEtag): If-Match with it could never succeed.
  const valid = typeof ifMatch === "string" && ifMatch !== "" && !/[\0\r\n]/.test(ifMatch) && !isWeak(ifMatch) && (operation === "write" || ifMatch !== "*");
  if (!valid) {
    const what = operation === "read" ? "a version reported by getRangeWithSize or getVersioned" : "a version reported by getVersioned";
    throw new StoreError(`ifMatch for ${JSON.stringify(key)} must be ${what}, not ${JSON.stringify(String(ifMatch))}.`, { key });
  }
  return ifMatch;
}

/** An ETag without its quotes: servers differ in quoting (AWS and radosgw), so versions are compared this way. */
export function unquoteEtag(etag: string): string {
  return etag.replace(/^"(.*)"$/, "$1");
}

/**
 * The version (strong ETag) of a reply to a request that carried
 * `If-Match: ifMatch`, which it must equal: a server or proxy that ignores
 * If-Match would otherwise hand out bytes of another version, at offsets
 * planned for the old one. `replaced(got)` words the PreconditionFailedError.
 */
export function confirmVersion(headers: Headers, ifMatch: string | undefined, key: string, replaced: (got: string) => string): string | undefined {
  const version = strongEtag(headers);
  if (ifMatch !== undefined && (version === undefined || unquoteEtag(version) !== unquoteEtag(ifMatch))) {
    throw new PreconditionFailedError(replaced(version === undefined ? "no strong ETag" : `ETag ${version}`), { key });
  }
  return version;
}

/** `value` with `version` added when there is one (no `version: undefined` under exactOptionalPropertyTypes). */
export function withVersion<T extends object>(value: T, version: string | undefined): T & {
  /** The value's version, when the server stated one. */
  version?: string;
} {
  return version === undefined ? value : { ...value, version };
}
