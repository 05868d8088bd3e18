// Codec workers in Chromium with the default settings: a page bundled by Vite
// (which emits the worker from `new Worker(new URL(...))`) and by esbuild (with
// zarrkit/codec-worker as a second entry, as the README says) reads a sharded
// zstd array over HTTP; its inner chunks decode on a worker, which the server
// saw loaded, and the values are right. Without the worker file (a 404), the
// page decodes everything itself, warns once and still reads the right values.
// Skipped, with the reason printed, without /usr/bin/chromium, except on CI.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build as esbuild } from "esbuild";
import { type Browser, chromium } from "playwright-core";
import { build as viteBuild } from "vite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as zk from "../src/node.js";
import { expectedValue } from "./browser/expected-value.js";

const CHROMIUM = "/usr/bin/chromium";
if (!existsSync(CHROMIUM) && process.env.CI)
  throw new Error(`the browser worker test needs ${CHROMIUM} on CI (tooling/ci/install-system-deps.sh)`);
const skipReason = existsSync(CHROMIUM) ? undefined : `${CHROMIUM} absent (tooling/ci/install-system-deps.sh)`;
if (skipReason) console.log(`browser codec worker tests skipped: ${skipReason}`);

const PAGE = fileURLToPath(new URL("./browser/read-page.ts", import.meta.url));
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
/** Two shards of four 32 x 64 x 64 uint16 inner chunks (256 KiB decoded: above the worker threshold). */
const SHAPE = [256, 64, 64];
const INNER = [32, 64, 64];

const root = mkdtempSync(join(tmpdir(), "zarrkit-browser-workers-"));
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
  rmSync(root, { recursive: true, force: true });
});

type Bundler = "vite" | "esbuild" | "esbuild without the worker entry";

async function bundle(bundler: Bundler): Promise<string> {
  const dir = join(root, bundler.replaceAll(" ", "-"));
  if (bundler === "vite") {
    await viteBuild({
      configFile: false,
      logLevel: "error",
      root: dir,
      base: "./",
      resolve: { conditions: CONDITIONS },
      worker: { format: "es" },
      build: {
        outDir: dir,
        emptyOutDir: true,
        minify: false,
        rollupOptions: { input: PAGE, output: { entryFileNames: "main.js", format: "es" } },
      },
    });
  } else {
    const entryPoints: Record<string, string> = { main: PAGE };
    if (bundler === "esbuild") entryPoints["codec-worker"] = "zarrkit/codec-worker";
    await esbuild({
      entryPoints,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "browser",
      conditions: CONDITIONS,
      outdir: dir,
      logLevel: "error",
    });
  }
  writeFileSync(join(dir, "index.html"), '<!doctype html><script type="module" src="./main.js"></script>');
  return dir;
}

/** Serves `dir` on 127.0.0.1 with single byte ranges (as FetchStore asks), recording the paths requested. */
async function serve(dir: string): Promise<{ server: Server; url: string; requested: string[] }> {
  const requested: string[] = [];
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname);
    requested.push(path);
    const file = resolve(dir, `.${path}`);
    const handle = file.startsWith(dir + sep) ? await open(file).catch(() => undefined) : undefined;
    if (!handle) return void response.writeHead(404).end();
    try {
      const size = (await handle.stat()).size;
      const match = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? "");
      const start = !match ? 0 : match[1] === "" ? Math.max(0, size - Number(match[2])) : Number(match[1]);
      const end = !match || match[1] === "" || match[2] === "" ? size : Math.min(size, Number(match[2]) + 1);
      const body = Buffer.alloc(end - start);
      await handle.read(body, 0, body.length, start);
      const type =
        { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" }[extname(file)] ??
        "application/octet-stream";
      const headers = { "content-type": type, ...(match && { "content-range": `bytes ${start}-${end - 1}/${size}` }) };
      response.writeHead(match ? 206 : 200, headers).end(body);
    } finally {
      await handle.close();
    }
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requested };
}

interface PageRead {
  length: number;
  mismatches: number;
  stats: zk.CodecWorkerStats;
}

describe.skipIf(skipReason !== undefined)("codec workers in Chromium, on by default", () => {
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const store = new zk.FileSystemStore(join(root, "data"));
    const codecs = [
      {
        name: "sharding_indexed",
        configuration: {
          chunk_shape: INNER,
          codecs: [
            { name: "bytes", configuration: { endian: "little" } },
            { name: "zstd", configuration: { level: 1 } },
          ],
          index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }],
        },
      },
    ];
    const array = await zk.createArray(store, "volume", {
      shape: SHAPE,
      dataType: "uint16",
      chunkShape: [128, 64, 64],
      codecs,
    });
    const values = Uint16Array.from({ length: 256 * 64 * 64 }, (_, i) => expectedValue(i));
    await array.set(null, values);
  });

  test.each(["vite", "esbuild", "esbuild without the worker entry"] as const)("bundled by %s", async (bundler) => {
    const dir = await bundle(bundler);
    const workerFiles = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) =>
      /(^|\/)codec-worker[^/]*\.js$/.test(name),
    );
    expect(workerFiles.length).toBe(bundler === "esbuild without the worker entry" ? 0 : 1);
    const data = join(root, "data");
    const { server, url, requested } = await serve(root);
    const page = await browser!.newPage();
    try {
      const errors: string[] = [];
      const warnings: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("console", (message) => message.type() === "warning" && warnings.push(message.text()));
      await page.goto(`${url}${dir.slice(root.length + 1)}/index.html`);
      await page.waitForFunction(() => "readAll" in window, undefined, { timeout: 15_000 });
      const read = await page.evaluate(
        (at) => (window as unknown as { readAll(url: string): Promise<PageRead> }).readAll(at),
        `${url}${data.slice(root.length + 1)}`,
      );
      expect(errors).toEqual([]);
      expect(read).toMatchObject({ length: 256 * 64 * 64, mismatches: 0 });
      const workerRequests = requested.filter((path) => /\/codec-worker[^/]*\.js$/.test(path));
      if (bundler === "esbuild without the worker entry") {
        expect(read.stats).toMatchObject({
          dispatched: 0,
          workers: 0,
          failure: expect.stringMatching(/could not start/),
        });
        expect(workerRequests).toHaveLength(1);
        expect(warnings).toEqual([expect.stringMatching(/codec work runs on the calling thread .*could not start/)]);
      } else {
        // All eight inner chunks went to workers, which loaded zarrkit's worker entry.
        expect(read.stats).toMatchObject({ dispatched: 8, ranHere: 0 });
        expect(read.stats.failure).toBeUndefined();
        expect(read.stats.refused).toBeUndefined();
        expect(workerRequests.length).toBeGreaterThanOrEqual(1);
        expect(warnings).toEqual([]);
      }
    } finally {
      await page.close();
      server.close();
    }
  });
});
