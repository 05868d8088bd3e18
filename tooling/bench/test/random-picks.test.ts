import { describe, expect, test } from "vitest";
import { issue20Pick } from "../src/cases/random-reads.js";
import { FULL, QUICK } from "../src/profile.js";

describe("issue 20's random reads", () => {
  test("120 inner chunks of the 64^3 zstd form at either size, warm, zarrkit and tensorstore", () => {
    expect(issue20Pick(FULL)).toMatchObject({
      id: "random-64",
      form: { name: "sharded" },
      count: 120,
      temperatures: ["warm"],
      tensorstore: true,
    });
    expect(issue20Pick(FULL).peers.map((p) => p.name)).toEqual(["zarrkit"]);
    expect(issue20Pick(QUICK)).toMatchObject({ form: { name: "sharded-other" } });
    expect(() => issue20Pick({ ...QUICK, inner: 16, otherInner: 32 })).toThrow(
      "the quick profile has no sharded form of 64^3 zstd inner chunks",
    );
  });
});
