// src/numcodecs/xz-wasm.ts is xz-decompress's wasm, byte for byte: the
// generator, run in --check mode, fails if it differs.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

test("the committed xz wasm module is the one xz-decompress ships", () => {
  const script = fileURLToPath(new URL("../scripts/xz-wasm.mjs", import.meta.url));
  const run = spawnSync(process.execPath, [script, "--check"], { encoding: "utf8" });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
});
