// Node module hooks that let plain Node (worker threads, child processes)
// run the workspace's TypeScript sources the way vitest does: the
// "@zarrkit/source" export condition, "./x.js" specifiers naming x.ts
// (NodeNext), and .ts files stripped of types by the transformer vitest's own
// Vite uses (oxc, through rolldown). Test-only: published packages ship JavaScript.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const SOURCE = "@zarrkit/source";
let transformer;

/** rolldown's transformSync, found the way vitest finds it: vitest -> vite -> rolldown. */
function transformSync() {
  if (!transformer) {
    const vitest = createRequire(import.meta.url).resolve("vitest/package.json");
    const vite = createRequire(vitest).resolve("vite/package.json");
    transformer = import(createRequire(vite).resolve("rolldown/utils")).then((m) => m.transformSync);
  }
  return transformer;
}

/** @type {import("node:module").ResolveHook} */
export async function resolve(specifier, context, nextResolve) {
  const conditions = context.conditions.includes(SOURCE) ? context.conditions : [...context.conditions, SOURCE];
  try {
    return await nextResolve(specifier, { ...context, conditions });
  } catch (error) {
    const path = /^(\.{1,2}\/|file:)/.test(specifier) && specifier.endsWith(".js");
    if (!path || error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
    return nextResolve(`${specifier.slice(0, -3)}.ts`, { ...context, conditions });
  }
}

/** @type {import("node:module").LoadHook} */
export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return nextLoad(url, context);
  const { source } = await nextLoad(url, { ...context, format: "module" });
  const transform = await transformSync();
  // verbatimModuleSyntax: only `import type` goes; every other import stays for its side effects.
  const result = transform(fileURLToPath(url), String(source), {
    lang: "ts",
    typescript: { onlyRemoveTypeImports: true },
  });
  if (result.errors.length > 0) throw new SyntaxError(`${url}: ${result.errors.map((e) => e.message).join("; ")}`);
  return { format: "module", source: result.code, shortCircuit: true };
}
