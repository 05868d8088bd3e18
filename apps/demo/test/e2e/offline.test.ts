import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as zk from "zarrkit";
import { type Demo, newPage, screenshotDir, settled, skipReason, sourceUrl, startDemo } from "./harness.js";
import { decodePng } from "./png.js";

const skip = skipReason();
const [LO, HI, Z] = [1000, 40000, 40];
const gray = (v: number) => Math.round((255 * (Math.min(HI, Math.max(LO, v)) - LO)) / (HI - LO));
const VIEW = { at: String(Z), contrast: `${LO},${HI}`, colormap: "gray", zoom: "1" };

describe.skipIf(skip)("offline in Chromium", () => {
  let demo: Demo;
  let slice: Uint16Array;

  beforeAll(async () => {
    demo = await startDemo();
    const store = await zk.openStore(pathToFileURL(join(demo.dataDir, "volume.zarr")).href);
    slice = (await (await zk.openArray(store, "sharded")).get([Z, null, null])).data as Uint16Array;
  });
  afterAll(async () => {
    await demo?.close();
  });

  it("saves an array, is cancelled, resumes after a reload, then loads and shows it with no network", async () => {
    const { context, page, errors } = await newPage(demo);
    await page.goto(sourceUrl(demo.base, "/data/volume.zarr/sharded", VIEW));
    expect(await settled(page)).toBe("ready");
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

    // Slow shard downloads, so the copy can be cancelled half way.
    await page.route("**/data/volume.zarr/sharded/c/**", async (route) => {
      await new Promise((done) => setTimeout(done, 300));
      // A request the cancel aborted meanwhile is already handled.
      await route.continue().catch((error: Error) => expect(error.message).toMatch(/already handled/));
    });
    await page.getByRole("button", { name: "Save for offline", exact: true }).click();
    const status = page.locator("#save-status");
    // zarr.json and 8 shards; ETA shown once a shard is in.
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/[3-8] of 9 keys, about \d+ s left/);
    await page.getByRole("button", { name: "Cancel", exact: true }).click();
    await expect.poll(() => status.textContent()).toMatch(/Cancelled/);
    await page.unroute("**/data/volume.zarr/sharded/c/**");

    await page.reload();
    expect(await settled(page)).toBe("ready");
    await expect.poll(() => page.locator("#saved").textContent()).toMatch(/incomplete/);
    demo.requests.length = 0;
    await page.getByRole("button", { name: "Resume", exact: true }).click();
    const link = page.locator('#saved a[href*="source=idb%3A%2F%2F"]');
    await link.waitFor({ timeout: 20_000 });
    // Only what the cancelled run had not copied was fetched again.
    const shardsFetched = demo.requests.filter((r) => /\/sharded\/c\//.test(r.path) && !r.range).length;
    expect(shardsFetched).toBeGreaterThan(0);
    expect(shardsFetched).toBeLessThan(8);
    expect(await page.locator("#saved").textContent()).toMatch(/\d+(\.\d)? (KiB|MiB)/);

    const saved = new URL((await link.getAttribute("href"))!, page.url());
    for (const [name, value] of Object.entries(VIEW)) saved.searchParams.set(name, value);
    await context.setOffline(true);
    await page.goto(saved.href);
    expect(await settled(page)).toBe("ready");
    const png = await page.locator("#view").screenshot({ path: join(screenshotDir, "offline.png") });
    const pixels = decodePng(png);
    const wrong: string[] = [];
    for (let r = 0; r < 256; r++) {
      for (let c = 0; c < 256; c++) {
        const got = pixels.rgba[(r * pixels.width + c) * 4];
        if (got !== gray(slice[r * 256 + c]!) && wrong.length < 5) wrong.push(`(${r}, ${c}): ${got}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(errors).toEqual([]);

    // Deleting removes it from the list (and its records).
    await context.setOffline(false);
    await page.getByRole("button", { name: /^Delete / }).click();
    await expect.poll(() => page.locator("#saved").textContent()).toBe("Nothing saved yet.");
    await context.close();
  });

  it(
    "paints annotations into a sharded uint8 array in IndexedDB, shown over the image and still there after " +
      "a reload",
    async () => {
      const { context, page, errors } = await newPage(demo);
      const view = page.locator("#view");
      await page.goto(sourceUrl(demo.base, "/data/volume.zarr/sharded", VIEW));
      expect(await settled(page)).toBe("ready");
      await expect.poll(() => view.getAttribute("data-annotations")).toBe("loaded");
      await page.getByLabel("Paint annotations").check();
      const box = (await view.boundingBox())!;
      await page.mouse.move(box.x + 40, box.y + 200);
      await page.mouse.down();
      await page.mouse.move(box.x + 120, box.y + 200, { steps: 16 });
      await page.mouse.up();
      await expect.poll(() => view.getAttribute("data-annotations")).toBe("saved");

      // In IndexedDB: a sharded array, written in part (the stroke's shard only).
      const records = await page.evaluate(async () => {
        const db = await new Promise<IDBDatabase>((done, fail) => {
          const request = indexedDB.open("zarrkit-demo");
          request.onsuccess = () => done(request.result);
          request.onerror = () => fail(request.error);
        });
        const store = db.transaction("zarrkit").objectStore("zarrkit");
        const keys = await new Promise<IDBValidKey[]>((done) => {
          const request = store.getAllKeys();
          request.onsuccess = () => done(request.result);
        });
        const names = keys.map(String).filter((k) => k.startsWith("annotations/") && !k.includes("\0"));
        const metadata = names.find((k) => k.endsWith("/zarr.json"))!;
        const value = await new Promise<Uint8Array>((done) => {
          const request = store.get(metadata);
          request.onsuccess = () => done(request.result as Uint8Array);
        });
        return {
          names: names.map((k) => k.split("/").slice(2).join("/")).sort(),
          metadata: new TextDecoder().decode(value),
        };
      });
      // Shards of 128 x 128 x 128 (4 x 4 x 4 inner chunks of 32): z 40 in 0, row 200 in 1, columns 37..123 in 0.
      expect(records.names).toEqual(["c/0/1/0", "zarr.json"]);
      expect(JSON.parse(records.metadata).codecs[0].name).toBe("sharding_indexed");

      await page.reload();
      expect(await settled(page)).toBe("ready");
      await expect.poll(() => view.getAttribute("data-annotations")).toBe("loaded");
      const pixels = decodePng(await view.screenshot({ path: join(screenshotDir, "annotations.png") }));
      const at = (r: number, c: number) => [
        ...pixels.rgba.subarray((r * pixels.width + c) * 4, (r * pixels.width + c) * 4 + 3),
      ];
      const [red, green] = at(200, 80);
      expect(red! - green!).toBeGreaterThan(100);
      const untouched = gray(slice[100 * 256 + 80]!);
      expect(at(100, 80)).toEqual([untouched, untouched, untouched]);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
