import type { Profile } from "../profile.js";
import type { CaseResult } from "../results.js";
import { TENSORSTORE } from "./contenders.js";

/** What the comparison with tensorstore may add to `bench:quick` (BENCHMARKS.md). */
export const QUICK_BUDGET_SECONDS = 30;

/**
 * Seconds the comparison with tensorstore added to a run: its contenders'
 * time (warm-ups, preparations, runs), and the whole of the write rows only
 * that comparison asks for (see `rowsOf` in whole-writes.ts). What decides
 * whether bench:quick can afford it.
 */
export function tensorstoreSeconds(cases: readonly CaseResult[], profile: Profile): number {
  let ms = 0;
  for (const c of cases) {
    const onlyForTensorstore = c.group === 6 && c.form !== undefined && c.id === `write/${c.form}` && !profile.writeForms.includes(c.form);
    for (const m of c.contenders) if (onlyForTensorstore || m.name === TENSORSTORE) ms += m.spentMs ?? 0;
  }
  return ms / 1000;
}
