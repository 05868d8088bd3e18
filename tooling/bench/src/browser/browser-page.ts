import { existsSync } from "node:fs";
import { type Browser, type CDPSession, chromium, type Page } from "playwright-core";
import type { BusyProbe } from "../contest.js";
import { mainThreadBusy } from "./main-thread-busy.js";
import type { BrowserPeer, PageApi, PageFacts, PageRead } from "./page.js";

export const CHROMIUM = "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--js-flags=--expose-gc",
];

/** Why the browser case cannot run here, or undefined when it can. */
export function browserSkipReason(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `${CHROMIUM} absent (tooling/ci/install-system-deps.sh installs it)`;
}

/** The benchmark page (page.ts) open in Chromium; each method runs the page's function of the same name. */
export class BrowserPage {
  private constructor(
    private readonly browser: Browser,
    private readonly page: Page,
    /** Errors the page threw outside any call (a failed worker, a bad bundle). */
    readonly errors: string[],
    /** A DevTools protocol session on the page, its Performance metrics on. */
    private readonly devtools: CDPSession,
  ) {}

  /** Chromium on `url` (served with COOP/COEP), once the page's bundle has loaded. */
  static async open(url: string): Promise<BrowserPage> {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      // Warnings too: zarrkit warns when work meant for its workers falls back to the page's thread.
      page.on("console", (message) => {
        if (message.type() === "warning" || message.type() === "error") errors.push(message.text());
      });
      await page.goto(url);
      await page.waitForFunction(() => "bench" in globalThis, undefined, { timeout: 30_000 });
      const devtools = await page.context().newCDPSession(page);
      await devtools.send("Performance.enable");
      return new BrowserPage(browser, page, errors, devtools);
    } catch (error) {
      await browser.close();
      throw error;
    }
  }

  private call<T>(name: keyof PageApi, ...args: unknown[]): Promise<T> {
    return this.page.evaluate(
      ([fn, rest]) =>
        (globalThis as unknown as { bench: Record<string, (...a: unknown[]) => unknown> }).bench[fn]!(...rest),
      [name, args] as const,
    ) as Promise<T>;
  }

  prepare(peer: BrowserPeer, base: string, path: string): Promise<void> {
    return this.call("prepare", peer, base, path);
  }

  read(peer: BrowserPeer, checkSize?: number): Promise<PageRead> {
    return this.call("read", peer, checkSize);
  }

  fetchOnly(base: string, keys: string[]): Promise<number> {
    return this.call("fetchOnly", base, keys);
  }

  facts(): Promise<PageFacts> {
    return this.call("facts");
  }

  collect(): Promise<void> {
    return this.call("collect");
  }

  /** The page thread's busy share during a run (see main-thread-busy.ts). */
  get busy(): BusyProbe {
    return mainThreadBusy(this.devtools);
  }

  version(): string {
    return this.browser.version();
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}
