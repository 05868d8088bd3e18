// Following redirects without leaking what the caller gave for one server to
// another: fetch's own following keeps every header but Authorization across
// origins (an `X-Api-Key`, a session token, a cookie header travel on), and
// follows https -> http. Stores therefore ask fetch not to follow
// (`redirect: "manual"`) and follow here, under one policy.
import { StoreError } from "@zarrkit/registry";
import { discard } from "./transfer.js";

/** What a store does with a redirect to another origin (scheme, host and port). */
export type CrossOriginRedirects = "strip-headers" | "refuse";

/** How redirects are followed. */
export interface RedirectPolicy {
  /**
   * "strip-headers" (the default): follow, without every header but those the
   * protocol needs (`keepAcrossOrigins`): the caller's headers, credentials
   * and signatures stay with the origin they were given for. "refuse": a
   * redirect to another origin is a StoreError.
   */
  crossOrigin: CrossOriginRedirects;
  /** Headers that may go to another origin (lower case): the request's own Range and conditions, never credentials. */
  keepAcrossOrigins: ReadonlySet<string>;
  /** Redirects followed at most (fetch's limit is 20). */
  maxRedirects?: number;
  /** The request's URL as errors may show it (credentials redacted). */
  show(url: URL): string;
}

/** Headers a ranged or conditional read (or a write) needs wherever it is sent, and that carry no secret. */
export const PROTOCOL_HEADERS: ReadonlySet<string> = new Set([
  "range",
  "if-match",
  "if-none-match",
  "if-modified-since",
  "if-unmodified-since",
  "content-type",
  "accept",
  "accept-encoding",
]);

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;

/**
 * `fetch(url, init)`, following redirects here: a redirect from https to
 * http is always refused (a StoreError); one to another origin goes without
 * every header not in `keepAcrossOrigins` (once stripped, for the rest of
 * the chain), or is refused, as `policy.crossOrigin` says. Writes (PUT,
 * DELETE, POST) follow only 307 and 308, which keep the method and body.
 * With `init.redirect === "error"` fetch refuses every redirect itself. In a
 * browser, where a redirect is opaque (its Location hidden), a request that
 * carries headers beyond the protocol's is refused rather than sent on blind;
 * one that carries none is sent again for the browser to follow. `fetchFn`
 * sends one request (a store's fetch, called as the store's users expect).
 */
export async function fetchFollowing(
  fetchFn: (url: URL, init: RequestInit) => Promise<Response>,
  url: URL,
  init: RequestInit & { headers: Headers },
  policy: RedirectPolicy,
): Promise<Response> {
  if (init.redirect === "error") return fetchFn(url, init);
  const origin = url.origin;
  let current = url;
  let method = (init.method ?? "GET").toUpperCase();
  let body = init.body;
  let headers = init.headers;
  let stripped = false;
  const max = policy.maxRedirects ?? MAX_REDIRECTS;
  for (let hops = 0; ; hops++) {
    const response = await fetchFn(current, { ...init, method, headers, body: body ?? null, redirect: "manual" });
    if (response.type === "opaqueredirect") {
      await discard(response);
      let secret = false;
      headers.forEach((_, name) => {
        if (!policy.keepAcrossOrigins.has(name.toLowerCase())) secret = true;
      });
      if (secret) {
        throw new StoreError(
          `${method} ${policy.show(current)} was redirected, and this fetch hides where to: the request carries ` +
            `headers (credentials) that must not follow a redirect blindly, so it is refused. Use the URL it ` +
            `redirects to.`,
        );
      }
      return fetchFn(current, { ...init, method, headers, body: body ?? null, redirect: "follow" });
    }
    const location = response.headers.get("location");
    if (!REDIRECT_STATUSES.has(response.status) || location === null) return response;
    await discard(response);
    const from = `${method} ${policy.show(current)}`;
    if (hops >= max) throw new StoreError(`${from}: more than ${max} redirects.`);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new StoreError(`${from} was redirected (${response.status}) to a Location that is not a URL.`);
    }
    if (next.protocol !== "http:" && next.protocol !== "https:")
      throw new StoreError(`${from} was redirected to a ${next.protocol} URL; only http(s) is followed.`);
    if (current.protocol === "https:" && next.protocol === "http:") {
      throw new StoreError(
        `${from} was redirected (${response.status}) from https to http (${policy.show(next)}): refused, it would ` +
          `send the request in clear.`,
      );
    }
    if (method !== "GET" && method !== "HEAD") {
      if (response.status !== 307 && response.status !== 308) {
        throw new StoreError(
          `${from} was redirected with ${response.status}, which would turn the ${method} into a GET: only 307 and ` +
            `308 are followed for writes.`,
        );
      }
    }
    if (next.origin !== origin && !stripped) {
      if (policy.crossOrigin === "refuse") {
        throw new StoreError(
          `${from} was redirected (${response.status}) to another origin (${policy.show(next)}): refused (the ` +
            `store's crossOriginRedirects option is "refuse").`,
        );
      }
      const kept = new Headers();
      headers.forEach((value, name) => {
        if (policy.keepAcrossOrigins.has(name.toLowerCase())) kept.set(name, value);
      });
      headers = kept;
      stripped = true;
    }
    if (response.status === 303 && method !== "HEAD") {
      method = "GET";
      body = null;
    }
    current = next;
  }
}
