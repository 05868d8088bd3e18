import { availableParallelism } from "node:os";
import { eventLoopBusy, threadCpu } from "../busy.js";
import { checkBox, wholeBox } from "../check.js";
import { contest } from "../contest.js";
import { form, formTitle } from "../forms.js";
import { zarrkitWorkersPeer } from "../peers.js";
import { readContender } from "../read-contender.js";
import type { CaseResult } from "../results.js";
import type { Source } from "../sources.js";
import type { SuiteContext } from "../suite-context.js";

/** Worker counts the issue measured on 16 cores; each is kept where the machine has the cores for it. */
const STEPS = [1, 3, 7, 15];

/** The counts the scaling case tries: each of 1, 3, 7, 15 below the cores, and one per core (the default pool). */
export function workerCounts(cores = availableParallelism()): number[] {
  const most = Math.max(1, cores);
  return [...new Set([...STEPS.filter((k) => k < most), most])];
}

/**
 * Case 10: the whole sharded array, zstd inner chunks of both edges, read
 * with codec workers off, then with each count of `workerCounts()` (the
 * array's `workers: { size }`, other limits the defaults). Besides the wall
 * time, the calling thread's busy share during each read: its event loop's
 * utilisation, which is what a server has left for other requests.
 */
export async function scaling(ctx: SuiteContext, source: Source): Promise<CaseResult[]> {
  const { profile, content } = ctx;
  const box = wholeBox(profile.size);
  const results: CaseResult[] = [];
  for (const zstd of [form("sharded"), form("sharded-other")]) {
    const contenders = [false as const, ...workerCounts()].map((workers) => {
      const peer = zarrkitWorkersPeer(workers);
      const contender = readContender(peer, source, zstd.path, async (reader, checking) => {
        const data = await reader.read();
        if (checking) checkBox(content, data, box, `${peer.name}, whole read of ${zstd.name}`);
      });
      return { ...contender, busy: eventLoopBusy, ...(threadCpu && { cpu: threadCpu }) };
    });
    const spec = {
      id: `scaling/${zstd.name}`,
      group: 10,
      title: `whole array, ${formTitle(zstd, profile)}`,
      source: source.kind,
      form: zstd.name,
    } as const;
    results.push(await contest(spec, contenders, profile, ctx.log));
  }
  return results;
}
