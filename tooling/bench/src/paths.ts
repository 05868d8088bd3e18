import { fileURLToPath } from "node:url";

/** tooling/bench, whether running from dist/ or src/. */
export const BENCH_DIR = fileURLToPath(new URL("..", import.meta.url));

/** Generated arrays, cached between runs (gitignored). */
export const DATA_DIR = fileURLToPath(new URL("../data/", import.meta.url));

export const RESULTS_DIR = fileURLToPath(new URL("../results/", import.meta.url));
