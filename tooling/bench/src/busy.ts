import type { BusyProbe } from "./contest.js";
import { performance } from "node:perf_hooks";

/**
 * The busy share of this process's main thread: the event loop's utilisation
 * (time not spent waiting for I/O or timers, over the elapsed time) between
 * the probe's start and end. Codec workers' time is not in it.
 */
export const eventLoopBusy: BusyProbe = async () => {
  const start = performance.eventLoopUtilization();
  return async () => performance.eventLoopUtilization(start).utilization;
};
