import type { Rounds } from "../contest.js";
import type { CaseResult } from "../results.js";
import { TENSORSTORE } from "./contenders.js";

/** What the comparison with tensorstore may add to `bench:quick` (BENCHMARKS.md). */
export const QUICK_BUDGET_SECONDS = 30;

/**
 * Seconds the comparison with tensorstore added to a run of the profile's
 * `rounds`: its contenders' time (warm-ups, preparations, runs), the whole of
 * the cases only that comparison asks for (`forTensorstore`), and the other
 * contenders' runs beyond the profile's in the cases compared with it
 * (`comparedRounds`; a run's share of a contender's time, warm-ups counted as
 * runs). What decides whether bench:quick can afford it.
 */
export function tensorstoreSeconds(cases: readonly CaseResult[], rounds: Rounds): number {
  let ms = 0;
  for (const c of cases) {
    const compared = c.contenders.some((m) => m.name === TENSORSTORE);
    for (const m of c.contenders) {
      const spent = m.spentMs ?? 0;
      if (c.forTensorstore || m.name === TENSORSTORE) ms += spent;
      else if (compared) {
        const extra = Math.max(0, m.runsMs.length - rounds.runs);
        ms += (spent * extra) / (m.runsMs.length + rounds.warmups);
      }
    }
  }
  return ms / 1000;
}
