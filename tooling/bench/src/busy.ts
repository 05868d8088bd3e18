import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import type { BusyProbe } from "./contest.js";

/**
 * The busy share of this process's main thread: the event loop's utilisation
 * (time not spent waiting for I/O or timers, over the elapsed time) between
 * the probe's start and end. Codec workers' time is not in it, but time the
 * thread spends preempted in the middle of a task is: with as many workers as
 * cores, the workers take the cores from it.
 */
export const eventLoopBusy: BusyProbe = async () => {
  const start = performance.eventLoopUtilization();
  return async () => performance.eventLoopUtilization(start).utilization;
};

/** The kernel's count of the calling thread's time on a CPU (ns), or undefined where there is none (not Linux). */
function threadCpuNs(): number | undefined {
  try {
    return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]);
  } catch {
    return undefined;
  }
}

/**
 * The calling thread's CPU share: its time on a CPU (the kernel's
 * schedstat, in ns) over the elapsed time between the probe's start and end.
 * Unlike `eventLoopBusy`, time it waits for a core does not count. Undefined
 * where the kernel does not report it.
 */
export const threadCpu: BusyProbe | undefined =
  threadCpuNs() === undefined
    ? undefined
    : async () => {
        const cpu = threadCpuNs()!;
        const start = performance.now();
        return async () => (threadCpuNs()! - cpu) / 1e6 / (performance.now() - start);
      };
