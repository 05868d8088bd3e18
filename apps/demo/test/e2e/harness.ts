// The end-to-end setting: sample data written by the demo's own generator into
// a temporary folder (plus a copy with a damaged shard), the production build
// served by the demo's server, and Debian's Chromium through playwright-core.
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { writeSamples } from "../../server/samples.js";
import { type ServedRequest, serve, serverUrl } from "../../server/serve.js";

export const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const appDir = fileURLToPath(new URL("../../dist/app", import.meta.url));
export const screenshotDir = fileURLToPath(new URL("../../test-output", import.meta.url));

/** Why the browser tests cannot run here, or undefined when they can. On CI a missing browser is a failure. */
export function skipReason(): string | undefined {
  if (existsSync(executablePath)) return undefined;
  const reason = `${executablePath} not found; run tooling/ci/install-system-deps.sh (or set CHROMIUM_PATH)`;
  if (process.env.CI === "true") throw new Error(`The demo's browser tests need Chromium on CI: ${reason}.`);
  console.warn(`\n[demo] Skipping the tests in Chromium: ${reason}.\n`);
  return reason;
}

export interface Demo {
  base: string;
  dataDir: string;
  browser: Browser;
  /** Requests the server answered, in order. */
  requests: ServedRequest[];
  close(): Promise<void>;
}

/** The key whose shard index (the last bytes, under a crc32c) is damaged in /data/corrupt.zarr. */
export const CORRUPT_KEY = "c/0/0/0";

export async function startDemo(): Promise<Demo> {
  if (!existsSync(join(appDir, "index.html")))
    throw new Error(`${appDir} has no build: run the demo's build (turbo runs it before its tests)`);
  const root = await mkdtemp(join(tmpdir(), "zarrkit-demo-e2e-"));
  const dataDir = join(root, "data");
  await writeSamples(dataDir);
  await cp(join(dataDir, "volume.zarr", "sharded"), join(dataDir, "corrupt.zarr"), { recursive: true });
  const shard = join(dataDir, "corrupt.zarr", ...CORRUPT_KEY.split("/"));
  const bytes = await readFile(shard);
  bytes[bytes.length - 10]! ^= 0xff;
  await writeFile(shard, bytes);
  const requests: ServedRequest[] = [];
  let server: Server | undefined;
  let browser: Browser | undefined;
  try {
    server = await serve({ appDir, dataDir, port: 0, onRequest: (r) => requests.push(r) });
    browser = await chromium.launch({
      executablePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    });
  } catch (error) {
    server?.close();
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  await mkdir(screenshotDir, { recursive: true });
  const openServer = server;
  const openBrowser = browser;
  return {
    base: serverUrl(server),
    dataDir,
    browser,
    requests,
    async close() {
      await openBrowser.close();
      await new Promise((done) => openServer.close(done));
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** A page in a fresh context: 1280x900 CSS pixels at a device pixel ratio of 1. */
export async function newPage(demo: Demo): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await demo.browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return { context, page, errors };
}

/** Wait until #view is ready (or in error) for the slice `at` (when given). */
export async function settled(page: Page, at?: string): Promise<string> {
  await page.waitForFunction(
    (want) => {
      const view = document.querySelector<HTMLElement>("#view");
      const state = view?.dataset.state;
      return (state === "ready" || state === "error") && (want === null || view!.dataset.at === want);
    },
    at ?? null,
    { timeout: 20_000 },
  );
  return page.evaluate(() => document.querySelector<HTMLElement>("#view")!.dataset.state!);
}

export function sourceUrl(base: string, source: string, params: Record<string, string> = {}): string {
  return `${base}/?${new URLSearchParams({ source, ...params }).toString()}`;
}
