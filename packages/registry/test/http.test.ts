import { describe, expect, it } from "vitest";
import { AuthError, PreconditionFailedError } from "../src/errors.js";
import { abortableSleep, contentRangeProblem, contentRangeTotal, isRetryableStatus, rangeHeader, statusError, unsatisfiedRangeSize } from "../src/http.js";
import * as main from "../src/index.js";

describe("HTTP helpers for store implementers (@zarrkit/registry/http)", () => {
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
    expect(contentRangeProblem("bytes 0-9/100", { suffixLength: 10 }, 10)).toMatch(/does not match the request bytes=-10/);
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

  it("are not in the main entry point (nor, through it, in @zarrkit/core's)", () => {
    expect(Object.keys(main)).not.toContain("contentRangeProblem");
    expect(Object.keys(main)).not.toContain("abortableSleep");
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
