// contest(): what it records besides wall times: a time the work measured
// itself (a child process), the calling thread's busy share, each contender's cost.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, test } from "vitest";
import { eventLoopBusy } from "../src/busy.js";
import { type Contender, contest, SelfTimed } from "../src/contest.js";

const spec = { id: "test", group: 1, title: "test", source: "local" } as const;
const rounds = { runs: 3, warmups: 1 };
const quiet = () => {};

/** Keeps the calling thread busy for `ms`, without yielding. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe("contest", () => {
  test("a work that times itself is reported with its own time, not the wall time around it", async () => {
    let run = 0;
    const child: Contender = { name: "child", prepare: async () => async () => new SelfTimed([5, 7, 6, 9][run++]!) };
    const result = await contest(spec, [child], rounds, quiet);
    // The warm-up's 5 is not timed; the three timed runs are.
    expect(result.contenders[0]).toMatchObject({ runsMs: [7, 6, 9], medianMs: 7, minMs: 6, maxMs: 9 });
  });

  test("the calling thread's busy share per timed run, where probed: near 1 computing, low waiting", async () => {
    // Long enough that the loop's own turns around the work (slow on a loaded machine) weigh little.
    const computing: Contender = { name: "computing", busy: eventLoopBusy, prepare: async () => async () => spin(100) };
    const waiting: Contender = { name: "waiting", busy: eventLoopBusy, prepare: async () => () => sleep(200) };
    const unprobed: Contender = { name: "unprobed", prepare: async () => async () => spin(1) };
    const [busy, idle, none] = (await contest(spec, [computing, waiting, unprobed], rounds, quiet)).contenders;
    expect(busy!.busyShares).toHaveLength(3);
    for (const share of busy!.busyShares!) expect(share).toBeGreaterThan(0.8);
    for (const share of idle!.busyShares!) expect(share).toBeLessThan(0.5);
    expect(none!.busyShares).toBeUndefined();
  });

  test("each contender's cost to the suite: its warm-ups and preparations too, not only its timed runs", async () => {
    const slowToPrepare: Contender = {
      name: "slow",
      prepare: async () => {
        await sleep(20);
        return async () => new SelfTimed(1);
      },
    };
    const [m] = (await contest(spec, [slowToPrepare], rounds, quiet)).contenders;
    // Four preparations (one warm-up, three runs) of at least 20 ms each; the timed runs say 1 ms.
    expect(m!.spentMs).toBeGreaterThanOrEqual(4 * 20 - 1);
    expect(m!.medianMs).toBe(1);
  });
});
