// The scaling case's CPU share of the calling thread (src/busy.ts): its own work counts, waiting and a worker
// thread's work do not. Skipped, with the reason printed, where the kernel reports no per-thread CPU time.
import { Worker } from "node:worker_threads";
import { describe, expect, test } from "vitest";
import { threadCpu } from "../src/busy.js";

if (!threadCpu) console.log("thread CPU probe tests skipped: no /proc/thread-self/schedstat (not Linux)");

async function shareDuring(work: () => Promise<unknown>): Promise<number> {
  const stop = await threadCpu!();
  await work();
  return stop();
}

describe.skipIf(threadCpu === undefined)("the calling thread's CPU share", () => {
  test("most of the time while the thread computes, as much as the process got", async () => {
    // Other test processes may take the cores: the thread's share is then compared with the whole process's
    // (the kernel's count for all its threads), which this thread's spinning makes up almost alone.
    const before = process.cpuUsage();
    const start = performance.now();
    const share = await shareDuring(async () => {
      const end = performance.now() + 300;
      while (performance.now() < end);
    });
    const used = process.cpuUsage(before);
    const processShare = (used.user + used.system) / 1000 / (performance.now() - start);
    expect(processShare).toBeGreaterThan(0.1);
    expect(share).toBeGreaterThan(0.75 * processShare);
    expect(share).toBeLessThanOrEqual(1.05);
  });

  test("low while it waits, and while a worker thread computes", async () => {
    const waiting = await shareDuring(() => new Promise((resolve) => setTimeout(resolve, 300)));
    const onWorker = await shareDuring(() => {
      const source =
        "const end = performance.now() + 300; while (performance.now() < end);" +
        "require('node:worker_threads').parentPort.postMessage(0);";
      const worker = new Worker(source, { eval: true });
      return new Promise((resolve) => worker.once("message", resolve)).finally(() => worker.terminate());
    });
    expect(waiting).toBeLessThan(0.2);
    expect(onWorker).toBeLessThan(0.3);
  });
});
