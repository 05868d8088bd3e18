import { expect } from "vitest";
import { expectBytes, noise, sequence } from "./bytes.js";
import { expectStoreError } from "./errors.js";
import type { ConformanceCheck } from "./types.js";

const empty = new Uint8Array(0);

/** A target of `length` bytes, each 0xEE: bytes a read must leave alone stay recognisable. */
function marked(length: number): Uint8Array {
  return new Uint8Array(length).fill(0xee);
}

/** `bytes` followed by `rest` bytes of 0xEE: what a marked target holds after a read of `bytes` into it. */
function thenMarked(bytes: Uint8Array, rest: number): Uint8Array {
  const out = marked(bytes.length + rest);
  out.set(bytes);
  return out;
}

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
      expectBytes(
        await store.getRange!("large", { offset: 1000, length: 250_000 }),
        value.subarray(1000, 251_000),
        "window",
      );
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
      for (const range of [
        { offset: 10, length: 20 },
        { suffixLength: 7 },
        { offset: 95, length: 100 },
        { suffixLength: 1000 },
      ]) {
        const sized = await store.getRangeWithSize!("k", range);
        expect(sized, JSON.stringify(range)).toBeDefined();
        expectBytes(sized!.value, (await store.getRange!("k", range))!, JSON.stringify(range));
        if (sized!.size !== undefined) expect(sized!.size, `size with ${JSON.stringify(range)}`).toBe(100);
      }
      expect(await store.getRangeWithSize!("missing", { suffixLength: 4 })).toBeUndefined();
    },
  },
  {
    group: "getRangeInto",
    name: "reads windows into the start of the target, returns their length and leaves the rest of the target alone",
    needs: ["getRangeInto", "write"],
    async run({ store, put }) {
      await put("k", sequence(100));
      for (const [offset, length] of [
        [10, 20],
        [0, 100],
        [0, 1],
        [90, 10],
      ] as const) {
        const target = marked(length + 8);
        expect(
          await store.getRangeInto!("k", { offset, length }, target),
          `bytes read of [${offset}, ${offset + length})`,
        ).toBe(length);
        expectBytes(
          target,
          thenMarked(sequence(length, offset), 8),
          `target after reading [${offset}, ${offset + length})`,
        );
      }
    },
  },
  {
    group: "getRangeInto",
    name: "reads fewer bytes at the end of the value, and none from the end on",
    needs: ["getRangeInto", "write"],
    async run({ store, put }) {
      await put("k", sequence(100));
      const target = marked(100);
      expect(
        await store.getRangeInto!("k", { offset: 95, length: 100 }, target),
        "bytes read of a window past the end",
      ).toBe(5);
      expectBytes(target, thenMarked(sequence(5, 95), 95), "target after a short read");
      expect(await store.getRangeInto!("k", { offset: 100, length: 5 }, target), "bytes read at the end").toBe(0);
      expect(await store.getRangeInto!("k", { offset: 150, length: 5 }, target), "bytes read past the end").toBe(0);
      expect(
        await store.getRangeInto!("k", { offset: 10, length: 0 }, target),
        "bytes read of a zero-length window",
      ).toBe(0);
      await put("empty", empty);
      expect(
        await store.getRangeInto!("empty", { offset: 0, length: 10 }, target),
        "bytes read of an empty value",
      ).toBe(0);
      expectBytes(target, thenMarked(sequence(5, 95), 95), "target after reads of nothing");
    },
  },
  {
    group: "getRangeInto",
    name: "returns undefined for a missing key and for a prefix of stored keys, and writes nothing",
    needs: ["getRangeInto", "write"],
    async run({ store, put }) {
      await put("group/array/zarr.json", sequence(10));
      const target = marked(10);
      for (const key of ["missing", "group/array", "group", "missing/nested/c/0"]) {
        expect(await store.getRangeInto!(key, { offset: 0, length: 10 }, target), `getRangeInto of ${key}`).toBe(
          undefined,
        );
      }
      expectBytes(target, marked(10), "the target");
    },
  },
  {
    group: "getRangeInto",
    name: "reads large windows completely",
    needs: ["getRangeInto", "write"],
    async run({ store, put }) {
      const value = noise(300_000);
      await put("large", value);
      const target = marked(250_000);
      expect(await store.getRangeInto!("large", { offset: 1000, length: 250_000 }, target)).toBe(250_000);
      expectBytes(target, value.subarray(1000, 251_000), "window");
    },
  },
  {
    group: "getRangeInto",
    name: "refuses a target shorter than the window, and suffixes, with a StoreError naming the key",
    needs: ["getRangeInto", "write"],
    async run({ store, put }) {
      await put("k", sequence(100));
      const short = marked(9);
      const error = await expectStoreError(
        store.getRangeInto!("k", { offset: 0, length: 10 }, short),
        "a 9-byte target for 10 bytes",
      );
      expect(error.key, "the error should name the key").toBe("k");
      expectBytes(short, marked(9), "the short target");
      const suffix = { suffixLength: 4 } as unknown as { offset: number; length: number };
      await expectStoreError(store.getRangeInto!("k", suffix, marked(4)), "a suffix");
    },
  },
];
