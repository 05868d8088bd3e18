import type { Store } from "@zarrkit/registry";
import { expect } from "vitest";
import { bytes } from "./bytes.js";
import { expectStoreError } from "./errors.js";
import type { Capability, ConformanceCheck } from "./types.js";

/**
 * Keys no store should accept: traversal out of the store, absolute paths,
 * NUL bytes, backslashes (a separator on Windows and in URL parsing), empty,
 * "." and ".." segments, lone UTF-16 surrogates (no UTF-8 or URL form: a file
 * name would become U+FFFD, so two keys would share one value).
 */
export const unsafeKeys: readonly string[] = [
  "",
  "..",
  "../outside",
  "a/../../outside",
  "a/..",
  "./a",
  "a/./b",
  "/absolute",
  "a//b",
  "a/",
  "a\0b",
  "a\\..\\..\\outside",
  "a\uD800b",
  "\uDC00",
];

type KeyedMethod = "get" | Exclude<Capability, "list" | "listDir">;

const calls: Record<KeyedMethod, (store: Required<Store>, key: string) => Promise<unknown>> = {
  get: (store, key) => store.get(key),
  getRange: (store, key) => store.getRange(key, { offset: 0, length: 1 }),
  getRangeWithSize: (store, key) => store.getRangeWithSize(key, { suffixLength: 1 }),
  getRangeInto: (store, key) => store.getRangeInto(key, { offset: 0, length: 1 }, new Uint8Array(1)),
  lendRange: (store, key) => store.lendRange(key, { offset: 0, length: 1 }, undefined, async () => {}),
  set: (store, key) => store.set(key, bytes(1)),
  setParts: (store, key) => store.setParts(key, [bytes(1)]),
  delete: (store, key) => store.delete(key),
  getVersioned: (store, key) => store.getVersioned(key),
  size: (store, key) => store.size(key),
  append: (store, key) => store.append(key, bytes(1)),
  setRange: (store, key) => store.setRange(key, 0, bytes(1)),
  truncate: (store, key) => store.truncate(key, 0),
};

export const keyChecks: ConformanceCheck[] = (Object.keys(calls) as KeyedMethod[]).map((method) => ({
  group: "invalid keys",
  name: `${method} rejects invalid keys with a StoreError naming the key`,
  needs: method === "get" ? ["invalidKeys"] : ["invalidKeys", method],
  async run({ store, invalidKeys }) {
    for (const key of invalidKeys) {
      const error = await expectStoreError(
        calls[method](store as Required<typeof store>, key),
        `${method}(${JSON.stringify(key)})`,
      );
      expect(error.key, `the error of ${method}(${JSON.stringify(key)}) should name the key`).toBe(key);
    }
  },
}));
