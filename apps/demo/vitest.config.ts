import { zarrkitVitestConfig } from "@zarrkit/config/vitest";
import { defineConfig } from "vitest/config";

// Unit tests of the app's logic and server, and the end-to-end tests in Chromium
// against the production build (test/e2e/), which turbo builds before `test`.
// One file at a time: each end-to-end file runs its own server and browser, and
// CI has two cores.
export default defineConfig(
  zarrkitVitestConfig({
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  }),
);
