import { zarrkitVitestConfig } from "@zarrkit/config/vitest";
import { defineConfig } from "vitest/config";

// Node tests; the tests in a real browser run with vitest.browser.config.ts.
export default defineConfig(zarrkitVitestConfig({ include: ["test/*.test.ts"] }));
