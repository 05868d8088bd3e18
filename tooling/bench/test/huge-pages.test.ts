// The bench runs Node with glibc's transparent huge pages (huge-pages.ts), as
// numpy in the tensorstore child has them: with the tunable, a fresh 32 MiB
// buffer takes far fewer page faults; without it, one per 4 KiB page.
// Skipped, with the reason printed, where the platform has no huge pages.
import { execFileSync } from "node:child_process";
import { expect, test } from "vitest";
import { HUGE_PAGES_TUNABLE, hugePagesUnavailable, mallocSetting } from "../src/huge-pages.js";

const skipReason = hugePagesUnavailable();
if (skipReason) console.log(`huge page tests skipped: ${skipReason}`);

/** Page faults a child Node process takes to fill a fresh 32 MiB buffer. */
function faultsOfFreshBuffer(tunables: string | undefined): number {
  const script =
    "const a = new Uint8Array(32 << 20); const f = process.resourceUsage().minorPageFault; a.fill(1);" +
    "console.log(process.resourceUsage().minorPageFault - f)";
  const env = { ...process.env };
  if (tunables === undefined) delete env.GLIBC_TUNABLES;
  else env.GLIBC_TUNABLES = tunables;
  return Number(execFileSync(process.execPath, ["-e", script], { env, encoding: "utf8" }).trim());
}

test.skipIf(skipReason !== undefined)("the tunable takes a fresh buffer's page faults from one per 4 KiB down", () => {
  const without = faultsOfFreshBuffer(undefined);
  const withHugePages = faultsOfFreshBuffer(HUGE_PAGES_TUNABLE);
  expect(without).toBeGreaterThanOrEqual(8192 * 0.9);
  expect(withHugePages).toBeLessThan(without / 4);
});

test("the setting names the tunable when it is on and the option when it is off", () => {
  const saved = process.env.GLIBC_TUNABLES;
  try {
    process.env.GLIBC_TUNABLES = `glibc.malloc.check=0:${HUGE_PAGES_TUNABLE}`;
    expect(mallocSetting("huge-pages")).toContain(HUGE_PAGES_TUNABLE);
    delete process.env.GLIBC_TUNABLES;
    expect(mallocSetting("default")).toBe("the default malloc (--malloc default)");
    expect(mallocSetting("huge-pages")).toMatch(/^the default malloc \(/);
  } finally {
    if (saved === undefined) delete process.env.GLIBC_TUNABLES;
    else process.env.GLIBC_TUNABLES = saved;
  }
});
