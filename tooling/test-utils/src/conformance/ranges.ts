import { expect } from "vitest";
import { expectBytes, noise, sequence } from "./bytes.js";
import type { ConformanceCheck } from "./types.js";

const empty = new Uint8Array(0);

export const rangeChecks: ConformanceCheck[] = [
  {
    group: "getRange",
    name: "reads windows given by offset and length",
    needs: ["getRange", "write"],
    async run({ store, put }) {
      await put("k", sequence(100));
      expectBytes(await store.getRange!("k", { offset: 10, length: 20 }), sequence(20, 10), "offset 10, length 20");
      expectBytes(await store.getRange!("k", { offset: 0, length: 100 }), sequence(100), "the whole value");
      expectBytes(await store.getRange!("k", { offset: 0, length: 1 }), sequence(1), "the first byte");
      expectBytes(await store.getRange!("k", { offset: 90, length: 10 }), sequence(10, 90), "up to the exact end");
    },
  },
  {
    group: "getRange",
    name: "reads a suffix",
    needs: ["getRange", "write"],
    async run({ store, put }) {
      await put("k", sequence(100));
      expectBytes(await store.getRange!("k", { suffixLength: 10 }), sequence(10, 90), "last 10 bytes");
      expectBytes(await store.getRange!("k", { suffixLength: 1 }), sequence(1, 99), "last byte");
    },
  },
  {
    group: "getRange",
    name: "clips a suffix longer than the value to the whole value",
    needs: ["getRange", "write"],
    async run({ store, put }) {
      await put("k", sequence(100));
      expectBytes(await store.getRange!("k", { suffixLength: 1000 }), sequence(100));
    },
  },
  {
    group: "getRange",
    name: "clips a window that runs past the end",
    needs: ["getRange", "write"],
    async run({ store, put }) {
      await put("k", sequence(100));
      expectBytes(await store.getRange!("k", { offset: 95, length: 100 }), sequence(5, 95));
    },
  },
  {
    group: "getRange",
    name: "returns empty bytes (not undefined) for a window starting at or past the end",
    needs: ["getRange", "write"],
    async run({ store, put }) {
      await put("k", sequence(100));
      expectBytes(await store.getRange!("k", { offset: 100, length: 5 }), empty, "offset at the end");
      expectBytes(await store.getRange!("k", { offset: 150, length: 5 }), empty, "offset past the end");
    },
  },
  {
    group: "getRange",
    name: "returns empty bytes for zero-length windows and suffixes",
    needs: ["getRange", "write"],
    async run({ store, put }) {
      await put("k", sequence(100));
      expectBytes(await store.getRange!("k", { offset: 10, length: 0 }), empty, "length 0");
      expectBytes(await store.getRange!("k", { suffixLength: 0 }), empty, "suffixLength 0");
    },
  },
  {
    group: "getRange",
    name: "reads ranges of an empty value as empty bytes",
    needs: ["getRange", "write"],
    async run({ store, put }) {
      await put("empty", empty);
      expectBytes(await store.getRange!("empty", { offset: 0, length: 10 }), empty, "window");
      expectBytes(await store.getRange!("empty", { suffixLength: 5 }), empty, "suffix");
    },
  },
  {
    group: "getRange",
    name: "returns undefined for a missing key",
    needs: ["getRange"],
    async run({ store }) {
      expect(await store.getRange!("missing", { offset: 0, length: 10 })).toBe(undefined);
      expect(await store.getRange!("missing", { suffixLength: 10 })).toBe(undefined);
      expect(await store.getRange!("missing", { offset: 0, length: 0 })).toBe(undefined);
    },
  },
  {
    group: "getRange",
    name: "reads large windows completely",
    needs: ["getRange", "write"],
    async run({ store, put }) {
      const value = noise(300_000);
      await put("large", value);
      expectBytes(await store.getRange!("large", { offset: 1000, length: 250_000 }), value.subarray(1000, 251_000), "window");
      expectBytes(await store.getRange!("large", { suffixLength: 200_000 }), value.subarray(100_000), "suffix");
    },
  },
  {
    group: "size",
    name: "returns undefined for a missing key",
    needs: ["size"],
    async run({ store }) {
      expect(await store.size!("missing")).toBe(undefined);
    },
  },
  {
    group: "size",
    name: "reports the size of values, including empty ones",
    needs: ["size", "write"],
    async run({ store, put }) {
      await put("k", sequence(1234));
      await put("empty", empty);
      expect(await store.size!("k")).toBe(1234);
      expect(await store.size!("empty")).toBe(0);
      await put("k", sequence(7));
      expect(await store.size!("k"), "after an overwrite").toBe(7);
    },
  },
  {
    group: "getRangeWithSize",
    name: "returns what getRange returns, with the whole value's size when reported",
    needs: ["getRangeWithSize", "write"],
    async run({ store, put }) {
      await put("k", sequence(100));
      for (const range of [{ offset: 10, length: 20 }, { suffixLength: 7 }, { offset: 95, length: 100 }, { suffixLength: 1000 }]) {
        const sized = await store.getRangeWithSize!("k", range);
        expect(sized, JSON.stringify(range)).toBeDefined();
        expectBytes(sized!.value, (await store.getRange!("k", range))!, JSON.stringify(range));
        if (sized!.size !== undefined) expect(sized!.size, `size with ${JSON.stringify(range)}`).toBe(100);
      }
      expect(await store.getRangeWithSize!("missing", { suffixLength: 4 })).toBeUndefined();
    },
  },
];
