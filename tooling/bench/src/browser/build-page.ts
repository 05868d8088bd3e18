import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { BENCH_DIR } from "../paths.js";

/**
 * Bundle the browser case's page into `outdir` with esbuild, as the zarrkit
 * README tells esbuild users to: zarrkit's codec worker is a second entry
 * named codec-worker, beside the page's bundle. `conditions`: extra export
 * conditions (the tests read the packages' TypeScript sources; the suite their
 * builds). Returns the page's path under `outdir`.
 */
export async function buildPage(outdir: string, conditions: string[] = []): Promise<string> {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  await build({
    absWorkingDir: BENCH_DIR,
    entryPoints: { main: join(BENCH_DIR, "src/browser/page.ts"), "codec-worker": "zarrkit/codec-worker" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    conditions,
    outdir,
    logLevel: "error",
  });
  writeFileSync(
    join(outdir, "index.html"),
    '<!doctype html><meta charset="utf-8"><title>zarrkit browser bench</title><link rel="icon" ' +
      'href="data:,"><script type="module" src="./main.js"></script>',
  );
  return "index.html";
}
