// The zstd codec in Chromium, bundled by esbuild and by Vite with no
// configuration for the wasm: frames of the zstd CLI decode to their bytes,
// the cap holds, frames written in the page decode with the CLI, and each
// wasm module is a chunk of its own, fetched only when first needed
// (decoder on the first decode, encoder on the first encode). Skipped, with
// the reason printed, without /usr/bin/chromium or /usr/bin/zstd, except on
// CI, where that fails.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build as esbuild } from "esbuild";
import { type Browser, chromium } from "playwright-core";
import { build as viteBuild } from "vite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sampleBytes } from "./helpers.js";

const CHROMIUM = "/usr/bin/chromium";
const ZSTD = "/usr/bin/zstd";
const missing = [CHROMIUM, ZSTD].filter((path) => !existsSync(path));
if (missing.length && process.env.CI)
  throw new Error(`the browser zstd test needs ${missing.join(", ")} on CI (tooling/ci/install-system-deps.sh)`);
const skipReason = missing.length ? `${missing.join(", ")} absent (tooling/ci/install-system-deps.sh)` : undefined;
if (skipReason) console.log(`zstd browser tests skipped: ${skipReason}`);

const ENTRY = fileURLToPath(new URL("./browser/zstd-page.ts", import.meta.url));
const DECODER = fileURLToPath(new URL("../src/zstd/zstd-decode-wasm.ts", import.meta.url));
const ENCODER = fileURLToPath(new URL("../src/zstd/zstd-encode-wasm.ts", import.meta.url));
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

const root = mkdtempSync(join(tmpdir(), "zarrkit-zstd-browser-"));
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
  rmSync(root, { recursive: true, force: true });
});

/** A distinctive slice of a generated module's base64, to find the chunk that carries it. */
function marker(module: string): string {
  const text = readFileSync(module, "utf8");
  const start = text.indexOf('"') + 1000;
  return text.slice(start, start + 64);
}

async function bundle(bundler: "esbuild" | "vite"): Promise<{ dir: string; main: string }> {
  const dir = join(root, bundler);
  if (bundler === "esbuild") {
    await esbuild({
      entryPoints: { main: ENTRY },
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "browser",
      conditions: CONDITIONS,
      outdir: dir,
      logLevel: "error",
    });
  } else {
    await viteBuild({
      configFile: false,
      logLevel: "error",
      root: dir,
      resolve: { conditions: CONDITIONS },
      build: {
        outDir: dir,
        emptyOutDir: true,
        minify: false,
        rollupOptions: {
          input: ENTRY,
          output: { entryFileNames: "main.js", chunkFileNames: "[name]-[hash].js", format: "es" },
        },
      },
    });
  }
  writeFileSync(join(dir, "index.html"), '<!doctype html><script type="module" src="./main.js"></script>');
  return { dir, main: "main.js" };
}

/** Serves `dir` on 127.0.0.1 and records the paths requested. */
async function serve(dir: string): Promise<{ server: Server; url: string; requested: string[] }> {
  const requested: string[] = [];
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname).replace(/^\/+/, "");
    requested.push(path);
    const file = join(dir, path);
    if (!existsSync(file) || path.includes("..")) return void response.writeHead(404).end();
    response
      .writeHead(200, { "content-type": extname(file) === ".html" ? "text/html" : "text/javascript" })
      .end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requested };
}

function cli(args: string[], input: Uint8Array): Uint8Array {
  const run = spawnSync(ZSTD, ["-q", "-c", ...args], { input });
  if (run.status !== 0) throw new Error(`zstd ${args.join(" ")}: ${run.stderr.toString()}`);
  return new Uint8Array(run.stdout);
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

describe.skipIf(skipReason !== undefined)("zstd in Chromium", () => {
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });

  test.each(["esbuild", "vite"] as const)(
    "bundled by %s: lazy wasm chunks, CLI frames decode, the cap holds, our frames decode with the CLI",
    async (bundler) => {
      const { dir } = await bundle(bundler);
      const chunks = readdirSync(dir).filter((name) => name.endsWith(".js"));
      const holding = (module: string) =>
        chunks.filter((name) => readFileSync(join(dir, name), "utf8").includes(marker(module)));
      const [decoderChunk] = holding(DECODER);
      const [encoderChunk] = holding(ENCODER);
      expect(holding(DECODER)).toHaveLength(1);
      expect(holding(ENCODER)).toHaveLength(1);
      expect([decoderChunk, encoderChunk]).not.toContain("main.js");
      expect(decoderChunk).not.toBe(encoderChunk);

      const { server, url, requested } = await serve(dir);
      const page = await browser!.newPage();
      try {
        const errors: string[] = [];
        page.on("pageerror", (error) => errors.push(error.message));
        await page.goto(`${url}index.html`);
        await page.waitForFunction(() => "zstd" in window, undefined, { timeout: 15_000 });
        expect(errors).toEqual([]);
        expect(requested).not.toContain(decoderChunk);

        const data = sampleBytes(300_000, "smooth", 4);
        const decode = (frame: Uint8Array, cap: number) =>
          page.evaluate(
            ([f, c]) =>
              (window as unknown as { zstd: { decode(f: string, c: number): Promise<string> } }).zstd.decode(f, c),
            [b64(frame), cap] as const,
          );
        for (const args of [["-3"], ["--fast=7"], ["-19", "--no-check"], ["--long", "-1"]]) {
          expect(await decode(cli(args, data), data.length)).toBe(b64(data));
        }
        expect(requested).toContain(decoderChunk);
        expect(requested).not.toContain(encoderChunk);
        expect(await decode(cli(["-3"], data), data.length - 1)).toMatch(
          /^CorruptDataError: zstd: cannot decode page\/c\/0: .*more than 299999 bytes/,
        );

        const written = await page.evaluate(
          ([d]) =>
            (window as unknown as { zstd: { encode(d: string, l: number, c: boolean): Promise<string> } }).zstd.encode(
              d,
              -3,
              true,
            ),
          [b64(data)] as const,
        );
        expect(requested).toContain(encoderChunk);
        expect(Buffer.compare(cli(["-d"], Buffer.from(written, "base64")), data)).toBe(0);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
        server.close();
      }
    },
  );
});
