import { loadavg } from "node:os";
import type { CaseGroup, CaseResult, Measured, ProcessFigures } from "./results.js";
import type { Source } from "./sources.js";

/**
 * What timed work returns when it was timed where it ran (a child process
 * timing its own work in-process): that time is the run's, not the wall time
 * around the request.
 */
export class SelfTimed {
  constructor(readonly ms: number) {}
}

/** Starts measuring how busy the calling thread is; the function returned ends it: the busy share in between. */
export type BusyProbe = () => Promise<() => Promise<number>>;

export interface Contender {
  name: string;
  /**
   * Untimed: get ready for one run; returns the timed work. With `checking`
   * (the warm-up run) the work also checks what it read or wrote against the
   * expected content and throws on a mismatch.
   */
  prepare(checking: boolean): Promise<() => Promise<unknown>>;
  /** Measures the calling thread's busy share over each timed run. */
  busy?: BusyProbe;
  /** Measures the calling thread's CPU share over each timed run. */
  cpu?: BusyProbe;
  /** Where the timed work's requests are counted, if anywhere. */
  source?: Source;
  /** After each timed run: the figures of the child processes the work ran, if it ran any. */
  processes?(): Promise<ProcessFigures>;
}

export interface CaseSpec {
  id: string;
  group: CaseGroup;
  title: string;
  source: "local" | "http";
  form?: CaseResult["form"];
  /** The case is there only for the comparison with tensorstore (its cost is tensorstore's). */
  forTensorstore?: boolean;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Median CPU time of a contender's timed runs (all its processes, every thread), ms. */
export function medianCpuMs(m: Measured): number | undefined {
  return m.processes?.length ? median(m.processes.map((p) => p.cpuMs)) : undefined;
}

/** Highest peak resident set over a contender's timed runs, MiB. */
export function maxPeakRssMiB(m: Measured): number | undefined {
  return m.processes?.length ? Math.max(...m.processes.map((p) => p.peakRssMiB)) : undefined;
}

/** The process was started with --expose-gc: collect before each run, so no run pays for another's garbage. */
function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

export interface Rounds {
  runs: number;
  warmups: number;
}

/**
 * Time every contender `runs` times, alternating between them (the order
 * rotates each round, so none always runs first or last), after `warmups`
 * untimed runs each (JIT, wasm memory growth, page cache); the first
 * warm-up checks the results.
 */
export async function contest(
  spec: CaseSpec,
  contenders: readonly Contender[],
  rounds: Rounds,
  log: (line: string) => void,
): Promise<CaseResult> {
  const { runs, warmups } = rounds;
  const loadBefore = loadavg()[0]!;
  const times = contenders.map(() => [] as number[]);
  const stats: Measured["stats"][] = contenders.map(() => undefined);
  const processes = contenders.map(() => [] as ProcessFigures[]);
  const busy = contenders.map(() => [] as number[]);
  const cpu = contenders.map(() => [] as number[]);
  const spent = contenders.map(() => 0);
  /** Runs `step` for contender `i`, adding its wall time to the contender's total. */
  const timing = async <T>(i: number, step: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await step();
    } finally {
      spent[i]! += performance.now() - start;
    }
  };
  for (let round = 0; round < Math.max(1, warmups); round++) {
    for (const [i, contender] of contenders.entries()) {
      await timing(i, async () => (await contender.prepare(round === 0))());
    }
  }
  for (let round = 0; round < runs; round++) {
    for (let k = 0; k < contenders.length; k++) {
      const i = (k + round) % contenders.length;
      const contender = contenders[i]!;
      const work = await timing(i, () => contender.prepare(false));
      await contender.source?.resetStats();
      collect();
      const stopProbe = await contender.busy?.();
      const stopCpu = await contender.cpu?.();
      const start = performance.now();
      const done = await work();
      const wall = performance.now() - start;
      spent[i]! += wall;
      if (stopCpu) cpu[i]!.push(await stopCpu());
      if (stopProbe) busy[i]!.push(await stopProbe());
      times[i]!.push(done instanceof SelfTimed ? done.ms : wall);
      stats[i] = await contender.source?.stats();
      if (contender.processes) processes[i]!.push(await contender.processes());
    }
  }
  const measured = contenders.map((c, i): Measured => {
    const runsMs = times[i]!;
    return {
      name: c.name,
      medianMs: median(runsMs),
      minMs: Math.min(...runsMs),
      maxMs: Math.max(...runsMs),
      runsMs,
      spentMs: spent[i]!,
      ...(stats[i] ? { stats: stats[i] } : {}),
      ...(processes[i]!.length ? { processes: processes[i] } : {}),
      ...(busy[i]!.length ? { busyShares: busy[i] } : {}),
      ...(cpu[i]!.length ? { cpuShares: cpu[i] } : {}),
    };
  });
  log(
    `${spec.id}: ${measured
      .map((m) => {
        const requests = m.stats ? ` (${m.stats.requests + m.stats.writes} req)` : "";
        return `${m.name} ${m.medianMs.toFixed(1)} ms${requests}`;
      })
      .join(", ")}`,
  );
  return { ...spec, load: [loadBefore, loadavg()[0]!], contenders: measured };
}
