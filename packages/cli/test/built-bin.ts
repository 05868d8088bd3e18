// The built command, dist/bin.js, run with plain `node` as users run the
// published package. Processes that vitest does not start (SLURM tasks, run
// by slurmd) cannot inherit its TypeScript loader, and a cluster runs what
// was built, so these tests use the build. turbo builds it before this
// package's tests (turbo.json: "@zarrkit/cli#test" depends on "build", which
// builds the workspace packages it needs first); run alone with vitest, a
// missing or stale build (a source file of the cli or of a workspace package
// it depends on newer than that package's dist) is rebuilt here with
// `pnpm --filter @zarrkit/cli... build`.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const CLI_DIR = fileURLToPath(new URL("..", import.meta.url));
export const BUILT_BIN = join(CLI_DIR, "dist", "bin.js");

/** Build dist/bin.js (and the workspace packages it imports) when missing or older than a source file. */
export async function ensureBuilt(): Promise<string> {
  const stale = staleBuilds(CLI_DIR, new Set());
  if (stale.length === 0) return BUILT_BIN;
  console.log(`[cli] building the command: ${stale.join(", ")} missing or older than its sources`);
  await new Promise<void>((resolve, reject) => {
    const child = spawn("pnpm", ["--filter", "@zarrkit/cli...", "build"], {
      cwd: CLI_DIR,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`pnpm --filter @zarrkit/cli... build failed (${code}):\n${output}`)),
    );
  });
  return BUILT_BIN;
}

/** The workspace packages (this one and its runtime dependencies, transitively) whose dist is missing or stale. */
function staleBuilds(dir: string, seen: Set<string>): string[] {
  if (seen.has(dir)) return [];
  seen.add(dir);
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    name: string;
    scripts?: Record<string, string>;
    dependencies?: Record<string, string>;
  };
  const stale: string[] = [];
  if (manifest.scripts?.build) {
    const built = fileTimes(join(dir, "dist"));
    // tsc rewrites every output, so the newest file of dist is the last build.
    if (built.length === 0 || Math.max(...built) < Math.max(0, ...fileTimes(join(dir, "src"))))
      stale.push(manifest.name);
  }
  for (const [name, version] of Object.entries(manifest.dependencies ?? {})) {
    if (version.startsWith("workspace:"))
      stale.push(...staleBuilds(realpathSync(join(dir, "node_modules", name)), seen));
  }
  return stale;
}

/** The modification times of the files under `dir` (none when it does not exist). */
function fileTimes(dir: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync(dir, { recursive: true, encoding: "utf8" });
  } catch {
    return [];
  }
  return entries.map((entry) => statSync(join(dir, entry))).flatMap((info) => (info.isFile() ? [info.mtimeMs] : []));
}
