import { describe, expect, it } from "vitest";
import { countRequests, MemoryStore, type Store, storedValue, withRequestLog } from "../src/index.js";

/** A store that says ranges closer than 1 MiB are cheaper read together, as a remote store would. */
function hinted(): Store {
  const inner = new MemoryStore();
  return { coalesceGapBytes: 2 ** 20, get: (key) => inner.get(key), getRange: (key, range) => inner.getRange(key, range) };
}

describe("the coalesceGapBytes hint through store wrappers", () => {
  it("is carried by storedValue, and absent when the store has none", () => {
    expect(storedValue(hinted(), "a/c/0").coalesceGapBytes).toBe(2 ** 20);
    const plain = storedValue(new MemoryStore(), "a/c/0");
    expect(plain.coalesceGapBytes).toBeUndefined();
    expect("coalesceGapBytes" in plain).toBe(false);
  });

  it("is kept by withRequestLog and countRequests, so readers plan the same requests through them", () => {
    expect(withRequestLog(hinted(), () => {}).coalesceGapBytes).toBe(2 ** 20);
    const counted = countRequests(hinted());
    expect(counted.coalesceGapBytes).toBe(2 ** 20);
    expect(storedValue(counted, "k").coalesceGapBytes).toBe(2 ** 20);
    expect("coalesceGapBytes" in countRequests(new MemoryStore())).toBe(false);
  });
});
