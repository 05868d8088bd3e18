// The CI slice: a fixed seed and a bounded number of cases per target. Known
// failures (FINDINGS.md, src/known.ts) are reported; any other fails the test.
import { describe, expect, it } from "vitest";
import { knownFinding } from "../src/known.js";
import { runTarget } from "../src/runner.js";

const SEED = 20240601;
const SLICE: Record<string, number> = {
  shard: 2000,
  metadata: 3000,
  neuroglancer: 4000,
  zstd: 1500,
  "bz2-lzma": 300,
  zip: 1000,
  xml: 2000,
};

describe("fuzz slice (seed 20240601)", () => {
  for (const [target, numRuns] of Object.entries(SLICE)) {
    it(`${target}: ${numRuns} cases keep the contract`, async () => {
      const summary = await runTarget(target, { seed: SEED, numRuns });
      const unknown = summary.failures.filter((f) => !knownFinding(f.target, f.message));
      for (const f of summary.failures) {
        const known = knownFinding(f.target, f.message);
        console.log(
          `${known ? `known ${known}` : "NEW"}: [${f.target}] ${f.kind} x${f.count}: ${f.message.split("\n")[0]} ` +
            `(pnpm fuzz --target ${f.target} --seed ${f.seed} --replay ${f.path})`,
        );
      }
      console.log(
        `${target}: ${summary.cases} cases`,
        summary.outcomes,
        `failed ${summary.failedCases}, ${summary.ms} ms`,
      );
      expect(summary.cases).toBe(numRuns);
      expect(unknown.map((f) => `${f.kind}: ${f.message.split("\n")[0]} (seed ${f.seed} path ${f.path})`)).toEqual([]);
    });
  }
});
