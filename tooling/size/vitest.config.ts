import { zarrkitVitestConfig } from "@zarrkit/config/vitest";
import { defineConfig } from "vitest/config";

// Bundling takes a while on a busy machine.
export default defineConfig(zarrkitVitestConfig({ testTimeout: 120_000 }));
