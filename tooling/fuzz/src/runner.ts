// Runs a target's cases on a worker thread and watches it: a case with no
// answer after CASE_TIMEOUT_MS, or one that grows the process's RSS beyond the
// bound, is a failure; the worker is then stopped and restarted after that case.
import { Worker } from "node:worker_threads";
import type { Outcome } from "./contract.js";
import type { CaseFailure, WorkerInput, WorkerMessage } from "./worker.js";

export const CASE_TIMEOUT_MS = 5_000;
export const MEMORY_LIMIT = 256 * 2 ** 20;
/** RSS growth at which a running case is stopped at once, to protect the machine. */
const HARD_MEMORY_LIMIT = 2 * 2 ** 30;

export interface Failure extends CaseFailure {
  target: string;
  seed: number;
  /** fast-check's path of the first case that failed this way. */
  path: string;
  /** Cases that failed with the same signature. */
  count: number;
}

export interface TargetSummary {
  target: string;
  seed: number;
  cases: number;
  outcomes: Record<Outcome, number>;
  failedCases: number;
  failures: Failure[];
  peakRssGrowth: number;
  peakArrayBuffersGrowth: number;
  ms: number;
}

export interface RunOptions {
  seed: number;
  numRuns: number;
  timeLimitMs?: number;
  /** Called with each distinct failure as it is first seen. */
  onFailure?: (failure: Failure) => void;
}

const WORKER_URL = new URL("./worker.ts", import.meta.url);

function startWorker(input: WorkerInput): Worker {
  return new Worker(WORKER_URL, { workerData: input, resourceLimits: { maxOldGenerationSizeMb: 1536 } });
}

export async function runTarget(target: string, options: RunOptions): Promise<TargetSummary> {
  const started = Date.now();
  const summary: TargetSummary = {
    target,
    seed: options.seed,
    cases: 0,
    outcomes: { same: 0, typed: 0, different: 0 },
    failedCases: 0,
    failures: [],
    peakRssGrowth: 0,
    peakArrayBuffersGrowth: 0,
    ms: 0,
  };
  const bySignature = new Map<string, Failure>();
  const record = (index: number, failure: CaseFailure) => {
    summary.failedCases++;
    const known = bySignature.get(failure.signature);
    if (known) {
      known.count++;
      return;
    }
    const entry: Failure = { ...failure, target, seed: options.seed, path: String(index), count: 1 };
    bySignature.set(failure.signature, entry);
    summary.failures.push(entry);
    options.onFailure?.(entry);
  };

  let startAt = 0;
  for (;;) {
    const remaining = options.timeLimitMs === undefined ? undefined : options.timeLimitMs - (Date.now() - started);
    if (remaining !== undefined && remaining <= 0) break;
    const result = await new Promise<{ stoppedAt?: number }>((resolve) => {
      const worker = startWorker({
        target,
        seed: options.seed,
        numRuns: options.numRuns,
        startAt,
        timeLimitMs: remaining,
      });
      let current: { index: number; since: number; rss: number; peak: number } | undefined;
      let finished = false;
      const stop = (failure: CaseFailure) => {
        if (finished || !current) return;
        finished = true;
        const index = current.index;
        summary.cases++;
        record(index, failure);
        clearInterval(watch);
        void worker.terminate();
        resolve({ stoppedAt: index });
      };
      const watch = setInterval(() => {
        if (!current) return;
        const rss = process.memoryUsage.rss();
        current.peak = Math.max(current.peak, rss);
        const elapsed = Date.now() - current.since;
        if (current.peak - current.rss > HARD_MEMORY_LIMIT) {
          stop({
            kind: "memory",
            message: `case stopped: RSS grew by ${Math.round((current.peak - current.rss) / 2 ** 20)} MiB`,
            detail: "",
            signature: `${target} memory RSS beyond the hard limit`,
          });
        } else if (elapsed > CASE_TIMEOUT_MS + 1_000) {
          stop({
            kind: "hang",
            message: `case stopped: no answer after ${elapsed} ms (synchronous hang?)`,
            detail: "",
            signature: `${target} hang synchronous`,
          });
        }
      }, 10);
      worker.on("message", (m: WorkerMessage) => {
        if (finished) return;
        if (m.t === "start") {
          const rss = process.memoryUsage.rss();
          current = { index: m.index, since: Date.now(), rss, peak: rss };
        } else if (m.t === "end") {
          summary.cases++;
          const rssGrowth = current ? Math.max(current.peak, process.memoryUsage.rss()) - current.rss : 0;
          summary.peakRssGrowth = Math.max(summary.peakRssGrowth, rssGrowth);
          summary.peakArrayBuffersGrowth = Math.max(summary.peakArrayBuffersGrowth, m.arrayBuffers);
          let failure = m.failure;
          if (!failure && rssGrowth > MEMORY_LIMIT) {
            failure = {
              kind: "memory",
              message:
                `one case grew RSS by ${Math.round(rssGrowth / 2 ** 20)} MiB ` +
                `(bound ${MEMORY_LIMIT / 2 ** 20} MiB)`,
              detail: "",
              signature: `${target} memory RSS growth beyond the bound`,
            };
          }
          if (failure) record(m.index, failure);
          else if (m.outcome) summary.outcomes[m.outcome]++;
          current = undefined;
        } else if (m.t === "done") {
          finished = true;
          clearInterval(watch);
          void worker.terminate();
          resolve({});
        }
      });
      worker.on("error", (error) => {
        if (finished) return;
        if (current) {
          stop({
            kind: "crash",
            message: `worker died during the case: ${error.message}`,
            detail: error.stack ?? "",
            signature: `${target} crash ${error.message.slice(0, 80)}`,
          });
        } else {
          finished = true;
          clearInterval(watch);
          record(-1, {
            kind: "harness",
            message: `worker failed outside a case: ${error.message}`,
            detail: error.stack ?? "",
            signature: `${target} harness ${error.message}`,
          });
          resolve({});
        }
      });
      worker.on("exit", (code) => {
        if (finished) return;
        if (current)
          stop({
            kind: "crash",
            message: `worker exited (${code}) during the case`,
            detail: "",
            signature: `${target} crash exit ${code}`,
          });
        else {
          finished = true;
          clearInterval(watch);
          resolve({});
        }
      });
    });
    if (result.stoppedAt === undefined) break;
    startAt = result.stoppedAt + 1;
    if (startAt >= options.numRuns) break;
  }
  summary.ms = Date.now() - started;
  return summary;
}

export interface ReplayResult {
  failure?: CaseFailure;
  path?: string;
  counterexample?: string;
  files?: Record<string, string>;
  numShrinks?: number;
}

/** Replays one case (fast-check seed and path) and shrinks it; a hang or crash is reported unshrunk. */
export function replay(target: string, seed: number, path: string, limitMs = 300_000): Promise<ReplayResult> {
  return new Promise((resolve) => {
    const worker = startWorker({ target, seed, numRuns: 1, startAt: 0, replayPath: path });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve({
        failure: { kind: "hang", message: `replay did not finish in ${limitMs} ms`, detail: "", signature: "" },
        path,
      });
    }, limitMs);
    worker.on("message", (m: WorkerMessage) => {
      if (m.t !== "replay") return;
      clearTimeout(timer);
      void worker.terminate();
      resolve(m);
    });
    worker.on("error", (error) => {
      clearTimeout(timer);
      resolve({ failure: { kind: "crash", message: error.message, detail: error.stack ?? "", signature: "" }, path });
    });
  });
}
