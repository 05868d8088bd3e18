import { zarrkitVitestConfig } from "@zarrkit/config/vitest";
import { defineConfig } from "vitest/config";

// Most tests run the CLI as child processes, a second or more each: on a loaded 2-core runner a test of ten of them
// takes several times its idle 10 s.
export default defineConfig(zarrkitVitestConfig({ testTimeout: 120_000 }));
