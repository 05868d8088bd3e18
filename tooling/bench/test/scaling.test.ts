import { describe, expect, test } from "vitest";
import { workerCounts } from "../src/cases/scaling.js";

describe("the scaling case's worker counts", () => {
  test("one worker per core (the default pool), and each of 1, 3, 7, 15 below it", () => {
    expect(workerCounts(1)).toEqual([1]);
    expect(workerCounts(2)).toEqual([1, 2]);
    expect(workerCounts(4)).toEqual([1, 3, 4]);
    expect(workerCounts(6)).toEqual([1, 3, 6]);
    expect(workerCounts(16)).toEqual([1, 3, 7, 15, 16]);
    expect(workerCounts(64)).toEqual([1, 3, 7, 15, 64]);
  });
});
