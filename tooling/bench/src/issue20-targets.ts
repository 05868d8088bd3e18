import { median } from "./contest.js";
import type { CaseResult, Measured, SuiteResults, Verdict } from "./results.js";
import { TENSORSTORE } from "./tensorstore/contenders.js";

/** Busy share the issue allows the calling thread during a whole read with workers on. */
const BUSY_LIMIT = 0.1;
/** The scaling target holds on 16 cores; on fewer, the busy share is what shows scaling. */
const SCALING_CORES = 16;

const get = (c: CaseResult | undefined, name: string): Measured | undefined =>
  c?.contenders.find((m) => m.name === name);

function ratioVerdict(
  target: string,
  slower: Measured | undefined,
  faster: Measured | undefined,
  ok: (ratio: number) => boolean,
): Verdict {
  if (!slower || !faster) return { target, measured: "not measured", met: undefined };
  const ratio = slower.medianMs / faster.medianMs;
  return {
    target,
    measured: `${ratio.toFixed(2)}x (${slower.medianMs.toFixed(0)} ms vs ${faster.medianMs.toFixed(0)} ms)`,
    met: ok(ratio),
  };
}

function busyVerdict(target: string, m: Measured | undefined): Verdict {
  if (!m?.busyShares?.length) return { target, measured: "not measured", met: undefined };
  const share = median(m.busyShares);
  return {
    target,
    // The CPU share tells apart the thread's own work from time it waited for a core the workers held.
    measured:
      `${(share * 100).toFixed(1)}% of ${m.medianMs.toFixed(0)} ms (${m.name}` +
      `${m.cpuShares?.length ? `; on a CPU ${(median(m.cpuShares) * 100).toFixed(1)}%` : ""})`,
    met: share <= BUSY_LIMIT,
  };
}

/** zarrkit against tensorstore wherever a case measured both: >= 1.0x (tensorstore's time over zarrkit's). */
function tensorstoreVerdicts(results: Omit<SuiteResults, "targets">): Verdict[] {
  const skipped = results.environment.tensorstore?.startsWith("skipped");
  if (skipped) {
    const target = "whole reads, warm random reads and whole writes: zarrkit >= 1.0x tensorstore";
    return [{ target, measured: `not measured (tensorstore ${results.environment.tensorstore})`, met: undefined }];
  }
  const compared = results.cases.filter((c) => c.source === "local" && get(c, TENSORSTORE) && get(c, "zarrkit"));
  return compared.map((c) =>
    ratioVerdict(`${c.title}: zarrkit >= 1.0x tensorstore`, get(c, TENSORSTORE), get(c, "zarrkit"), (r) => r >= 1),
  );
}

/** Case 10: the calling thread's busy share with the most workers, and the speed-up they bring (judged on 16 cores). */
function scalingVerdicts(results: Omit<SuiteResults, "targets">): Verdict[] {
  const out: Verdict[] = [];
  const { cores } = results.environment;
  for (const c of results.cases.filter((c) => c.group === 10)) {
    const most = c.contenders.at(-1);
    out.push(busyVerdict(`${c.title}: with workers on, the calling thread busy <= 10% of the read`, most));
    const off = get(c, "zarrkit, workers off");
    const fastest = c.contenders.filter((m) => m !== off).sort((a, b) => a.medianMs - b.medianMs)[0];
    const speedup = ratioVerdict(
      `${c.title}: >= 10x faster with workers than without (on ${SCALING_CORES} cores)`,
      off,
      fastest,
      (r) => r >= 10,
    );
    if (cores >= SCALING_CORES || speedup.met === undefined) out.push(speedup);
    else
      out.push({
        ...speedup,
        measured: `${speedup.measured}, ${fastest!.name}; not judged on ${cores} cores (the busy share is)`,
        met: undefined,
      });
  }
  return out;
}

/** Issue 20's targets checked against one run's figures. */
export function issue20Verdicts(results: Omit<SuiteResults, "targets">): Verdict[] {
  const browser = results.cases.find((c) => c.id === "browser/sharded/http");
  return [
    ...tensorstoreVerdicts(results),
    ...scalingVerdicts(results),
    ratioVerdict(
      "browser whole sharded read (Chromium): zarrkit >= 2.5x faster than zarrita.js",
      get(browser, "zarrita"),
      get(browser, "zarrkit"),
      (r) => r >= 2.5,
    ),
    busyVerdict(
      "browser whole sharded read (Chromium), workers on: the page's thread busy <= 10% of the read",
      get(browser, "zarrkit"),
    ),
  ];
}
