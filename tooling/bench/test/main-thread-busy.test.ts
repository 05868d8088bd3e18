// The browser case's busy share of the page thread (src/browser/main-thread-busy.ts),
// in Chromium: work on the page's thread counts, waiting and a Web Worker's work do not.
// Skipped, with the reason printed, without /usr/bin/chromium, except on CI.
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { browserSkipReason, CHROMIUM } from "../src/browser/browser-page.js";
import { mainThreadBusy } from "../src/browser/main-thread-busy.js";
import type { BusyProbe } from "../src/contest.js";

const skipReason = browserSkipReason();
if (skipReason && process.env.CI) throw new Error(`the busy probe's test needs Chromium on CI: ${skipReason}`);
if (skipReason) console.log(`busy probe tests skipped: ${skipReason}`);

let browser: Browser | undefined;
let page: Page;
let probe: BusyProbe;

afterAll(async () => {
  await browser?.close();
});

/** The share the probe measures around `work`. */
async function shareDuring(work: () => Promise<unknown>): Promise<number> {
  const stop = await probe();
  await work();
  return stop();
}

describe.skipIf(skipReason !== undefined)("the page thread's busy share", () => {
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu"],
    });
    page = await browser.newPage();
    const devtools = await page.context().newCDPSession(page);
    await devtools.send("Performance.enable");
    probe = mainThreadBusy(devtools);
  });

  test("most of the time while the page's thread computes", async () => {
    // A second of work, so that the probe's own round trips (slow on a loaded machine) weigh little.
    const share = await shareDuring(() =>
      page.evaluate(() => {
        const end = performance.now() + 1000;
        while (performance.now() < end);
      }),
    );
    expect(share).toBeGreaterThan(0.6);
  });

  test("low while it waits, and while a Web Worker computes", async () => {
    const waiting = await shareDuring(() => page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 400))));
    const onWorker = await shareDuring(() =>
      page.evaluate(() => {
        const source = "const end = performance.now() + 400; while (performance.now() < end); postMessage(0);";
        const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));
        return new Promise((resolve) => worker.addEventListener("message", resolve));
      }),
    );
    expect(waiting).toBeLessThan(0.3);
    expect(onWorker).toBeLessThan(0.3);
  });
});
