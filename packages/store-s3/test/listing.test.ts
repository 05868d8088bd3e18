import { describe, expect, it } from "vitest";
import { recordingFetch } from "./recording-fetch.js";
import { rgw, rgwStore } from "./rgw.js";

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const key of iterable) out.push(key);
  return out;
}

/** Run `task` over `items` with a few in flight, so 1000+ writes do not take long one by one. */
async function eachLimited<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  // One iterator shared by the workers: each takes the next item when it is free.
  const queue = items.values();
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (const item of queue) await task(item);
    }),
  );
}

describe.skipIf(!rgw)("listing on radosgw", () => {
  it("pages through more than 1000 keys with list and listDir", async () => {
    const { fetch, requests } = recordingFetch();
    const store = rgwStore({ fetch });
    // 1001 child directories with one key each, and 150 keys in another directory.
    const chunks = Array.from({ length: 150 }, (_, i) => `a/c/${i}`);
    const children = Array.from({ length: 1001 }, (_, i) => `g/${String(i).padStart(4, "0")}/zarr.json`);
    const value = new Uint8Array([1]);
    await eachLimited([...chunks, ...children, "zarr.json"], 32, (key) => store.set(key, value));

    requests.length = 0;
    const all = await collect(store.list(""));
    expect(all.length).toBe(chunks.length + children.length + 1);
    expect(new Set(all)).toEqual(new Set([...chunks, ...children, "zarr.json"]));
    expect(requests.length, "ListObjectsV2 pages of at most 1000 keys").toBe(2);

    const under = await collect(store.list("a/c/"));
    expect(under.sort()).toEqual([...chunks].sort());

    requests.length = 0;
    const dir = await store.listDir("g/");
    expect(dir.keys).toEqual([]);
    expect(dir.prefixes.sort()).toEqual(children.map((key) => key.slice(0, "g/0000/".length)).sort());
    expect(requests.length, "pages of at most 1000 common prefixes").toBe(2);

    const root = await store.listDir("");
    expect(root).toEqual({ keys: ["zarr.json"], prefixes: ["a/", "g/"] });
  });

  it("lists keys with characters that XML escapes", async () => {
    const store = rgwStore();
    const keys = ["x/<&>", "x/'quoted\"", "x/tab\there", "x/ü"];
    for (const key of keys) await store.set(key, new Uint8Array([1]));
    expect((await collect(store.list("x/"))).sort()).toEqual([...keys].sort());
    expect((await store.listDir("x/")).keys.sort()).toEqual([...keys].sort());
  });

  it("does not list keys outside the store's prefix", async () => {
    const inner = rgwStore();
    const sibling = rgwStore({ prefix: `${inner.prefix.slice(0, -1)}-sibling` });
    await inner.set("k", new Uint8Array([1]));
    await sibling.set("k", new Uint8Array([2]));
    expect(await collect(inner.list(""))).toEqual(["k"]);
    expect(await inner.listDir("")).toEqual({ keys: ["k"], prefixes: [] });
  });
});
