import { afterEach, describe, expect, it, vi } from "vitest";
import { StoreError } from "@zarrkit/registry";
import {
  Attempt,
  confirmVersion,
  fetchFollowing,
  ifMatchHeaders,
  ifNoneMatchHeaders,
  lastModifiedVersion,
  PROTOCOL_HEADERS,
  RETRY,
  RetryAfter,
  readBodyPart,
  replyVersion,
  retryAfterMs,
  retryFor,
  retrying,
  wholeValueProblem,
} from "../src/index.js";

afterEach(() => vi.useRealTimers());

const headers = (init: Record<string, string>) => new Headers(init);

describe("whole values", () => {
  it("accept a 200, and a 206 only when it covers the whole value", () => {
    expect(wholeValueProblem(200, headers({}), 10)).toBeUndefined();
    expect(wholeValueProblem(206, headers({ "Content-Range": "bytes 0-9/10" }), 10)).toBeUndefined();
  });

  it("refuse a 206 with part of the value, or bytes that do not add up to the announced size", () => {
    expect(wholeValueProblem(206, headers({ "Content-Range": "bytes 0-4/10" }), 5)).toMatch(
      /partial answer \(206, Content-Range "bytes 0-4\/10", 5 bytes\) to a request for the whole value of 10 bytes/,
    );
    expect(wholeValueProblem(206, headers({ "Content-Range": "bytes 0-9/10" }), 5)).toMatch(/partial answer/);
    expect(wholeValueProblem(206, headers({}), 5)).toMatch(/no Content-Range/);
    expect(wholeValueProblem(206, headers({ "Content-Range": "bytes 0-4/*" }), 5)).toMatch(/partial answer/);
    expect(wholeValueProblem(200, headers({ "Content-Range": "bytes 0-4/10" }), 5)).toMatch(
      /5 bytes where Content-Range "bytes 0-4\/10" announces 10/,
    );
  });
});

describe("versions from Last-Modified", () => {
  const modified = "Tue, 15 Nov 1994 12:45:26 GMT";
  it("are Last-Modified with the size when Date is at least a second later, and none otherwise", () => {
    const strong = headers({ "Last-Modified": modified, Date: "Tue, 15 Nov 1994 12:45:27 GMT" });
    expect(lastModifiedVersion(strong, 10)).toBe("last-modified:784903526:10");
    expect(lastModifiedVersion(strong, undefined)).toBeUndefined();
    expect(lastModifiedVersion(headers({ "Last-Modified": modified, Date: modified }), 10)).toBeUndefined();
    expect(lastModifiedVersion(headers({ "Last-Modified": modified }), 10)).toBeUndefined();
    expect(lastModifiedVersion(headers({ "Last-Modified": "yesterday", Date: modified }), 10)).toBeUndefined();
    // A strong ETag wins; a weak one is passed over for Last-Modified.
    expect(
      replyVersion(headers({ ETag: '"e"', "Last-Modified": modified, Date: "Wed, 16 Nov 1994 00:00:00 GMT" }), 10),
    ).toBe('"e"');
    expect(
      replyVersion(headers({ ETag: 'W/"e"', "Last-Modified": modified, Date: "Wed, 16 Nov 1994 00:00:00 GMT" }), 10),
    ).toBe("last-modified:784903526:10");
    expect(
      replyVersion(
        headers({ ETag: '"e"', "Last-Modified": modified, Date: "Wed, 16 Nov 1994 00:00:00 GMT" }),
        10,
        false,
      ),
    ).toBe("last-modified:784903526:10");
  });

  it("go in If-Unmodified-Since and If-Modified-Since, ETags in If-Match and If-None-Match", () => {
    expect(ifMatchHeaders("last-modified:784903526:10")).toEqual({ "If-Unmodified-Since": modified });
    expect(ifNoneMatchHeaders("last-modified:784903526:10")).toEqual({ "If-Modified-Since": modified });
    expect(ifMatchHeaders('"e"')).toEqual({ "If-Match": '"e"' });
    expect(ifNoneMatchHeaders('"e"')).toEqual({ "If-None-Match": '"e"' });
  });

  it("are confirmed against the reply's Last-Modified and size", () => {
    const reply = headers({ "Last-Modified": modified, Date: "Wed, 16 Nov 1994 00:00:00 GMT" });
    expect(confirmVersion(reply, "last-modified:784903526:10", "k", (got) => got, 10)).toBe(
      "last-modified:784903526:10",
    );
    expect(() => confirmVersion(reply, "last-modified:784903526:10", "k", (got) => `got ${got}`, 11)).toThrow(
      /got version last-modified:784903526:11/,
    );
  });
});

