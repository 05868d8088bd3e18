import { zarrkitVitestConfig } from "@zarrkit/config/vitest";
import { defineConfig } from "vitest/config";

// Packing, installing and the consumer's own runs take a while on a busy machine.
export default defineConfig(
  zarrkitVitestConfig({
    include: ["test/**/*.test.ts"],
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 240_000,
  }),
);
