import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * Memory a process touches for the first time costs a page fault per 4 KiB
 * page: on a 2-core VM about 3 ms per MiB, more than a whole read of a fresh
 * 32 MiB result takes otherwise. numpy, which the tensorstore child reads
 * into, asks the kernel for transparent huge pages (2 MiB) for large arrays;
 * Node cannot, but glibc's malloc, which allocates V8's ArrayBuffers, does for
 * a process started with this tunable (glibc 2.35 and later, where the
 * kernel's transparent huge pages are "madvise", the Debian default).
 */
export const HUGE_PAGES_TUNABLE = "glibc.malloc.hugetlb=1";

/** The kernel's transparent huge page mode ("always", "madvise", "never"); undefined off Linux. */
function transparentHugePages(): string | undefined {
  try {
    return /\[(\w+)\]/.exec(readFileSync("/sys/kernel/mm/transparent_hugepage/enabled", "utf8"))?.[1];
  } catch {
    return undefined;
  }
}

function glibcVersion(): number[] | undefined {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return header?.glibcVersionRuntime?.split(".").map(Number);
}

/** Why this process cannot get huge pages from malloc, or undefined when it can. */
export function hugePagesUnavailable(): string | undefined {
  const mode = transparentHugePages();
  if (mode === undefined) return "no transparent huge pages (not Linux)";
  if (mode === "never") return "transparent huge pages are off (never)";
  const glibc = glibcVersion();
  if (!glibc) return "not glibc";
  const [major = 0, minor = 0] = glibc;
  if (major < 2 || (major === 2 && minor < 35)) return `glibc ${glibc.join(".")} lacks ${HUGE_PAGES_TUNABLE}`;
  return undefined;
}

/**
 * How this process allocates: with glibc's huge pages or without (and why).
 * `mode` is the bench's --malloc option.
 */
export function mallocSetting(mode: "huge-pages" | "default"): string {
  const tunables = process.env.GLIBC_TUNABLES ?? "";
  if (tunables.split(":").includes(HUGE_PAGES_TUNABLE)) {
    const kernel = transparentHugePages();
    return `glibc's malloc asking for transparent huge pages (GLIBC_TUNABLES=${tunables}; kernel: ${kernel})`;
  }
  if (mode === "default") return "the default malloc (--malloc default)";
  return `the default malloc (${hugePagesUnavailable() ?? "huge pages not asked for"})`;
}

/**
 * Run this script again in a child process with glibc's huge pages, where
 * `mode` asks for them, the platform has them and this process lacks them;
 * the child's exit status, or undefined when this process goes on itself.
 */
export function relaunchWithHugePages(mode: "huge-pages" | "default"): number | undefined {
  const tunables = process.env.GLIBC_TUNABLES;
  if (mode !== "huge-pages" || hugePagesUnavailable() || tunables?.split(":").includes(HUGE_PAGES_TUNABLE)) {
    return undefined;
  }
  const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, GLIBC_TUNABLES: tunables ? `${tunables}:${HUGE_PAGES_TUNABLE}` : HUGE_PAGES_TUNABLE },
  });
  return child.status ?? 1;
}
