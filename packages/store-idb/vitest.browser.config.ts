import { existsSync } from "node:fs";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";
import { appCommands } from "./test/browser/commands.js";

// Tests in Debian's Chromium (apt-get install chromium): playwright's own
// browser download is not possible here, so its executable is given.
const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// Without Chromium the browser tests are skipped with a reason, except on CI, where that is a failure.
const haveChromium = existsSync(executablePath);
if (!haveChromium) {
  const reason = `${executablePath} not found; run tooling/ci/install-system-deps.sh (or set CHROMIUM_PATH)`;
  if (process.env.CI === "true") throw new Error(`The browser tests need Chromium on CI: ${reason}.`);
  console.warn(`\n[store-idb] Skipping the tests in Chromium: ${reason}.\n`);
}

// Browser conditions instead of the shared config's "node", so "zarrkit" resolves to its browser entry.
const conditions = ["@zarrkit/source", "module", "browser", "import", "default"];

export default defineConfig({
  resolve: { conditions },
  // Pre-bundled up front: found mid-run, vite reloads the page and a test fails.
  optimizeDeps: { include: ["idb-keyval", "@zarrkit/crc32c > hash-wasm"] },
  test: {
    include: haveChromium ? ["test/browser/**/*.test.ts"] : [],
    passWithNoTests: !haveChromium,
    testTimeout: 30_000,
    browser: {
      enabled: haveChromium,
      headless: true,
      // Failures are reported in text; no screenshot files in the work tree.
      screenshotFailures: false,
      api: { host: "127.0.0.1" },
      provider: playwright({ launchOptions: { executablePath, args: chromiumArgs } }),
      instances: [{ browser: "chromium" }],
      commands: appCommands,
    },
  },
});
