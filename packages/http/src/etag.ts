import { PreconditionFailedError, StoreError } from "@zarrkit/registry";

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
  const valid =
    typeof ifMatch === "string" &&
    ifMatch !== "" &&
    !/[\0\r\n]/.test(ifMatch) &&
    !isWeak(ifMatch) &&
    (operation === "write" || ifMatch !== "*");
  if (!valid) {
    const what =
      operation === "read"
        ? "a version reported by getRangeWithSize or getVersioned"
        : "a version reported by getVersioned";
    throw new StoreError(
      `ifMatch for ${JSON.stringify(key)} must be ${what}, not ${JSON.stringify(String(ifMatch))}.`,
      { key },
    );
  }
  return ifMatch;
}

/** An ETag without its quotes: servers differ in quoting (AWS and radosgw), so versions are compared this way. */
export function unquoteEtag(etag: string): string {
  return etag.replace(/^"(.*)"$/, "$1");
}

/**
 * The version of a reply to a request conditioned on `ifMatch`, which it must
 * equal: a server or proxy that ignores If-Match (or If-Unmodified-Since)
 * would otherwise hand out bytes of another version, at offsets planned for
 * the old one. The version is the strong ETag, else Last-Modified with `size`
 * (see `replyVersion`; `etags: false` skips ETags). `replaced(got)` words the
 * PreconditionFailedError.
 */
export function confirmVersion(
  headers: Headers,
  ifMatch: string | undefined,
  key: string,
  replaced: (got: string) => string,
  size?: number,
  etags = true,
): string | undefined {
  const version = replyVersion(headers, size, etags);
  if (ifMatch !== undefined && (version === undefined || !sameVersion(version, ifMatch))) {
    const got =
      version === undefined
        ? "no strong ETag and no strong Last-Modified"
        : isLastModifiedVersion(version)
          ? `version ${version}`
          : `ETag ${version}`;
    throw new PreconditionFailedError(replaced(got), { key });
  }
  return version;
}

/** Whether two versions are the same: ETags compared without their quotes (servers differ in quoting). */
export function sameVersion(a: string, b: string): boolean {
  return isLastModifiedVersion(a) || isLastModifiedVersion(b) ? a === b : unquoteEtag(a) === unquoteEtag(b);
}

/** `value` with `version` added when there is one (no `version: undefined` under exactOptionalPropertyTypes). */
export function withVersion<T extends object>(
  value: T,
  version: string | undefined,
): T & {
  /** The value's version, when the server stated one. */
  version?: string;
} {
  return version === undefined ? value : { ...value, version };
}

/**
 * Versions made of Last-Modified and the size start with this: no ETag does (they are quoted), so the two never mix.
 */
const LAST_MODIFIED_VERSION = "last-modified:";

/**
 * A version for a reply without a strong ETag: its `Last-Modified` with the
 * value's `size` ("last-modified:<seconds since 1970>:<size>"), when that is a
 * strong validator. Last-Modified has a resolution of one second, so a value
 * replaced twice within one second could keep it; RFC 9110 (8.8.2.2) takes it
 * as strong only when the reply's `Date` is at least one second later: the
 * value was then last changed in an earlier second than the one it was sent
 * in, and any later change moves Last-Modified. Without `Date`, or with an
 * unknown size, undefined.
 */
export function lastModifiedVersion(headers: Headers, size: number | undefined): string | undefined {
  if (size === undefined) return undefined;
  const modified = httpDate(headers.get("last-modified"));
  const date = httpDate(headers.get("date"));
  if (modified === undefined || date === undefined || date - modified < 1000) return undefined;
  return `${LAST_MODIFIED_VERSION}${modified / 1000}:${size}`;
}

/**
 * Whether `version` was made by `lastModifiedVersion` (so it goes in If-Unmodified-Since / If-Modified-Since, never in
 * If-Match).
 */
export function isLastModifiedVersion(version: string): boolean {
  return version.startsWith(LAST_MODIFIED_VERSION);
}

/** The HTTP date of a Last-Modified version, for If-Modified-Since and If-Unmodified-Since. */
export function lastModifiedOf(version: string): string | undefined {
  const seconds = Number(version.slice(LAST_MODIFIED_VERSION.length).split(":")[0]);
  return Number.isSafeInteger(seconds) ? new Date(seconds * 1000).toUTCString() : undefined;
}

/**
 * The version of a reply (see `strongEtag` and `lastModifiedVersion`): its
 * strong ETag, else Last-Modified with `size` when strong; `etags: false`
 * skips ETags (a server whose ETags change with every request).
 */
export function replyVersion(headers: Headers, size: number | undefined, etags = true): string | undefined {
  return (etags ? strongEtag(headers) : undefined) ?? lastModifiedVersion(headers, size);
}

/**
 * The conditional headers that make a server confirm `version` (a version
 * `replyVersion` reported) before answering: `If-Match` for an ETag,
 * `If-Unmodified-Since` for a Last-Modified version (whose size the reply is
 * checked against).
 */
export function ifMatchHeaders(version: string): Record<string, string> {
  if (!isLastModifiedVersion(version)) return { "If-Match": version };
  const date = lastModifiedOf(version);
  return date === undefined ? {} : { "If-Unmodified-Since": date };
}

/**
 * The conditional headers asking a server for a value only when it is no longer `version`: a 304 without a body means
 * it still is.
 */
export function ifNoneMatchHeaders(version: string): Record<string, string> {
  if (!isLastModifiedVersion(version)) return { "If-None-Match": version };
  const date = lastModifiedOf(version);
  return date === undefined ? {} : { "If-Modified-Since": date };
}

/** Milliseconds since 1970 of an HTTP date (IMF-fixdate and the obsolete forms Date.parse reads), or undefined. */
export function httpDate(value: string | null): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}
