import { describe, expect, it } from "vitest";
import { AuthError, NotFoundError, PreconditionFailedError, StoreError } from "@zarrkit/registry";
import {
  abortableSleep,
  untilAborted,
  checkIfMatch,
  confirmVersion,
  contentRangeProblem,
  contentRangeTotal,
  isRetryableStatus,
  RETRY,
  type RetryLoop,
  rangeHeader,
  retrying,
  statusError,
  unsatisfiedRangeSize,
} from "../src/index.js";

describe("HTTP helpers for store implementers (@zarrkit/http)", () => {
  it("write Range headers for windows and suffixes", () => {
    expect(rangeHeader({ offset: 10, length: 20 })).toBe("bytes=10-29");
    expect(rangeHeader({ suffixLength: 16 })).toBe("bytes=-16");
  });

  it("accept a Content-Range that is the range asked for, clipped at the end of the value", () => {
    const window = { offset: 10, length: 20 };
    expect(contentRangeProblem("bytes 10-29/100", window, 20)).toBeUndefined();
    expect(contentRangeProblem("bytes 10-14/15", window, 5)).toBeUndefined();
    expect(contentRangeProblem("bytes 10-29/*", window, 20)).toBeUndefined();
    expect(contentRangeProblem(" Bytes 90-99/100 ", { suffixLength: 10 }, 10)).toBeUndefined();
    expect(contentRangeProblem("bytes 0-4/5", { suffixLength: 10 }, 5)).toBeUndefined();
  });

  it("say what is wrong with any other answer", () => {
    const window = { offset: 10, length: 20 };
    expect(contentRangeProblem(null, window, 20)).toBe("no Content-Range header");
    expect(contentRangeProblem("bytes 10-29", window, 20)).toBe('malformed Content-Range "bytes 10-29"');
    expect(contentRangeProblem("bytes 10-29/100", window, 5)).toMatch(/body has 5 bytes but .* announces 20/);
    expect(contentRangeProblem("bytes 10-29/20", window, 20)).toMatch(/ends past the total size/);
    expect(contentRangeProblem("bytes 0-19/100", window, 20)).toMatch(/does not match the request bytes=10-29/);
    // Short, but not at the end of the value: bytes would be missing.
    expect(contentRangeProblem("bytes 10-19/100", window, 10)).toMatch(/does not match/);
    expect(contentRangeProblem("bytes 0-9/100", { suffixLength: 10 }, 10)).toMatch(
      /does not match the request bytes=-10/,
    );
  });

  it("read the total size of a 206 and of a 416", () => {
    expect(contentRangeTotal("bytes 0-0/1234")).toBe(1234);
    expect(contentRangeTotal("bytes 0-0/*")).toBeUndefined();
    expect(contentRangeTotal(null)).toBeUndefined();
    expect(unsatisfiedRangeSize("bytes */77")).toBe(77);
    expect(unsatisfiedRangeSize("bytes 0-1/77")).toBeUndefined();
  });

  it("wait, or reject with the signal's reason as soon as it aborts", async () => {
    await expect(abortableSleep(1)).resolves.toBeUndefined();
    const reason = new Error("stop");
    await expect(abortableSleep(1, AbortSignal.abort(reason))).rejects.toBe(reason);
    const controller = new AbortController();
    const waiting = abortableSleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });
});

describe("one retry policy", () => {
  it("retries 5xx and 429, nothing else", () => {
    expect([500, 502, 503, 599, 429].every(isRetryableStatus)).toBe(true);
    expect([200, 206, 304, 400, 401, 403, 404, 409, 412, 416].some(isRetryableStatus)).toBe(false);
  });

  it("maps a final status to its typed error", () => {
    expect(statusError(401, "m", { key: "k" })).toBeInstanceOf(AuthError);
    expect(statusError(403, "m", {})).toBeInstanceOf(AuthError);
    expect(statusError(412, "m", {})).toBeInstanceOf(PreconditionFailedError);
    expect(statusError(409, "m", {}, "ConditionalRequestConflict")).toBeInstanceOf(PreconditionFailedError);
    const other = statusError(409, "m", { key: "k" });
    expect(other).not.toBeInstanceOf(PreconditionFailedError);
    expect(other).toMatchObject({ name: "StoreError", key: "k", message: "m" });
  });
});

