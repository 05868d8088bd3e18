import { zarrkitVitestConfig } from "@zarrkit/config/vitest";
import { defineConfig } from "vitest/config";

// Hooks build wasm (bitstream64's reference decoder) while the other file rebuilds all seven modules on the same cores.
export default defineConfig(zarrkitVitestConfig({ testTimeout: 240_000, hookTimeout: 240_000 }));
