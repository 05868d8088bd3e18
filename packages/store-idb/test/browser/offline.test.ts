import { afterEach, describe, expect, it } from "vitest";
import { AppPage } from "./app-page.js";

interface ReadBack {
  block: number[];
  all: number[];
  blockRequests: { method: string; key: string; range?: unknown }[];
}

describe("an offline app in Chromium", () => {
  let app: AppPage | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it("writes a sharded array to IndexedDB, reloads the page, and reads it back without the network", async () => {
    app = await AppPage.open();
    expect(await app.call("online")).toBe(true);
    const keys = await app.call<string[]>("writeArray", "offline-app");
    // zarr.json of the array and of its parent group, and four shards.
    expect(keys).toEqual([
      "a.zarr/c/0/0",
      "a.zarr/c/0/1",
      "a.zarr/c/1/0",
      "a.zarr/c/1/1",
      "a.zarr/zarr.json",
      "zarr.json",
    ]);

    await app.reload();
    // Opening loads the codecs the array needs; from then on the page is offline.
    await app.call("openArray", "offline-app");
    await app.setOffline(true);
    expect(await app.call("online"), "the page is cut off from its server").toBe(false);
    const read = await app.call<ReadBack>("readArray");

    expect(read.all).toEqual(Array.from({ length: 64 * 64 }, (_, i) => i));
    expect(read.block).toEqual(Array.from({ length: 64 }, (_, i) => (40 + Math.floor(i / 8)) * 64 + 8 + (i % 8)));
    // The shard index, then the one inner chunk: ranged reads (each served from the whole record).
    expect(read.blockRequests.map((r) => [r.method, r.key])).toEqual([
      ["getRangeWithSize", "a.zarr/c/1/0"],
      ["getRange", "a.zarr/c/1/0"],
    ]);
  });
});
