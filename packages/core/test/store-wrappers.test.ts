import { describe, expect, it } from "vitest";
import { type LentRange, StoreError } from "@zarrkit/registry";
import { countRequests, MemoryStore, type Store, withRequestLog } from "../src/index.js";
import { storedValue } from "../src/internal.js";

/** A store that says ranges closer than 1 MiB are cheaper read together, as a remote store would. */
function hinted(): Store {
  const inner = new MemoryStore();
  return {
    coalesceGapBytes: 2 ** 20,
    get: (key) => inner.get(key),
    getRange: (key, range) => inner.getRange(key, range),
  };
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

describe("getRangeInto through store wrappers", () => {
  it(
    "is passed on by storedValue and withRequestLog, which logs the bytes read, and absent where the store " +
      "has none",
    async () => {
      const store = new MemoryStore();
      await store.set("k", Uint8Array.from([1, 2, 3, 4, 5]));
      const counted = countRequests(store);
      const target = new Uint8Array(8);
      expect(await storedValue(counted, "k").getRangeInto!({ offset: 3, length: 8 }, target)).toBe(2);
      expect([...target.subarray(0, 3)]).toEqual([4, 5, 0]);
      expect(counted.log).toEqual([{ method: "getRangeInto", key: "k", range: { offset: 3, length: 8 }, bytes: 2 }]);
      expect(counted.bytesRead()).toBe(2);
      expect(await counted.getRangeInto!("missing", { offset: 0, length: 1 }, target)).toBeUndefined();
      expect(counted.log.at(-1)).toEqual({
        method: "getRangeInto",
        key: "missing",
        range: { offset: 0, length: 1 },
        bytes: 0,
      });
      expect("getRangeInto" in storedValue(hinted(), "k")).toBe(false);
      expect("getRangeInto" in countRequests(hinted())).toBe(false);
    },
  );
});

describe("setParts through store wrappers", () => {
  it("is passed on by storedValue and withRequestLog, which logs the bytes sent, and absent where the store has none", async () => {
    const inner = new MemoryStore();
    const pieceStore = Object.assign(Object.create(inner) as MemoryStore, {
      setParts: (key: string, parts: readonly Uint8Array[]) =>
        inner.set(key, Uint8Array.from(parts.flatMap((part) => [...part]))),
    });
    const counted = countRequests(pieceStore);
    await storedValue(counted, "k").setParts!([Uint8Array.of(1, 2), new Uint8Array(0), Uint8Array.of(3)]);
    expect([...(await inner.get("k"))!]).toEqual([1, 2, 3]);
    expect(counted.log).toEqual([{ method: "setParts", key: "k", bytes: 3 }]);
    expect("setParts" in storedValue(new MemoryStore(), "k")).toBe(false);
    expect("setParts" in countRequests(new MemoryStore())).toBe(false);
  });
});

describe("lendRange through store wrappers", () => {
  /** A memory store that lends windows of its values under a made-up reader name. */
  function lending(): Store {
    const inner = new MemoryStore();
    return Object.assign(inner, {
      lendRange: async <T>(
        key: string,
        range: { offset: number; length: number },
        _options: unknown,
        use: (lent: LentRange | undefined) => Promise<T>,
      ) => {
        const size = (await inner.get(key))?.length;
        if (size === undefined) return use(undefined);
        const length = Math.max(0, Math.min(range.length, size - range.offset));
        return use({ source: { reader: "test:memory", key }, offset: range.offset, length });
      },
    });
  }

  it("is passed on by storedValue and withRequestLog, which logs the bytes lent as a read, and absent where the store has none", async () => {
    const store = lending();
    await store.set!("k", Uint8Array.from([1, 2, 3, 4, 5]));
    const counted = countRequests(store);
    const lent = await storedValue(counted, "k").lendRange!({ offset: 3, length: 8 }, undefined, async (lent) => lent);
    expect(lent).toEqual({ source: { reader: "test:memory", key: "k" }, offset: 3, length: 2 });
    expect(counted.log).toEqual([{ method: "lendRange", key: "k", range: { offset: 3, length: 8 }, bytes: 2 }]);
    expect(counted.reads()).toBe(1);
    expect(counted.bytesRead()).toBe(2);
    expect(
      await counted.lendRange!("missing", { offset: 0, length: 1 }, undefined, async (lent) => lent),
    ).toBeUndefined();
    expect(counted.log.at(-1)).toEqual({
      method: "lendRange",
      key: "missing",
      range: { offset: 0, length: 1 },
      bytes: 0,
    });
    expect("lendRange" in storedValue(new MemoryStore(), "k")).toBe(false);
    expect("lendRange" in countRequests(new MemoryStore())).toBe(false);
  });

  it("refuses, through storedValue, a window no reader could use safely, with a StoreError naming the key", async () => {
    const store = lending();
    await store.set!("k", Uint8Array.from([1, 2, 3, 4, 5]));
    const source = { reader: "test:memory", key: "k" };
    for (const [lent, why] of [
      [{ source, offset: 0, length: 9 }, /length 9 for a window of 8 bytes/],
      [{ source, offset: -1, length: 2 }, /offset -1/],
      [{ source, offset: 0.5, length: 2 }, /offset 0.5/],
      [{ source: { key: "k" }, offset: 0, length: 2 }, /a source without a reader's name/],
      [{ source: { ...source, close: () => {} }, offset: 0, length: 2 }, /source\.close is not plain data/],
      [{ source: { ...source, at: new Date(0) }, offset: 0, length: 2 }, /source\.at is not plain data/],
      [{ source, offset: 0, length: 2, splittable: "yes" }, /splittable "yes"/],
      ["k", /lent "k", not \{ source, offset, length \}/],
    ] as const) {
      const liar = {
        ...store,
        lendRange: <T>(_k: string, _r: unknown, _o: unknown, use: (l: never) => Promise<T>) => use(lent as never),
      };
      let used = false;
      const error = await storedValue(liar as Store, "k").lendRange!({ offset: 0, length: 8 }, undefined, async () => {
        used = true;
      }).then(
        () => undefined,
        (e: unknown) => e as StoreError,
      );
      expect(error, String(why)).toBeInstanceOf(StoreError);
      expect(error!.key).toBe("k");
      expect(error!.message).toMatch(why);
      expect(used).toBe(false);
    }
  });
});
