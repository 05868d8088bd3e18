import { describe, expect, test } from "vitest";
import { workerCounts } from "../src/cases/scaling.js";

describe("the scaling case's worker counts", () => {
  test("N = cores - 1 (at least 1, at most 15), and each of 1, 3, 7, 15 below it", () => {
    expect(workerCounts(1)).toEqual([1]);
    expect(workerCounts(2)).toEqual([1]);
    expect(workerCounts(4)).toEqual([1, 3]);
    expect(workerCounts(6)).toEqual([1, 3, 5]);
    expect(workerCounts(16)).toEqual([1, 3, 7, 15]);
    expect(workerCounts(64)).toEqual([1, 3, 7, 15]);
  });
});