describe("Retry-After", () => {
  it("is read in seconds or as an HTTP date against the reply's Date, for 429 and 503 only", () => {
    expect(retryAfterMs(429, headers({ "Retry-After": "3" }))).toBe(3000);
    expect(
      retryAfterMs(
        503,
        headers({ "Retry-After": "Tue, 15 Nov 1994 12:45:30 GMT", Date: "Tue, 15 Nov 1994 12:45:26 GMT" }),
      ),
    ).toBe(4000);
    expect(
      retryAfterMs(
        503,
        headers({ "Retry-After": "Tue, 15 Nov 1994 12:45:20 GMT", Date: "Tue, 15 Nov 1994 12:45:26 GMT" }),
      ),
    ).toBe(0);
    expect(retryAfterMs(500, headers({ "Retry-After": "3" }))).toBeUndefined();
    expect(retryAfterMs(503, headers({ "Retry-After": "soon" }))).toBeUndefined();
    expect(retryAfterMs(503, headers({}))).toBeUndefined();
  });

  it("is waited for up to maxRetryAfterMs; a longer one is not retried at all", () => {
    const options = { maxRetryAfterMs: 10_000 };
    expect(retryFor(503, headers({ "Retry-After": "2" }), true, options)).toEqual(new RetryAfter(2000));
    expect(retryFor(503, headers({ "Retry-After": "60" }), true, options)).toBeUndefined();
    expect(retryFor(503, headers({}), true, options)).toBe(RETRY);
    expect(retryFor(503, headers({ "Retry-After": "2" }), false, options)).toBeUndefined();
    expect(retryFor(404, headers({}), true, options)).toBeUndefined();
  });

  it("delays the next attempt by at least the wait asked for", async () => {
    vi.useFakeTimers();
    const times: number[] = [];
    const loop = {
      retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 1 },
      idleTimeoutMs: 0,
      upload: false,
      failure: () => new Error("x"),
    };
    const done = retrying(loop, async () => {
      times.push(Date.now());
      return times.length === 1 ? new RetryAfter(3000) : "ok";
    });
    await vi.advanceTimersByTimeAsync(5000);
    expect(await done).toBe("ok");
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(3000);
  });
});

describe("time bounds of an attempt", () => {
  it("ends an attempt at its deadline however steadily bytes come, and does not retry it", async () => {
    vi.useFakeTimers();
    let attempts = 0;
    const loop = {
      retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 1 },
      idleTimeoutMs: 1000,
      upload: false,
      limits: { deadlineMs: 5000 },
    };
    const done = retrying(
      { ...loop, failure: (_e, timedOut, tries, kind) => new Error(`${timedOut} ${kind} ${tries}`) },
      async (attempt) => {
        attempts++;
        const ticker = setInterval(() => attempt.received(1), 500);
        try {
          await new Promise((_, reject) =>
            attempt.signal.addEventListener("abort", () => reject(attempt.signal.reason)),
          );
        } finally {
          clearInterval(ticker);
        }
        return "never";
      },
    );
    const settled = done.catch((e: Error) => e.message);
    await vi.advanceTimersByTimeAsync(5000);
    expect(await settled).toBe("true deadline 1");
    expect(attempts).toBe(1);
  });

  it("ends a body slower than the minimum rate (a byte every 2 s), which the idle timeout never sees", async () => {
    vi.useFakeTimers();
    const attempt = new Attempt(30_000, undefined, false, { minBytesPerSecond: 100, rateWindowMs: 10_000 });
    attempt.replied();
    const ticker = setInterval(() => attempt.received(1), 2000);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(attempt.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    clearInterval(ticker);
    expect(attempt.signal.aborted).toBe(true);
    expect(attempt.timeout).toBe("slow");
    expect((attempt.signal.reason as Error).message).toMatch(
      /Fewer than 100 bytes per second over 10000 ms \([45] bytes\)/,
    );
    attempt.end();
  });

  it("keeps a body above the rate", async () => {
    vi.useFakeTimers();
    const attempt = new Attempt(30_000, undefined, false, { minBytesPerSecond: 100, rateWindowMs: 10_000 });
    attempt.replied();
    const ticker = setInterval(() => attempt.received(150), 1000);
    await vi.advanceTimersByTimeAsync(60_000);
    clearInterval(ticker);
    expect(attempt.signal.aborted).toBe(false);
    attempt.end();
  });
});

