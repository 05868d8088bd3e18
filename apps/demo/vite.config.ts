import { defineConfig } from "vite";

// The production build bundles the packages as npm users get them (their dist/
// builds); only the dev server reads their TypeScript sources.
export default defineConfig(({ command }) => ({
  resolve: command === "serve" ? { conditions: ["@zarrkit/source", "module", "browser", "development|production"] } : {},
  build: { outDir: "dist/app", emptyOutDir: true, target: "es2022", chunkSizeWarningLimit: 2048 },
  worker: { format: "es" },
}));
