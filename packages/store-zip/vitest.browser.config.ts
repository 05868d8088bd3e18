import { existsSync } from "node:fs";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";

// Tests in Debian's Chromium (apt-get install chromium), as @zarrkit/store-idb runs them: playwright's own
// browser download is not possible here, so its executable is given.
const chromiumArgs = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"];

const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// Without Chromium the browser tests are skipped with a reason, except on CI, where that is a failure.
const haveChromium = existsSync(executablePath);
if (!haveChromium) {
  const reason = `${executablePath} not found; run tooling/ci/install-system-deps.sh (or set CHROMIUM_PATH)`;
  if (process.env.CI === "true") throw new Error(`The browser tests need Chromium on CI: ${reason}.`);
  console.warn(`\n[store-zip] Skipping the tests in Chromium: ${reason}.\n`);
}

// Browser conditions instead of the shared config's "node": the package's browser graph, no Node built-ins.
const conditions = ["@zarrkit/source", "module", "browser", "import", "default"];

export default defineConfig({
  resolve: { conditions },
  // Pre-bundled up front: found mid-run, vite reloads the page and a test fails.
  optimizeDeps: { include: ["fflate", "@zarrkit/crc32c > hash-wasm"] },
  test: {
    include: haveChromium ? ["test/browser/**/*.test.ts"] : [],
    passWithNoTests: !haveChromium,
    testTimeout: 30_000,
    browser: {
      enabled: haveChromium,
      headless: true,
      screenshotFailures: false,
      api: { host: "127.0.0.1" },
      provider: playwright({ launchOptions: { executablePath, args: chromiumArgs } }),
      instances: [{ browser: "chromium" }],
    },
  },
});
