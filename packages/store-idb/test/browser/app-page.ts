import { commands } from "vitest/browser";
import type { AppFunction } from "./app/app.js";

declare module "vitest/browser" {
  interface BrowserCommands {
    openApp(quotaBytes?: number): Promise<string>;
    callApp(id: string, name: AppFunction, args: unknown[]): Promise<unknown>;
    reloadApp(id: string): Promise<void>;
    setAppOffline(id: string, offline: boolean): Promise<void>;
    closeApp(id: string): Promise<void>;
  }
}

/** The test app (test/browser/app/) open in a page of its own, in a fresh browser context. */
export class AppPage {
  private constructor(private readonly id: string) {}

  /** `quotaBytes`: the origin's storage quota in that context. */
  static async open(quotaBytes?: number): Promise<AppPage> {
    return new AppPage(await commands.openApp(quotaBytes));
  }

  call<T>(name: AppFunction, ...args: unknown[]): Promise<T> {
    return commands.callApp(this.id, name, args) as Promise<T>;
  }

  reload(): Promise<void> {
    return commands.reloadApp(this.id);
  }

  setOffline(offline: boolean): Promise<void> {
    return commands.setAppOffline(this.id, offline);
  }

  close(): Promise<void> {
    return commands.closeApp(this.id);
  }
}
