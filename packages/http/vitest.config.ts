import { zarrkitVitestConfig } from "@zarrkit/config/vitest";
import { defineConfig } from "vitest/config";

export default defineConfig(zarrkitVitestConfig());
