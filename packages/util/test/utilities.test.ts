import { describe, expect, it } from "vitest";
import { coalesceRanges, concatBytes, KeyedLock, LruCache } from "../src/index.js";

describe("coalesceRanges", () => {
  const r = (offset: number, length: number) => ({ offset, length });

  it("merges neighbours at most maxGap apart, in offset order, keeping every member", () => {
    const groups = coalesceRanges([r(100, 10), r(0, 10), r(15, 5), r(40, 1)], 5);
    expect(groups.map(({ offset, length }) => [offset, length])).toEqual([
      [0, 20],
      [40, 1],
      [100, 10],
    ]);
    expect(groups[0]!.members).toEqual([r(0, 10), r(15, 5)]);
  });

  it("never grows a group past maxRequest, except by a range that overlaps it or is that large alone", () => {
    expect(coalesceRanges([r(0, 10), r(10, 10), r(20, 10)], 100, 20).map((g) => g.members.length)).toEqual([2, 1]);
    expect(coalesceRanges([r(0, 50)], 0, 10)).toEqual([{ offset: 0, length: 50, members: [r(0, 50)] }]);
    expect(coalesceRanges([r(0, 30), r(5, 10)], 0, 20)).toEqual([
      { offset: 0, length: 30, members: [r(0, 30), r(5, 10)] },
    ]);
  });
});

describe("LruCache", () => {
  it("evicts the least recently used beyond its cost budget and skips values costing more than all of it", () => {
    const cache = new LruCache<string, Uint8Array>(10, (v) => v.length);
    cache.set("a", new Uint8Array(4));
    cache.set("b", new Uint8Array(4));
    cache.get("a");
    cache.set("c", new Uint8Array(4));
    expect([cache.get("a"), cache.get("b"), cache.get("c")].map((v) => v?.length)).toEqual([4, undefined, 4]);
    cache.set("huge", new Uint8Array(11));
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.usedCost).toBe(8);
  });

  it("counts entries by default", () => {
    const cache = new LruCache<number, string>(2);
    for (let i = 0; i < 5; i++) cache.set(i, String(i));
    expect(cache.size).toBe(2);
    expect(cache.get(4)).toBe("4");
  });

  it("shares one load among concurrent callers and caches only what `keep` accepts", async () => {
    const cache = new LruCache<string, { v: number }>(10);
    let loads = 0;
    const load = async () => ({ v: ++loads });
    const [a, b] = await Promise.all([
      cache.getOrLoad("k", load, () => false),
      cache.getOrLoad("k", load, () => false),
    ]);
    expect(a).toBe(b);
    expect(loads).toBe(1);
    expect(cache.get("k")).toBeUndefined();
    await cache.getOrLoad("k", load);
    expect(cache.get("k")).toEqual({ v: 2 });
  });

  it("does not cache a load that was deleted while in flight", async () => {
    const cache = new LruCache<string, number>(10);
    let finish!: (v: number) => void;
    const pending = cache.getOrLoad("k", () => new Promise<number>((resolve) => (finish = resolve)));
    cache.delete("k");
    finish(1);
    expect(await pending).toBe(1);
    expect(cache.get("k")).toBeUndefined();
  });
});

describe("KeyedLock", () => {
  it("runs tasks for one key one at a time, in order, and a failure does not block the next", async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await new Promise((resolve) => setTimeout(resolve, 1));
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      lock.run("k", task("a", true)),
      lock.run("k", task("b")),
      lock.run("other", task("c")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "fulfilled", "fulfilled"]);
    expect(log.indexOf("b start")).toBeGreaterThan(log.indexOf("a end"));
    expect(log.indexOf("c start")).toBeLessThan(log.indexOf("a end"));
    expect(lock.busy("k")).toBe(false);
  });
});

it("concatBytes joins buffers, views included", () => {
  const backing = Uint8Array.of(9, 1, 2, 9);
  expect(Array.from(concatBytes([backing.subarray(1, 3), Uint8Array.of(3), new Uint8Array(0)]))).toEqual([1, 2, 3]);
});
