import "fake-indexeddb/auto";
import { openStore, PreconditionFailedError, QuotaExceededError, StoreError } from "@zarrkit/registry";
import { createStore, get, set } from "idb-keyval";
import { describe, expect, it } from "vitest";
import { idbError } from "../src/errors.js";
import { IdbStore } from "../src/index.js";
import { freshDatabase } from "./databases.js";

const bytes = (...values: number[]) => Uint8Array.from(values);

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const key of iterable) out.push(key);
  return out.sort();
}

describe("IdbStore", () => {
  it("keeps each value as one record of bytes under prefix + key", async () => {
    const database = freshDatabase();
    const store = new IdbStore({ database, prefix: "/arrays/a.zarr/" });
    await store.set("c/0", bytes(1, 2, 3));
    const raw = createStore(database, "zarrkit");
    const record = await get("arrays/a.zarr/c/0", raw);
    expect(record).toBeInstanceOf(Uint8Array);
    expect(record).toEqual(bytes(1, 2, 3));
    // Values other tools stored as ArrayBuffers or other views read as bytes too.
    await set("arrays/a.zarr/buffer", bytes(4, 5).buffer, raw);
    await set("arrays/a.zarr/view", new Uint16Array([0x0201]), raw);
    expect(await store.get("buffer")).toEqual(bytes(4, 5));
    expect(await store.get("view")).toEqual(bytes(1, 2));
    await set("arrays/a.zarr/text", "not bytes", raw);
    await expect(store.get("text")).rejects.toThrow(/not bytes/);
  });

  it("stores only the bytes of a view, not the buffer behind it", async () => {
    const database = freshDatabase();
    const big = new Uint8Array(1 << 20).fill(7);
    await new IdbStore({ database }).set("k", big.subarray(10, 14));
    const record = (await get("k", createStore(database, "zarrkit"))) as Uint8Array;
    expect(record.buffer.byteLength).toBe(4);
  });

  it("lists only its own keys, and no other application's", async () => {
    const database = freshDatabase();
    const a = new IdbStore({ database, prefix: "a" });
    const ab = new IdbStore({ database, prefix: "ab" });
    await a.set("x/1", bytes(1));
    await ab.set("x/2", bytes(2));
    await set(42, "someone else's", createStore(database, "zarrkit"));
    expect(await collect(a.list(""))).toEqual(["x/1"]);
    expect(await collect(ab.list("x/"))).toEqual(["x/2"]);
    expect(await collect(new IdbStore({ database }).list(""))).toEqual(["a/x/1", "ab/x/2"]);
    expect(await new IdbStore({ database }).listDir("")).toEqual({ keys: [], prefixes: ["a/", "ab/"] });
  });

  it("lists keys with characters at the edges of the key range", async () => {
    const store = new IdbStore({ database: freshDatabase() });
    const keys = ["p\uffff", "p\uffff/x", "p\uffffz", "q", "o\uffff", "p/\u{1F600}"];
    for (const key of keys) await store.set(key, bytes(1));
    expect(await collect(store.list("p\uffff"))).toEqual(["p\uffff", "p\uffff/x", "p\uffffz"]);
    expect(await collect(store.list("p"))).toEqual(["p/\u{1F600}", "p\uffff", "p\uffff/x", "p\uffffz"]);
  });

  it('honours ifNoneMatch: "*" and ifMatch against the version kept beside each value', async () => {
    const store = new IdbStore({ database: freshDatabase() });
    await store.set("k", bytes(1), { ifNoneMatch: "*" });
    await expect(store.set("k", bytes(2), { ifNoneMatch: "*" })).rejects.toBeInstanceOf(PreconditionFailedError);
    expect(await store.get("k")).toEqual(bytes(1));
    const { version } = (await store.getVersioned("k"))!;
    await expect(store.set("k", bytes(3), { ifMatch: "stale" })).rejects.toBeInstanceOf(PreconditionFailedError);
    expect(await store.get("k")).toEqual(bytes(1));
    await store.set("k", bytes(4), { ifMatch: version });
    expect(await store.get("k")).toEqual(bytes(4));
    expect((await store.getRangeWithSize("k", { suffixLength: 1 }))!.version).not.toBe(version);
    await expect(store.getRange("k", { offset: 0, length: 1 }, { ifMatch: version })).rejects.toBeInstanceOf(
      PreconditionFailedError,
    );
  });

  it(
    "keeps versions out of listings, and gives a value written before versions existed one on its " + "next write",
    async () => {
      const database = freshDatabase();
      const store = new IdbStore({ database });
      await set("old", bytes(5), createStore(database, "zarrkit")); // as an older zarrkit wrote it: bytes, no version
      await store.set("new", bytes(6));
      expect((await collect(store.list(""))).sort()).toEqual(["new", "old"]);
      expect(await store.listDir("")).toMatchObject({ keys: expect.arrayContaining(["new", "old"]), prefixes: [] });
      expect((await store.getRangeWithSize("old", { suffixLength: 1 }))!.version).toBeUndefined();
      const { version } = (await store.getVersioned("old"))!;
      await store.set("old", bytes(7), { ifMatch: version });
      expect((await store.getRangeWithSize("old", { suffixLength: 1 }))!.version).toEqual(expect.any(String));
      await store.delete("new");
      expect(await collect(store.list(""))).toEqual(["old"]);
    },
  );

  it("setMany writes all values in one transaction, or none", async () => {
    const store = new IdbStore({ database: freshDatabase() });
    await store.setMany([
      ["a/c/0", bytes(1)],
      ["a/c/1", bytes(2)],
      ["a/zarr.json", bytes(3)],
    ]);
    expect(await collect(store.list("a/"))).toEqual(["a/c/0", "a/c/1", "a/zarr.json"]);

    // A detached buffer cannot be cloned: the put of it throws after two others were queued.
    const detached = new Uint8Array(8);
    structuredClone(detached.buffer, { transfer: [detached.buffer] });
    const error = await store
      .setMany([
        ["a/c/0", bytes(9)],
        ["b/new", bytes(9)],
        ["a/c/1", detached],
      ])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(await store.get("a/c/0")).toEqual(bytes(1));
    expect(await store.get("b/new")).toBe(undefined);

    await expect(
      store.setMany([
        ["ok", bytes(1)],
        ["../bad", bytes(1)],
      ]),
    ).rejects.toMatchObject({ key: "../bad" });
    expect(await store.get("ok")).toBe(undefined);
  });

  it("reports a quota failure as QuotaExceededError naming the key", () => {
    const error = idbError("set c/0", "c/0", new DOMException("The quota has been exceeded.", "QuotaExceededError"));
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error).toMatchObject({ code: "QUOTA_EXCEEDED", key: "c/0" });
  });

  it("honours an AbortSignal", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      new IdbStore({ database: freshDatabase() }).get("k", { signal: controller.signal }),
    ).rejects.toMatchObject({ name: "AbortError" });
  });

  it("is what openStore returns for idb:// URLs", async () => {
    const database = freshDatabase();
    const store = await openStore(`idb://${database}/arrays/a.zarr`);
    expect(store).toBeInstanceOf(IdbStore);
    expect(store).toMatchObject({ database, prefix: "arrays/a.zarr/", objectStore: "zarrkit" });
    await store.set!("zarr.json", bytes(1));
    expect(await new IdbStore({ database, prefix: "arrays" }).get("a.zarr/zarr.json")).toEqual(bytes(1));
    await expect(openStore("idb:///no-database")).rejects.toThrow(/No database/);
  });

  it("refuses a prefix that is not a valid key path, as the S3 store does", () => {
    for (const prefix of ["a/../b", "a//b", "./a"]) {
      expect(() => new IdbStore({ database: freshDatabase(), prefix }), prefix).toThrow(StoreError);
    }
  });
});
