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
