import { readFileSync } from "node:fs";
import type { RangeQuery, Store } from "@zarrkit/registry";
import { fixturePath } from "@zarrkit/test-utils";
import { describe } from "vitest";

/** A Map-backed store; `ranges: false` leaves out getRange to model whole-file stores. */
export function memoryStore(
  files: Iterable<readonly [string, Uint8Array]> = [],
  options: { ranges?: boolean } = {},
): Store & { files: Map<string, Uint8Array> } {
  const map = new Map<string, Uint8Array>(files as Iterable<[string, Uint8Array]>);
  const store: Store & { files: Map<string, Uint8Array> } = {
    files: map,
    async get(key) {
      return map.get(key)?.slice();
    },
    async set(key, value) {
      map.set(key, value.slice());
    },
  };
  if (options.ranges !== false) {
    store.getRange = async (key: string, range: RangeQuery) => {
      const value = map.get(key);
      if (!value) return undefined;
      if ("suffixLength" in range) return value.slice(Math.max(0, value.length - range.suffixLength));
      return value.slice(range.offset, range.offset + range.length);
    };
  }
  return store;
}

export const hex = (s: string): Uint8Array => Uint8Array.from(s.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
export const toHex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

/** vectors.json from the shared fixtures, or undefined (tests using it are skipped). */
// biome-ignore lint/suspicious/noExplicitAny: JSON fixture of known shape, checked by the tests that read it.
export const vectors: any = (() => {
  const path = fixturePath("neuroglancer/vectors.json");
  return path ? JSON.parse(readFileSync(path, "utf8")) : undefined;
})();

export const describeVectors = vectors ? describe : describe.skip;

/** A small deterministic PRNG (mulberry32) for layouts generated from a property-test seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
