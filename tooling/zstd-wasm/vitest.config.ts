import { zarrkitVitestConfig } from "@zarrkit/config/vitest";
import { defineConfig } from "vitest/config";

export default defineConfig(zarrkitVitestConfig({ testTimeout: 240_000 }));
