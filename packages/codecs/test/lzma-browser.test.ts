// numcodecs.lzma and numcodecs.bz2 in Chromium, from an esbuild bundle of
// the whole codecs package for browsers (no Node built-in stubbed by hand,
// liblzma's and libbzip2's wasm loaded as chunks): xz and alone streams
// written by Python's lzma decode to their bytes, the cap holds, and xz,
// alone and bzip2 streams written in the page are Python's bytes. Skipped, with the
// reason printed, without /usr/bin/chromium or /usr/bin/python3, except on
// CI, where that fails.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readFile } from "node:fs/promises";
import { build } from "esbuild";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sampleBytes } from "./helpers.js";

const CHROMIUM = "/usr/bin/chromium";
const PYTHON = "/usr/bin/python3";
const missing = [CHROMIUM, PYTHON].filter((path) => !existsSync(path));
if (missing.length && process.env.CI)
  throw new Error(`the browser lzma test needs ${missing.join(", ")} on CI (tooling/ci/install-system-deps.sh)`);
const skipReason = missing.length ? `${missing.join(", ")} absent (tooling/ci/install-system-deps.sh)` : undefined;
if (skipReason) console.log(`lzma browser tests skipped: ${skipReason}`);

const ENTRY = fileURLToPath(new URL("./browser/lzma-page.ts", import.meta.url));
const CONDITIONS = ["@zarrkit/source", "browser", "module", "import", "default"];
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

const root = mkdtempSync(join(tmpdir(), "zarrkit-lzma-browser-"));
let browser: Browser | undefined;
let server: Server | undefined;
let url = "";
afterAll(async () => {
  await browser?.close();
  server?.close();
  rmSync(root, { recursive: true, force: true });
});

/** Python's lzma and bz2: `code` reads the input from stdin and writes the result to stdout. */
function python(code: string, input: Uint8Array): Uint8Array {
  const run = spawnSync(PYTHON, ["-c", `import bz2, lzma, sys; sys.stdout.buffer.write(${code})`], { input });
  if (run.status !== 0) throw new Error(`python3 ${code}: ${run.stderr.toString()}`);
  return new Uint8Array(run.stdout);
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

describe.skipIf(skipReason !== undefined)("numcodecs.lzma and numcodecs.bz2 in Chromium", () => {
  beforeAll(async () => {
    // No plugin and no alias: a Node built-in left in the codecs' import graph fails this build.
    await build({
      entryPoints: { main: ENTRY },
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "browser",
      conditions: CONDITIONS,
      outdir: root,
      logLevel: "error",
    });
    writeFileSync(join(root, "index.html"), '<!doctype html><script type="module" src="./main.js"></script>');
    server = createServer(async (request, response) => {
      const path = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname).replace(/^\/+/, "");
      const file = join(root, path);
      if (!existsSync(file) || path.includes("..")) return void response.writeHead(404).end();
      response
        .writeHead(200, { "content-type": extname(file) === ".html" ? "text/html" : "text/javascript" })
        .end(await readFile(file));
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });

  test("Python's xz and alone decode, the cap holds, the page writes Python's xz, alone and bzip2 bytes", async () => {
    const page = await browser!.newPage();
    try {
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(`${url}index.html`);
      await page.waitForFunction(() => "lzma" in window, undefined, { timeout: 15_000 });
      type Lzma = {
        decode(format: number, stream: string, cap: number): Promise<string>;
        encode(data: string, format: number, preset: number): Promise<string>;
        bz2(data: string, level: number): Promise<string>;
      };
      const decode = (format: number, stream: Uint8Array, cap: number) =>
        page.evaluate(([f, s, c]) => (window as unknown as { lzma: Lzma }).lzma.decode(f, s, c), [
          format,
          b64(stream),
          cap,
        ] as const);

      const data = sampleBytes(200_000, "smooth", 4);
      const xz = python("lzma.compress(sys.stdin.buffer.read(), check=lzma.CHECK_CRC64)", data);
      const alone = python("lzma.compress(sys.stdin.buffer.read(), format=lzma.FORMAT_ALONE)", data);
      expect(await decode(1, xz, data.length)).toBe(b64(data));
      expect(await decode(2, alone, data.length)).toBe(b64(data));
      expect(await decode(0, alone, data.length)).toBe(b64(data));
      expect(await decode(1, xz, data.length - 1)).toMatch(/^CorruptDataError: .*page\/c\/0.*199999/);
      expect(await decode(2, alone, data.length - 1)).toMatch(/^CorruptDataError: .*page\/c\/0.*199999/);

      const lzma = (format: number, preset: number) =>
        page.evaluate(([d, f, p]) => (window as unknown as { lzma: Lzma }).lzma.encode(d, f, p), [
          b64(data),
          format,
          preset,
        ] as const);
      expect(await lzma(1, 6)).toBe(b64(xz));
      expect(await lzma(2, 6)).toBe(b64(alone));
      const bz2 = await page.evaluate(([d]) => (window as unknown as { lzma: Lzma }).lzma.bz2(d, 9), [
        b64(data),
      ] as const);
      expect(bz2).toBe(b64(python("bz2.compress(sys.stdin.buffer.read(), 9)", data)));
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
