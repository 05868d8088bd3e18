import { zarrkitVitestConfig } from "@zarrkit/config/vitest";
import { defineConfig } from "vitest/config";

// API Extractor builds a TypeScript program per entry point: seconds each on a busy machine.
export default defineConfig(zarrkitVitestConfig({ testTimeout: 120_000 }));
