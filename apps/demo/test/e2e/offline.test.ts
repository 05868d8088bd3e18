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
});
