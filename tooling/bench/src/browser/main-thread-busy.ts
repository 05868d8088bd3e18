import type { CDPSession } from "playwright-core";
import type { BusyProbe } from "../contest.js";

/** Chromium's own tally (DevTools Performance metrics): seconds of tasks run on the page's main thread, and when. */
async function mainThreadTasks(devtools: CDPSession): Promise<{ taskSeconds: number; at: number }> {
  const { metrics } = await devtools.send("Performance.getMetrics");
  const value = (name: string) => {
    const metric = metrics.find((m) => m.name === name);
    if (!metric) throw new Error(`Chromium's Performance.getMetrics has no ${name}`);
    return metric.value;
  };
  return { taskSeconds: value("TaskDuration"), at: value("Timestamp") };
}

/**
 * The busy share of a page's main thread between the probe's start and end:
 * its task time (`TaskDuration`, which counts no worker's time) over the time
 * elapsed. `devtools` is a session on the page with `Performance.enable` sent.
 */
export function mainThreadBusy(devtools: CDPSession): BusyProbe {
  return async () => {
    const start = await mainThreadTasks(devtools);
    return async () => {
      const end = await mainThreadTasks(devtools);
      return (end.taskSeconds - start.taskSeconds) / (end.at - start.at);
    };
  };
}
