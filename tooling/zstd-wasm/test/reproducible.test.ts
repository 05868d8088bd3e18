// The committed WebAssembly (zstd, Blosc, bzip2, xz) is what the vendored sources build to: the
// vendored files match their recorded checksums, and a rebuild with the
// pinned Debian toolchain gives the committed modules byte for byte. Needs
// clang-14, lld-14 and wasi-libc (tooling/ci/install-system-deps.sh): in CI
// their absence fails the test, elsewhere it skips with the reason printed.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, test } from "vitest";
import { toolchainMissing } from "./toolchain.js";

const here = fileURLToPath(new URL("..", import.meta.url));
const codecs = join(here, "..", "..", "packages", "codecs");
/** Each module, and where its base64 module lives in @zarrkit/codecs. */
const MODULES: [string, string][] = [
  ["zstd-decode", "src/zstd"],
  ["zstd-encode", "src/zstd"],
  ["blosc-decode", "src/blosc"],
  ["bz2-decode", "src/numcodecs"],
  ["bz2-encode", "src/numcodecs"],
  ["xz-decode", "src/numcodecs"],
  ["xz-encode", "src/numcodecs"],
];
const VENDORED = ["zstd", "zstd-encoder", "c-blosc", "lz4", "bzip2", "xz"];

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

const skipReason = toolchainMissing("wasm rebuild");

const out = mkdtempSync(join(tmpdir(), "zarrkit-zstd-wasm-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

test.each(VENDORED)("the vendored %s sources match their SHA256SUMS", (name) => {
  const vendor = join(here, "vendor", name);
  const lines = readFileSync(join(vendor, "SHA256SUMS"), "utf8").trim().split("\n");
  expect(lines.length).toBeGreaterThan(5);
  for (const line of lines) {
    const [hash, path] = line.split(/ +/) as [string, string];
    expect(`${sha256(readFileSync(join(vendor, path)))} ${path}`).toBe(`${hash} ${path}`);
  }
});

test.skipIf(skipReason !== undefined)("a rebuild gives the committed .wasm and base64 modules byte for byte", () => {
  const build = spawnSync("bash", [join(here, "build.sh"), "--out", out], { encoding: "utf8" });
  expect(build.stderr).toBe("");
  expect(build.status).toBe(0);
  for (const [name, dir] of MODULES) {
    const rebuilt = readFileSync(join(out, `${name}.wasm`));
    expect(`${name}.wasm ${sha256(rebuilt)}`).toBe(
      `${name}.wasm ${sha256(readFileSync(join(codecs, "wasm", `${name}.wasm`)))}`,
    );
    expect(readFileSync(join(out, `${name}-wasm.ts`), "utf8")).toBe(
      readFileSync(join(codecs, dir, `${name}-wasm.ts`), "utf8"),
    );
  }
});
