// What a browser downloads, measured with esbuild (minified ES modules, gzip -9)
// from the packages' built JavaScript, as users bundle it (the test task builds first).
import { builtinModules } from "node:module";
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Metafile, type OutputFile, type Plugin } from "esbuild";

const HERE = fileURLToPath(new URL("..", import.meta.url));
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/** Reads a default sharded array (sharding_indexed, bytes, crc32c index) over HTTP: the smallest useful reader. */
const MINIMAL_READER = `
import { openArray } from "@zarrkit/core";
import "@zarrkit/sharding";
import { FetchStore } from "@zarrkit/store-fetch";
const arr = await openArray(new FetchStore(location.href), "volume");
globalThis.result = await arr.get([0, null, null]);
`;

/** Registers every codec; each loads its implementation with import() on first use. */
const ALL_CODECS = `
import "@zarrkit/codecs";
import "@zarrkit/crc32c";
`;

const BUILTINS = new RegExp(`^(node:)?(${builtinModules.map((name) => name.replace(/[/]/g, "\\/")).join("|")})$`);

/** Node built-ins left external (a browser has none), each with the package that imports it. */
function nodeBuiltinsSeen(seen: Set<string>): Plugin {
  return {
    name: "node-builtins",
    setup(builder) {
      builder.onResolve({ filter: BUILTINS }, (args) => {
        const importer = relative(ROOT, args.importer).replace(
          /^.*node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+).*$/,
          "$1",
        );
        seen.add(`${args.path} (from ${importer})`);
        return { path: args.path, external: true };
      });
    },
  };
}

/** A lazy chunk's name: its source file, within the repository or as package/path within node_modules. */
function chunkName(entryPoint: string): string {
  const path = relative(ROOT, resolve(HERE, entryPoint));
  return path.replace(/^.*node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?/, "");
}

function gzipBytes(file: OutputFile): number {
  return gzipSync(file.contents, { level: 9 }).length;
}

async function bundle(contents: string, splitting: boolean, builtins: Set<string>) {
  return build({
    plugins: [nodeBuiltinsSeen(builtins)],
    stdin: { contents, resolveDir: HERE, loader: "js", sourcefile: "entry.js" },
    bundle: true,
    splitting,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    write: false,
    metafile: true,
    outdir: "/out",
    absWorkingDir: HERE,
    logLevel: "silent",
  });
}

/**
 * The minimal reader: what loads before the first read (the entry and its
 * static imports, code-split) and everything it can load (one file, dynamic
 * imports inlined: the sharding, bytes and crc32c codecs included).
 */
export async function minimalReaderSize(): Promise<{ initial: number; total: number; nodeBuiltins: string[] }> {
  const builtins = new Set<string>();
  const whole = await bundle(MINIMAL_READER, false, builtins);
  const split = await bundle(MINIMAL_READER, true, builtins);
  const files = new Map(split.outputFiles.map((file) => [relative(HERE, file.path), file]));
  const outputs = split.metafile.outputs;
  const entry = Object.keys(outputs).find((name) => outputs[name]!.entryPoint === "entry.js")!;
  let initial = 0;
  for (const out of staticClosure(outputs, entry)) initial += gzipBytes(files.get(out)!);
  return { initial, total: gzipBytes(whole.outputFiles[0]!), nodeBuiltins: [...builtins].sort() };
}

/** `start` and the outputs it imports statically, transitively, leaving out `stop`. */
function staticClosure(outputs: Metafile["outputs"], start: string, stop?: string): Set<string> {
  const seen = new Set<string>();
  const visit = (out: string) => {
    if (seen.has(out) || out === stop) return;
    seen.add(out);
    for (const imported of outputs[out]!.imports) if (imported.kind === "import-statement") visit(imported.path);
  };
  visit(start);
  return seen;
}

/**
 * Each lazily loaded codec implementation: its chunk plus the shared chunks
 * it imports (not the entry), gzipped, by source path.
 */
export async function lazyCodecChunkSizes(): Promise<{ sizes: Map<string, number>; nodeBuiltins: string[] }> {
  const builtins = new Set<string>();
  const result = await bundle(ALL_CODECS, true, builtins);
  // The metafile names files relative to absWorkingDir.
  const files = new Map(result.outputFiles.map((file) => [relative(HERE, file.path), file]));
  const outputs: Metafile["outputs"] = result.metafile.outputs;
  const entry = Object.keys(outputs).find((name) => outputs[name]!.entryPoint === "entry.js");
  const sizes = new Map<string, number>();
  for (const [name, output] of Object.entries(outputs)) {
    if (!output.entryPoint || name === entry) continue;
    const seen = staticClosure(outputs, name, entry);
    let total = 0;
    for (const out of seen) total += gzipBytes(files.get(out)!);
    sizes.set(chunkName(output.entryPoint), total);
  }
  return { sizes, nodeBuiltins: [...builtins].sort() };
}
