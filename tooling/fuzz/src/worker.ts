// One target's cases on a worker thread, so that the runner's watchdog can
// stop a case that hangs synchronously or allocates without bound.
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { configureCodecWorkers } from "@zarrkit/core";
import fc from "fast-check";
import { caseJson, ContractViolation, describeError, type Outcome, signature, toHex } from "./contract.js";
import type { StoreDump } from "./target.js";
import { getTarget } from "./targets/index.js";

export interface WorkerInput {
  target: string;
  seed: number;
  numRuns: number;
  /** Cases before this index are generated but not run (resuming after a stopped case). */
  startAt: number;
  timeLimitMs?: number;
  /** Replay this fast-check path and shrink it. */
  replayPath?: string;
}

export interface CaseFailure {
  kind: ContractViolation["kind"];
  message: string;
  detail: string;
  signature: string;
}

export type WorkerMessage =
  | { t: "ready" }
  | { t: "start"; index: number }
  | { t: "end"; index: number; outcome?: Outcome; failure?: CaseFailure; arrayBuffers: number }
  | { t: "done"; index: number }
  | {
      t: "replay";
      failure?: CaseFailure;
      path?: string;
      counterexample?: string;
      files?: Record<string, string>;
      numShrinks?: number;
    };

const input = workerData as WorkerInput;
const post = (m: WorkerMessage) => parentPort!.postMessage(m);
const target = getTarget(input.target);
configureCodecWorkers({ enabled: false });

function collectGarbage(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}
const gc = collectGarbage();

function asFailure(error: unknown): CaseFailure {
  const violation =
    error instanceof ContractViolation
      ? error
      : new ContractViolation(
          "harness",
          `harness error: ${describeError(error)}`,
          error instanceof Error ? (error.stack ?? "") : "",
        );
  return {
    kind: violation.kind,
    message: violation.message,
    detail: violation.detail,
    signature: signature(input.target, violation),
  };
}

const dumpHex = (files: StoreDump) => Object.fromEntries([...files].map(([k, v]) => [k, toHex(v)]));

await target.setup?.();
gc();
const baseline = process.memoryUsage().arrayBuffers;
post({ t: "ready" });

/** Bound on one case's growth of ArrayBuffer memory (the runner bounds the process's RSS the same way). */
export const MEMORY_LIMIT = 256 * 2 ** 20;

async function runCase(value: unknown): Promise<{ outcome?: Outcome; failure?: CaseFailure; arrayBuffers: number }> {
  if (process.memoryUsage().arrayBuffers - baseline > 64 * 2 ** 20) gc();
  const before = process.memoryUsage().arrayBuffers;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().arrayBuffers);
  }, 10);
  let outcome: Outcome | undefined;
  let failure: CaseFailure | undefined;
  try {
    outcome = (await target.run(value as never)).outcome;
  } catch (error) {
    failure = asFailure(error);
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage().arrayBuffers);
  const grown = peak - before;
  if (!failure && grown > MEMORY_LIMIT) {
    failure = asFailure(
      new ContractViolation(
        "memory",
        `one case grew ArrayBuffer memory by ${Math.round(grown / 2 ** 20)} MiB (bound ${MEMORY_LIMIT / 2 ** 20} MiB)`,
      ),
    );
  }
  return { outcome, failure, arrayBuffers: grown };
}

class CaseFailed extends Error {
  constructor(readonly failure: CaseFailure) {
    super(failure.message);
  }
}

if (input.replayPath !== undefined) {
  // Shrinking keeps to the failure first seen: a smaller case failing another way passes.
  let first: string | undefined;
  const result = await fc.check(
    fc.asyncProperty(target.arbitrary, async (value) => {
      const { failure } = await runCase(value);
      if (!failure) return;
      first ??= failure.signature;
      if (failure.signature === first) throw new CaseFailed(failure);
    }),
    { seed: input.seed, path: input.replayPath, numRuns: Math.max(1, input.numRuns) },
  );
  if (!result.failed) {
    post({ t: "replay" });
  } else {
    const value = (result.counterexample as unknown[])[0];
    let files: StoreDump | undefined;
    try {
      await target.run(value as never, (f) => (files = f));
    } catch {
      // the failure is already known from the shrunk run
    }
    const error = result.errorInstance;
    post({
      t: "replay",
      failure: error instanceof CaseFailed ? error.failure : asFailure(error),
      path: result.counterexamplePath ?? undefined,
      counterexample: caseJson(value),
      files: files && dumpHex(files),
      numShrinks: result.numShrinks,
    });
  }
} else {
  let index = -1;
  await fc.check(
    fc.asyncProperty(target.arbitrary, async (value) => {
      index++;
      if (index < input.startAt) return true;
      post({ t: "start", index });
      const { outcome, failure, arrayBuffers } = await runCase(value);
      post({ t: "end", index, outcome, failure, arrayBuffers });
      return true;
    }),
    {
      seed: input.seed,
      numRuns: input.numRuns,
      ...(input.timeLimitMs !== undefined && {
        interruptAfterTimeLimit: input.timeLimitMs,
        markInterruptAsFailure: false,
      }),
    },
  );
  post({ t: "done", index });
}