describe("reading part of a body", () => {
  const endless = () =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull: (controller) => controller.enqueue(new Uint8Array(1000).fill(7)),
      }),
    );
  it("stops at stopAt and says the body was not complete", async () => {
    const attempt = new Attempt(0, undefined);
    const part = await readBodyPart(endless(), {
      limit: 2 ** 31 - 1,
      attempt,
      tooLarge: () => new Error("too large"),
      stopAt: 2500,
    });
    expect(part.body.byteLength).toBe(2500);
    expect(part.complete).toBe(false);
    attempt.end();
  });

  it("keeps only the tail past keepTail.after, whatever the chunks' sizes", async () => {
    const value = Uint8Array.from({ length: 10_000 }, (_, i) => i % 251);
    for (const chunk of [1, 7, 100, 3000, 10_000]) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < value.length; at += chunk) controller.enqueue(value.slice(at, at + chunk));
          controller.close();
        },
      });
      const attempt = new Attempt(0, undefined);
      const part = await readBodyPart(new Response(body), {
        limit: 2 ** 31 - 1,
        attempt,
        tooLarge: () => new Error("too large"),
        keepTail: { after: 1000, bytes: 37 },
      });
      expect(part, `chunks of ${chunk}`).toEqual({ body: value.slice(-37), complete: true, tail: true, total: 10_000 });
      attempt.end();
    }
    const attempt = new Attempt(0, undefined);
    const short = await readBodyPart(new Response(value.slice(0, 500)), {
      limit: 10_000,
      attempt,
      tooLarge: () => new Error("too large"),
      keepTail: { after: 1000, bytes: 37 },
    });
    expect(short).toEqual({ body: value.slice(0, 500), complete: true, tail: false, total: 500 });
    await expect(
      readBodyPart(endless(), {
        limit: 50_000,
        attempt,
        tooLarge: () => new Error("too large"),
        keepTail: { after: 0, bytes: 16 },
      }),
    ).rejects.toThrow("too large");
    attempt.end();
  });

  it("reads a body shorter than stopAt whole", async () => {
    const attempt = new Attempt(0, undefined);
    const part = await readBodyPart(new Response(new Uint8Array(10)), {
      limit: 100,
      attempt,
      tooLarge: () => new Error("too large"),
      stopAt: 50,
    });
    expect(part).toEqual({ body: new Uint8Array(10), complete: true, tail: false, total: 10 });
    attempt.end();
  });
});

describe("redirects", () => {
  const policy = (crossOrigin: "strip-headers" | "refuse" = "strip-headers") => ({
    crossOrigin,
    keepAcrossOrigins: PROTOCOL_HEADERS,
    show: (url: URL) => url.href,
  });
  /** A fetch answering each URL as `routes` says, recording the headers each request carried. */
  function routed(routes: Record<string, (init: RequestInit) => Response>) {
    const seen: { url: string; method: string; headers: Record<string, string> }[] = [];
    const fetch = async (url: URL, init: RequestInit) => {
      const sent: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => {
        sent[name] = value;
      });
      seen.push({ url: url.href, method: init.method ?? "GET", headers: sent });
      expect(init.redirect).toBe("manual");
      return routes[url.href]!(init);
    };
    return { fetch, seen };
  }
  const redirect = (status: number, location: string) => () =>
    new Response(null, { status, headers: { Location: location } });
  const ok = () => new Response("ok");
  const init = () => ({
    method: "GET",
    headers: new Headers({ "X-Api-Key": "k3y", Authorization: "Bearer t", Range: "bytes=0-3" }),
  });

  it("keep the caller's headers within the origin, and strip all but Range and conditions across origins", async () => {
    const { fetch, seen } = routed({
      "https://a.example/x": redirect(302, "/y"),
      "https://a.example/y": redirect(307, "https://b.example/z"),
      "https://b.example/z": redirect(301, "https://a.example/w"),
      "https://a.example/w": ok,
    });
    const response = await fetchFollowing(fetch, new URL("https://a.example/x"), init(), policy());
    expect(await response.text()).toBe("ok");
    expect(seen.map((s) => s.headers)).toEqual([
      { "x-api-key": "k3y", authorization: "Bearer t", range: "bytes=0-3" },
      { "x-api-key": "k3y", authorization: "Bearer t", range: "bytes=0-3" },
      { range: "bytes=0-3" },
      // Once stripped, for the rest of the chain.
      { range: "bytes=0-3" },
    ]);
  });

  it("refuse a cross-origin redirect when told to, and https -> http always", async () => {
    const { fetch } = routed({
      "https://a.example/x": redirect(302, "https://b.example/x"),
      "https://a.example/h": redirect(302, "http://a.example/h"),
    });
    await expect(fetchFollowing(fetch, new URL("https://a.example/x"), init(), policy("refuse"))).rejects.toThrow(
      /another origin \(https:\/\/b.example\/x\): refused/,
    );
    const downgrade = fetchFollowing(fetch, new URL("https://a.example/h"), init(), policy());
    await expect(downgrade).rejects.toBeInstanceOf(StoreError);
    await expect(downgrade).rejects.toThrow(/from https to http .*: refused/);
  });

  it("follow writes only with 307 and 308, and stop after 20 redirects", async () => {
    const { fetch, seen } = routed({
      "https://a.example/p": redirect(302, "/q"),
      "https://a.example/loop": redirect(302, "/loop"),
      "https://a.example/t": redirect(308, "/u"),
      "https://a.example/u": ok,
    });
    const put = { method: "PUT", headers: new Headers(), body: new Uint8Array(3) };
    await expect(fetchFollowing(fetch, new URL("https://a.example/p"), put, policy())).rejects.toThrow(
      /only 307 and 308 are followed for writes/,
    );
    expect((await fetchFollowing(fetch, new URL("https://a.example/t"), put, policy())).status).toBe(200);
    expect(seen.at(-1)!.method).toBe("PUT");
    await expect(fetchFollowing(fetch, new URL("https://a.example/loop"), init(), policy())).rejects.toThrow(
      /more than 20 redirects/,
    );
  });
});
