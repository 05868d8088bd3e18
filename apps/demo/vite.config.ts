import { readFileSync } from "node:fs";
import { defineConfig, type Plugin } from "vite";

/** Emits sw.js: src/service-worker.js with the list of the build's files to cache. */
function serviceWorker(): Plugin {
  return {
    name: "zarrkit-demo-service-worker",
    apply: "build",
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((name) => !name.endsWith(".map"));
      const build = Date.now().toString(36);
      const source = readFileSync(new URL("./src/service-worker.js", import.meta.url), "utf8")
        .replace("self.__PRECACHE__", JSON.stringify(files.map((f) => `./${f}`)))
        .replace("self.__BUILD__", JSON.stringify(build));
      this.emitFile({ type: "asset", fileName: "sw.js", source });
    },
  };
}

// The production build bundles the packages as npm users get them (their dist/
// builds); only the dev server reads their TypeScript sources.
export default defineConfig(({ command }) => ({
  resolve:
    command === "serve" ? { conditions: ["@zarrkit/source", "module", "browser", "development|production"] } : {},
  build: { outDir: "dist/app", emptyOutDir: true, target: "es2022", chunkSizeWarningLimit: 2048 },
  worker: { format: "es", plugins: () => [] },
  plugins: [serviceWorker()],
}));
