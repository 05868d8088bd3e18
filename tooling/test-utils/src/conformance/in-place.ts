import { expect } from "vitest";
import { concatBytes } from "@zarrkit/util";
import { bytes, expectBytes, sequence } from "./bytes.js";
import { expectStoreError } from "./errors.js";
import type { ConformanceCheck } from "./types.js";

export const inPlaceChecks: ConformanceCheck[] = [
  {
    group: "append",
    name: "creates the value and returns the offset each write landed at",
    needs: ["append"],
    async run({ store }) {
      expect(await store.append!("log", sequence(10))).toBe(0);
      expect(await store.append!("log", sequence(5, 10))).toBe(10);
      expect(await store.append!("log", sequence(3, 15))).toBe(15);
      expectBytes(await store.get("log"), sequence(18));
    },
  },
  {
    group: "append",
    name: "appending no bytes returns the current length and creates a missing value",
    needs: ["append"],
    async run({ store }) {
      expect(await store.append!("created-empty", new Uint8Array(0))).toBe(0);
      expectBytes(await store.get("created-empty"), new Uint8Array(0), "value created by an empty append");
      await store.append!("log", sequence(7));
      expect(await store.append!("log", new Uint8Array(0))).toBe(7);
      expectBytes(await store.get("log"), sequence(7));
    },
  },
  {
    group: "append",
    name: "appends after a value written with set",
    needs: ["append", "write"],
    async run({ store, put }) {
      await store.append!("k", sequence(3));
      await put("k", sequence(5, 100));
      expect(await store.append!("k", sequence(3, 105))).toBe(5);
      expectBytes(await store.get("k"), sequence(8, 100));
    },
  },
  {
    group: "append",
    name: "concurrent appends land at distinct offsets, each chunk intact",
    needs: ["append"],
    async run({ store }) {
      const chunks = Array.from({ length: 12 }, (_, i) => new Uint8Array(100).fill(i + 1));
      const appended = await Promise.all(
        chunks.map(async (chunk) => ({ chunk, offset: await store.append!("log", chunk) })),
      );
      expect(appended.map(({ offset }) => offset).sort((a, b) => a - b)).toEqual(chunks.map((_, i) => i * 100));
      const value = await store.get("log");
      expect(value?.byteLength).toBe(1200);
      for (const [i, { chunk, offset }] of appended.entries())
        expectBytes(value?.subarray(offset, offset + 100), chunk, `chunk ${i} at offset ${offset}`);
    },
  },
  {
    group: "setRange",
    name: "overwrites bytes in place without changing the size",
    needs: ["setRange", "write"],
    async run({ store, put }) {
      await put("k", sequence(100));
      await store.setRange!("k", 10, bytes(0xff, 0xfe, 0xfd));
      await store.setRange!("k", 0, bytes(0xaa));
      await store.setRange!("k", 99, bytes(0xbb));
      const expected = sequence(100);
      expected.set([0xff, 0xfe, 0xfd], 10);
      expected[0] = 0xaa;
      expected[99] = 0xbb;
      expectBytes(await store.get("k"), expected);
    },
  },
  {
    group: "setRange",
    name: "rejects a missing key with a StoreError and creates nothing",
    needs: ["setRange"],
    async run({ store }) {
      await expectStoreError(store.setRange!("missing", 0, bytes(1, 2, 3)), "setRange on a missing key");
      expect(await store.get("missing")).toBe(undefined);
    },
  },
  {
    group: "setRange",
    name: "a write past the end either rejects with a StoreError, leaving the value intact, or extends the value",
    needs: ["setRange", "write"],
    async run({ store, put }) {
      await put("k", sequence(100));
      let rejected = false;
      try {
        await store.setRange!("k", 98, bytes(1, 2, 3, 4, 5));
      } catch (error) {
        rejected = true;
        await expectStoreError(Promise.reject(error), "setRange past the end");
      }
      const expected = rejected ? sequence(100) : concatBytes([sequence(98), bytes(1, 2, 3, 4, 5)]);
      expectBytes(
        await store.get("k"),
        expected,
        rejected ? "value after a rejected setRange" : "value after an extending setRange",
      );
    },
  },
  {
    group: "truncate",
    name: "shortens a value, down to empty (which is not missing)",
    needs: ["truncate", "write"],
    async run({ store, put }) {
      await put("k", sequence(100));
      await store.truncate!("k", 10);
      expectBytes(await store.get("k"), sequence(10), "after truncating to 10");
      await store.truncate!("k", 10);
      expectBytes(await store.get("k"), sequence(10), "after truncating to the current length");
      await store.truncate!("k", 0);
      expectBytes(await store.get("k"), new Uint8Array(0), "after truncating to 0");
    },
  },
  {
    group: "truncate",
    name: "rejects a missing key with a StoreError and creates nothing",
    needs: ["truncate"],
    async run({ store }) {
      await expectStoreError(store.truncate!("missing", 0), "truncate of a missing key");
      expect(await store.get("missing")).toBe(undefined);
    },
  },
  {
    group: "truncate",
    name: "an append after truncate lands at the new end",
    needs: ["truncate", "append"],
    async run({ store }) {
      await store.append!("log", sequence(50));
      await store.truncate!("log", 20);
      expect(await store.append!("log", sequence(5, 20))).toBe(20);
      expectBytes(await store.get("log"), sequence(25));
    },
  },
];
