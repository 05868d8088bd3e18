import { CorruptDataError, type LentRange, rangeReader, type Store } from "@zarrkit/registry";
import { expect } from "vitest";
import { expectBytes, sequence } from "./bytes.js";
import { expectPreconditionFailed, expectStoreError } from "./errors.js";
import type { ConformanceCheck } from "./types.js";

/**
 * What a codec worker reads of a lent window: the whole window, into a target
 * 8 bytes longer (0xEE) whose tail the reader must leave alone, through the
 * reader the source names, which must be registered on this thread too.
 */
export async function readLent(lent: LentRange, what: string): Promise<Uint8Array | undefined> {
  expect(structuredClone(lent.source), `the source of ${what} after structured clone`).toEqual(lent.source);
  const reader = rangeReader(lent.source.reader);
  expect(reader, `a range reader registered as ${JSON.stringify(lent.source.reader)}`).toBeTypeOf("function");
  const target = new Uint8Array(lent.length + 8).fill(0xee);
  const read = await reader!(lent.source, lent.offset, target.subarray(0, lent.length));
  if (read === undefined) {
    expect(lent.splittable, `${what}: only a window lent without asking may find no value`).toBeFalsy();
    return undefined;
  }
  // A splittable window's length is exact; any other's may be the length asked, the reader reading fewer.
  if (lent.splittable) expect(read, `bytes read of ${what}, splittable`).toBe(lent.length);
  expectBytes(target.subarray(read), new Uint8Array(lent.length - read + 8).fill(0xee), `the target past ${what}`);
  return target.subarray(0, read);
}

/** `use` of the window lent, undefined when nothing is. */
function lend<T>(store: Store, key: string, range: { offset: number; length: number }, use: (lent: LentRange) => T) {
  return store.lendRange!(key, range, undefined, async (lent) => (lent === undefined ? undefined : use(lent)));
}

export const lendingChecks: ConformanceCheck[] = [
  {
    group: "lendRange",
    name: "lends windows whose reader reads what getRange returns, cut at the end of the value",
    needs: ["lendRange", "getRange", "write"],
    async run({ store, put }) {
      await put("k", sequence(100));
      for (const [offset, length, expected] of [
        [10, 20, 20],
        [0, 100, 100],
        [90, 20, 10],
        [100, 5, 0],
        [150, 5, 0],
        [10, 0, 0],
      ] as const) {
        const what = `the window [${offset}, ${offset + length})`;
        const bytes = await lend(store, "k", { offset, length }, async (lent) => {
          if (lent.splittable) expect(lent.length, `the length lent of ${what}`).toBe(expected);
          else expect([expected, length], `the length lent of ${what}`).toContain(lent.length);
          return readLent(lent, what);
        });
        expectBytes(bytes, (await store.getRange!("k", { offset, length }))!, what);
      }
    },
  },
  {
    group: "lendRange",
    name:
      "lends nothing (undefined) for a missing key and for a prefix of stored keys, or (a store that asks only " +
      "when read) a window whose reader finds no value",
    needs: ["lendRange", "write"],
    async run({ store, put }) {
      await put("group/array/zarr.json", sequence(10));
      for (const key of ["missing", "group/array", "group", "missing/nested/c/0"]) {
        const what = `lendRange of ${key}`;
        const found = await store.lendRange!(key, { offset: 0, length: 10 }, undefined, async (lent) =>
          lent === undefined ? undefined : readLent(lent, what),
        );
        expect(found, what).toBeUndefined();
      }
    },
  },
  {
    group: "lendRange",
    name:
      "lends the value as it was when lent though it is replaced before the window is read, or (a store that " +
      "asks only when read, with ifMatch) refuses with a PreconditionFailedError",
    needs: ["lendRange", "set"],
    async run({ store }) {
      await store.set!("k", sequence(64));
      const version = (await store.getRangeWithSize?.("k", { offset: 0, length: 1 }))?.version;
      const options = version === undefined ? undefined : { ifMatch: version };
      const window = { offset: 8, length: 16 };
      const what = "a window of the replaced value";
      const bytes = await store.lendRange!("k", window, options, async (lent) => {
        await store.set!("k", sequence(64, 100));
        if (lent?.splittable || version === undefined) return (await readLent(lent!, what))!;
        await expectPreconditionFailed(readLent(lent!, what), `reading ${what}, lent at version ${version}`);
        return sequence(16, 8);
      });
      expectBytes(bytes, sequence(16, 8), "the window lent before the value was replaced");
    },
  },
  {
    group: "lendRange",
    name: "settles as use does: its result, or what it throws, untouched",
    needs: ["lendRange", "write"],
    async run({ store, put }) {
      await put("k", sequence(10));
      const result = { decoded: true };
      expect(await store.lendRange!("k", { offset: 0, length: 10 }, undefined, async () => result)).toBe(result);
      const failure = new CorruptDataError("an inner chunk is corrupt", { key: "k/0" });
      const thrown = await store.lendRange!("k", { offset: 0, length: 10 }, undefined, async () => {
        throw failure;
      }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(thrown, "what use threw").toBe(failure);
    },
  },
  {
    group: "lendRange",
    name: "refuses a range that is not a window with a StoreError naming the key, and lends nothing",
    needs: ["lendRange", "write"],
    async run({ store, put }) {
      await put("k", sequence(100));
      let used = false;
      const use = async () => {
        used = true;
      };
      const suffix = { suffixLength: 4 } as unknown as { offset: number; length: number };
      const error = await expectStoreError(store.lendRange!("k", suffix, undefined, use), "a suffix");
      expect(error.key, "the error should name the key").toBe("k");
      await expectStoreError(store.lendRange!("k", { offset: -1, length: 4 }, undefined, use), "a negative offset");
      expect(used, "use was called for a range refused").toBe(false);
    },
  },
];
