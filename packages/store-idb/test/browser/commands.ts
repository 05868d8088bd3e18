// Browser commands (run in Node by vitest, called from tests in the browser)
// that drive a separate page of the app in test/browser/app/, each in a fresh
// browser context: its own IndexedDB, quota and network state. A test page
// cannot reload itself under vitest; this one can.
// The playwright provider's types add `page` and `context` to BrowserCommandContext.
import type {} from "@vitest/browser-playwright";
import type { BrowserContext, Page } from "playwright";
import type { BrowserCommand, BrowserCommandContext } from "vitest/node";
import type { AppFunction } from "./app/app.js";

const pages = new Map<string, { context: BrowserContext; page: Page }>();
let opened = 0;

function appPage(id: string): Page {
  const entry = pages.get(id);
  if (!entry) throw new Error(`No app page ${id} is open`);
  return entry.page;
}

/** The app's origin: the vitest server the tests are served from. */
function origin(ctx: BrowserCommandContext): string {
  return new URL(ctx.page.url()).origin;
}

/** Wait for the app to be ready, reporting its errors if it never is. */
async function waitForApp(page: Page): Promise<void> {
  const errors: string[] = [];
  const onError = (error: Error) => errors.push(error.message);
  const onConsole = (message: { type(): string; text(): string }) => {
    if (message.type() === "error") errors.push(message.text());
  };
  page.on("pageerror", onError);
  page.on("console", onConsole);
  try {
    await page.waitForFunction(() => "app" in window, undefined, { timeout: 15_000 });
  } catch (error) {
    throw new Error(`The test app did not start: ${errors.join("; ") || String(error)}`);
  } finally {
    page.off("pageerror", onError);
    page.off("console", onConsole);
  }
}

/**
 * Open the app in a fresh context; `quotaBytes` overrides the origin's quota
 * before the app first touches IndexedDB (Chromium caches the space left per
 * origin, so an override made after that may go unnoticed).
 */
export const openApp: BrowserCommand<[quotaBytes?: number]> = async (ctx, quotaBytes) => {
  const context = await ctx.context.browser()!.newContext();
  const page = await context.newPage();
  if (quotaBytes !== undefined) {
    const session = await context.newCDPSession(page);
    await session.send("Storage.overrideQuotaForOrigin", { origin: origin(ctx), quotaSize: quotaBytes });
  }
  await page.goto(new URL("/test/browser/app/index.html", origin(ctx)).href);
  await waitForApp(page);
  const id = String(++opened);
  pages.set(id, { context, page });
  return id;
};

/** Call `window.app[name](...args)` in the app page; arguments and result go through JSON. */
export const callApp: BrowserCommand<[id: string, name: AppFunction, args: unknown[]]> = (_ctx, id, name, args) =>
  appPage(id).evaluate(
    ([n, a]) => (window as unknown as { app: Record<AppFunction, (...x: unknown[]) => unknown> }).app[n](...a),
    [name, args] as const,
  );

export const reloadApp: BrowserCommand<[id: string]> = async (_ctx, id) => {
  const page = appPage(id);
  await page.reload();
  await waitForApp(page);
};

/** Cut the app page off the network (requests fail as if offline), or reconnect it. */
export const setAppOffline: BrowserCommand<[id: string, offline: boolean]> = async (_ctx, id, offline) => {
  await pages.get(id)!.context.setOffline(offline);
};

export const closeApp: BrowserCommand<[id: string]> = async (_ctx, id) => {
  const entry = pages.get(id);
  pages.delete(id);
  await entry?.context.close();
};

export const appCommands = { openApp, callApp, reloadApp, setAppOffline, closeApp };
