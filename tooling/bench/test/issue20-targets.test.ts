import { describe, expect, test } from "vitest";
import { issue20Verdicts } from "../src/issue20-targets.js";
import type { CaseResult, Environment, Measured, SuiteResults } from "../src/results.js";
import { tensorstoreSeconds } from "../src/tensorstore/cost.js";

const measured = (name: string, medianMs: number, extra: Partial<Measured> = {}): Measured => ({
  name,
  medianMs,
  minMs: medianMs,
  maxMs: medianMs,
  runsMs: [medianMs],
  ...extra,
});

const caseOf = (
  id: string,
  group: CaseResult["group"],
  contenders: Measured[],
  form?: CaseResult["form"],
): CaseResult => ({
  id,
  group,
  title: id,
  source: "local",
  load: [0, 0],
  contenders,
  ...(form ? { form } : {}),
});

function results(cases: CaseResult[], environment: Partial<Environment> = {}): Omit<SuiteResults, "targets"> {
  const env = { cores: 2, tensorstore: "0.1.85", ...environment } as Environment;
  return { environment: env, cases, memory: [], failures: [], elapsedSeconds: 0 };
}

describe("issue 20's targets", () => {
  test("zarrkit against tensorstore: tensorstore's time over zarrkit's, met from 1.0x", () => {
    const verdicts = issue20Verdicts(
      results([
        caseOf("whole/sharded/local", 1, [measured("zarrkit", 200), measured("tensorstore", 100)]),
        caseOf("write/sharded", 6, [measured("zarrkit", 90), measured("tensorstore", 120)]),
        caseOf("whole/raw/local", 1, [measured("zarrkit", 50)]),
      ]),
    );
    const compared = verdicts.filter((v) => v.target.includes("tensorstore"));
    expect(compared).toEqual([
      { target: "whole/sharded/local: zarrkit >= 1.0x tensorstore", measured: "0.50x (100 ms vs 200 ms)", met: false },
      { target: "write/sharded: zarrkit >= 1.0x tensorstore", measured: "1.33x (120 ms vs 90 ms)", met: true },
    ]);
  });

  test("tensorstore skipped: one unmeasured verdict saying why", () => {
    const verdicts = issue20Verdicts(
      results([], { tensorstore: "skipped: pip install tensorstore==0.1.85 failed: no index" }),
    );
    expect(verdicts.filter((v) => v.target.includes("tensorstore"))).toEqual([
      {
        target: "whole reads, warm random reads and whole writes: zarrkit >= 1.0x tensorstore",
        measured: "not measured (tensorstore skipped: pip install tensorstore==0.1.85 failed: no index)",
        met: undefined,
      },
    ]);
  });

  test("scaling: the busy share with the most workers (median) against 10%; the speed-up judged on 16 cores", () => {
    const scaling = caseOf("scaling/sharded", 10, [
      measured("zarrkit, workers off", 1000, { busyShares: [1, 1, 1] }),
      measured("zarrkit, 1 worker", 400, { busyShares: [0.05, 0.2, 0.08], cpuShares: [0.04, 0.06, 0.05] }),
    ]);
    const [busy, speedup] = issue20Verdicts(results([scaling])).filter((v) => v.target.startsWith("scaling/"));
    expect(busy).toEqual({
      target: "scaling/sharded: with workers on, the calling thread busy <= 10% of the read",
      measured: "8.0% of 400 ms (zarrkit, 1 worker; on a CPU 5.0%)",
      met: true,
    });
    expect(speedup).toMatchObject({
      measured: "2.50x (1000 ms vs 400 ms), zarrkit, 1 worker; not judged on 2 cores (the busy share is)",
      met: undefined,
    });
    const [, onSixteen] = issue20Verdicts(results([scaling], { cores: 16 })).filter((v) =>
      v.target.startsWith("scaling/"),
    );
    expect(onSixteen).toMatchObject({ measured: "2.50x (1000 ms vs 400 ms)", met: false });
  });
});

describe("what tensorstore costs a run", () => {
  test("its contenders' time, the whole of the cases only it asks for, the runs it adds to the others", () => {
    const cost = tensorstoreSeconds(
      [
        caseOf(
          "whole/sharded/local",
          1,
          [measured("zarrkit", 1, { spentMs: 5000 }), measured("tensorstore", 1, { spentMs: 1000 })],
          "sharded",
        ),
        // A row the suite has anyway: only tensorstore's share counts.
        caseOf(
          "write/sharded",
          6,
          [measured("zarrkit", 1, { spentMs: 4000 }), measured("tensorstore", 1, { spentMs: 2000 })],
          "sharded",
        ),
        // A row there for tensorstore: all of it counts.
        {
          ...caseOf(
            "write/sharded-other",
            6,
            [measured("zarrkit", 1, { spentMs: 3000 }), measured("tensorstore", 1, { spentMs: 500 })],
            "sharded-other",
          ),
          forTensorstore: true,
        },
        // Compared with tensorstore, so run 5 times where the profile runs 2: 3 of the 6 rounds (with the warm-up) count.
        caseOf(
          "whole/sharded-raw/local",
          1,
          [
            measured("zarrkit", 1, { spentMs: 600, runsMs: [1, 1, 1, 1, 1] }),
            measured("tensorstore", 1, { spentMs: 500 }),
          ],
          "sharded-raw",
        ),
        // Not compared: none of it counts.
        caseOf("whole/raw/local", 1, [measured("zarrkit", 1, { spentMs: 900, runsMs: [1, 1, 1, 1, 1] })], "raw"),
      ],
      { runs: 2, warmups: 1 },
    );
    expect(cost).toBe(6.5 + 0.3 + 0.5);
  });
});
