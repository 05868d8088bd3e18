import type { CaseResult } from "../results.js";
import { TENSORSTORE } from "./contenders.js";

/** What the comparison with tensorstore may add to `bench:quick` (BENCHMARKS.md). */
export const QUICK_BUDGET_SECONDS = 30;

/**
 * Seconds the comparison with tensorstore added to a run: its contenders'
 * time (warm-ups, preparations, runs), and the whole of the cases only that
 * comparison asks for (`forTensorstore`). What decides whether bench:quick
 * can afford it.
 */
export function tensorstoreSeconds(cases: readonly CaseResult[]): number {
  let ms = 0;
  for (const c of cases) {
    for (const m of c.contenders) if (c.forTensorstore || m.name === TENSORSTORE) ms += m.spentMs ?? 0;
  }
  return ms / 1000;
}
