import { describe, expect, it } from "vitest";
import { coalesceGapHint, rangeBounds, StoreError } from "../src/index.js";

describe("rangeBounds", () => {
  it.each([
    [{ offset: 2, length: 3 }, 10, [2, 5]],
    [{ offset: 8, length: 5 }, 10, [8, 10]],
    [{ offset: 12, length: 5 }, 10, [10, 10]],
    [{ suffixLength: 4 }, 10, [6, 10]],
    [{ suffixLength: 40 }, 10, [0, 10]],
    [{ suffixLength: 0 }, 10, [10, 10]],
  ] as const)("%j of %i bytes is %j, clipped to the value", (range, size, bounds) => {
    expect(rangeBounds(range, size)).toEqual(bounds);
  });
});

describe("coalesceGapHint", () => {
  it("passes a non-negative integer hint or its absence through", () => {
    expect(coalesceGapHint({})).toBeUndefined();
    expect(coalesceGapHint({ coalesceGapBytes: 0 })).toBe(0);
    expect(coalesceGapHint({ coalesceGapBytes: 4 * 2 ** 20 })).toBe(4 * 2 ** 20);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("refuses %d with a StoreError naming the key", (hint) => {
    const error = (() => {
      try {
        return coalesceGapHint({ coalesceGapBytes: hint }, "a/c/0");
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ key: "a/c/0" });
  });
});
