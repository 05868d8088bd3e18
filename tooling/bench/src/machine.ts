import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, release, totalmem } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { BENCH_DIR } from "./paths.js";
import type { Environment } from "./results.js";

/** The vendored zstd of the wasm decoder and encoder (tooling/zstd-wasm/vendor). */
const zstdVersion = (dir: string) =>
  readFileSync(join(BENCH_DIR, "..", "zstd-wasm", "vendor", dir, "VERSION"), "utf8").trim();

function versionAt(packageJson: URL | string): string {
  return (JSON.parse(readFileSync(packageJson, "utf8")) as { version: string }).version;
}

/** Versions of the peers and of the libraries doing the byte work. */
function versions(): Record<string, string> {
  const zarrita = import.meta.resolve("zarrita");
  const workspace = (name: string) => versionAt(join(BENCH_DIR, "..", "..", "packages", name, "package.json"));
  return {
    zarrkit: workspace("zarrkit"),
    "@zarrkit/core": workspace("core"),
    "@zarrkit/sharding": workspace("sharding"),
    zarrita: versionAt(new URL("../../package.json", zarrita)),
    "@zarrita/storage": versionAt(new URL("../../../@zarrita/storage/package.json", zarrita)),
    numcodecs: versionAt(new URL("../../../numcodecs/package.json", zarrita)),
    zstddec: versionAt(join(BENCH_DIR, "node_modules", "zstddec", "package.json")),
    "zarrkit zstd wasm": `libzstd ${zstdVersion("zstd")} (decoder), ${zstdVersion("zstd-encoder")} (encoder)`,
  };
}

function commit(): string {
  try {
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: BENCH_DIR, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const head = git("rev-parse", "--short", "HEAD");
    const dirty = git("status", "--porcelain", "--", "../../packages");
    return dirty ? `${head} (packages/ modified)` : head;
  } catch {
    return "unknown";
  }
}

function cpuTicks(): { busy: number; total: number } {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = fields[3]! + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

/**
 * Share of all cores busy over `ms` while this process sleeps: the load other
 * processes put on the machine (0 where /proc/stat is missing).
 */
export async function backgroundCpu(ms = 2000): Promise<number> {
  try {
    const a = cpuTicks();
    await sleep(ms);
    const b = cpuTicks();
    return (b.busy - a.busy) / Math.max(1, b.total - a.total);
  } catch {
    return 0;
  }
}

export function environment(profile: string, backgroundBefore: number, malloc: string): Environment {
  return {
    date: new Date().toISOString(),
    profile,
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: `${process.platform} ${release()}`,
    malloc,
    versions: versions(),
    commit: commit(),
    backgroundCpu: { before: backgroundBefore, after: Number.NaN },
  };
}