describe("retrying", () => {
  const loop = (over: Partial<RetryLoop> = {}): RetryLoop => ({
    retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 1 },
    idleTimeoutMs: 0,
    upload: false,
    failure: (error, timedOut, tries) =>
      new StoreError(`failed after ${tries} (timed out: ${timedOut})`, { cause: error }),
    ...over,
  });

  it("attempts 1 + retries times while answers are worth retrying, telling the last one it cannot retry", async () => {
    const seen: [boolean, number][] = [];
    const result = await retrying(loop(), async (_timer, canRetry, retry) => {
      seen.push([canRetry, retry]);
      return canRetry ? RETRY : "last";
    });
    expect(result).toBe("last");
    expect(seen).toEqual([
      [true, 0],
      [true, 1],
      [false, 2],
    ]);
  });

  it("retries network errors, then turns the last into the typed failure; typed errors end it at once", async () => {
    let calls = 0;
    const failing = retrying(loop(), async () => {
      calls++;
      throw new TypeError("fetch failed");
    });
    await expect(failing).rejects.toThrow("failed after 3 (timed out: false)");
    expect(calls).toBe(3);
    calls = 0;
    const typed = retrying(loop(), async () => {
      calls++;
      throw new NotFoundError("gone");
    });
    await expect(typed).rejects.toBeInstanceOf(NotFoundError);
    expect(calls).toBe(1);
    calls = 0;
    await expect(
      retrying(loop({ retryFailures: false }), async () => {
        calls++;
        throw new TypeError("fetch failed");
      }),
    ).rejects.toThrow("failed after 1");
    expect(calls).toBe(1);
  });

  it("an idle attempt is abandoned and reported as timed out; an abort ends the loop with its reason", async () => {
    const idle = retrying(
      loop({ idleTimeoutMs: 20, retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 } }),
      (timer) =>
        new Promise<never>((_, reject) => timer.signal.addEventListener("abort", () => reject(timer.signal.reason))),
    );
    await expect(idle).rejects.toThrow("failed after 1 (timed out: true)");
    const controller = new AbortController();
    const reason = new Error("stop");
    const aborted = retrying(loop({ signal: controller.signal }), async () => {
      controller.abort(reason);
      throw new TypeError("fetch failed");
    });
    await expect(aborted).rejects.toBe(reason);
  });
});

describe("versions as ETags", () => {
  it(
    "ifMatch must be a strong ETag-like token: weak ones, empty, header-breaking and '*' on reads are refused " +
      "naming the key",
    () => {
      expect(checkIfMatch("a/b", '"v1"', "read")).toBe('"v1"');
      expect(checkIfMatch("a/b", "*", "write")).toBe("*");
      for (const bad of ['W/"v1"', 'w/"v1"', "", "a\r\nX-Evil: 1", 5]) {
        expect(() => checkIfMatch("a/b", bad, "read")).toThrow(/ifMatch for "a\/b" must be a version/);
      }
      expect(() => checkIfMatch("a/b", "*", "read")).toThrow(StoreError);
    },
  );

  it(
    "a reply's version must be the one asked for, compared without quotes; weak or missing ETags are not " + "versions",
    () => {
      const headers = (etag?: string) => new Headers(etag === undefined ? {} : { etag });
      const replaced = (got: string) => `replaced: ${got}`;
      expect(confirmVersion(headers('"abc"'), "abc", "k", replaced)).toBe('"abc"');
      expect(confirmVersion(headers("abc"), '"abc"', "k", replaced)).toBe("abc");
      expect(confirmVersion(headers('W/"abc"'), undefined, "k", replaced)).toBeUndefined();
      expect(() => confirmVersion(headers('"abd"'), '"abc"', "k", replaced)).toThrow(PreconditionFailedError);
      expect(() => confirmVersion(headers('W/"abc"'), '"abc"', "k", replaced)).toThrow("replaced: no strong ETag");
      expect(() => confirmVersion(headers(), '"abc"', "k", replaced)).toThrow("replaced: no strong ETag");
    },
  );
});

describe("untilAborted", () => {
  it(
    "with a signal aborted already, rejects with its reason and leaves the promise it gave up " + "on handled",
    async () => {
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on("unhandledRejection", onUnhandled);
      try {
        const controller = new AbortController();
        controller.abort(new Error("stop"));
        // As fetch does with an aborted signal: it rejects too, a moment later.
        const fetching = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("aborted fetch")), 1));
        await expect(untilAborted(fetching, controller.signal)).rejects.toThrow("stop");
        await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        process.off("unhandledRejection", onUnhandled);
      }
      expect(unhandled).toEqual([]);
    },
  );
});
