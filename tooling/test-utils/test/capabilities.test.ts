import type { Store } from "@zarrkit/registry";
import { describe, expect, it } from "vitest";
import { available, type ConformanceCheck, missingNeed } from "../src/conformance/types.js";

const check = (needs: ConformanceCheck["needs"]): ConformanceCheck => ({
  group: "g",
  name: "n",
  needs,
  run: async () => {},
});
const getOnly: Store = { get: async () => undefined };

describe("capability detection", () => {
  it("finds only the methods a store has", () => {
    const store: Store = { ...getOnly, getRange: async () => undefined, size: async () => undefined };
    expect([...available(store, false, false)].sort()).toEqual(["getRange", "size"]);
  });

  it('counts set or a fixture seed as "write", and the invalidKeys option', () => {
    expect(available({ ...getOnly, set: async () => {} }, false, false).has("write")).toBe(true);
    expect(available(getOnly, true, false).has("write")).toBe(true);
    expect(available(getOnly, false, false).has("write")).toBe(false);
    expect(available(getOnly, false, true).has("invalidKeys")).toBe(true);
  });

  it("names the first missing need, where a nested list means any one of them", () => {
    const has = available({ ...getOnly, getVersioned: async () => undefined, setRange: async () => {} }, false, false);
    expect(missingNeed(check([]), has)).toBe(undefined);
    expect(missingNeed(check(["getVersioned", ["append", "setRange"]]), has)).toBe(undefined);
    expect(missingNeed(check(["getVersioned", ["append", "truncate"]]), has)).toBe("append or truncate");
    expect(missingNeed(check(["write"]), has)).toBe("write");
  });
});
