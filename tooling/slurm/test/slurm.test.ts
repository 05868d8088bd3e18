// The real batch engine: a single-node SLURM cluster runs a 4-task job array.
// Skipped with a printed reason when SLURM is not installed (a failure on CI).
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAlive, type SlurmCluster, startSlurm } from "../src/slurm.js";

let cluster: SlurmCluster | undefined;
let skipReason: string | undefined;

beforeAll(async () => {
  cluster = await startSlurm({
    log: (line) => console.log(line),
    onUnavailable: (reason) => (skipReason = reason),
  });
  if (!cluster) {
    if (process.env.CI === "true") throw new Error(`The SLURM tests need SLURM on CI: ${skipReason}.`);
    console.warn(`\n[slurm] Skipping the tests against SLURM: ${skipReason}.\n`);
  }
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

describe("SLURM job arrays", () => {
  it("runs every task of a 4-task array with its id and the count", async (context) => {
    if (!cluster) return context.skip(skipReason);
    console.log(`[slurm] node idle ${cluster.startMs} ms after start`);
    const dir = join(cluster.dir, "array-ids");
    const result = await cluster.sbatchArray(
      `mkdir -p ${dir} && echo "$SLURM_ARRAY_TASK_ID $SLURM_ARRAY_TASK_COUNT" > ${dir}/task.$SLURM_ARRAY_TASK_ID && ` +
        `echo task $SLURM_ARRAY_TASK_ID done`,
      4,
    );
    console.log(`[slurm] 4-task job array ${result.jobId} finished in ${result.ms} ms`);
    expect(result.sbatchOutput).toMatch(/^\d+/);
    expect(result.status, result.sbatchOutput).toBe(0);
    expect(result.ok).toBe(true);
    const lines = await Promise.all([0, 1, 2, 3].map((task) => readFile(join(dir, `task.${task}`), "utf8")));
    expect(lines).toEqual(["0 4\n", "1 4\n", "2 4\n", "3 4\n"]);
    expect(result.outputs).toEqual(["task 0 done\n", "task 1 done\n", "task 2 done\n", "task 3 done\n"]);
  });

  it("reports failure when a task fails", async (context) => {
    if (!cluster) return context.skip(skipReason);
    const result = await cluster.sbatchArray(`echo task $SLURM_ARRAY_TASK_ID; [ "$SLURM_ARRAY_TASK_ID" != 2 ]`, 3);
    console.log(`[slurm] 3-task job array with a failing task finished in ${result.ms} ms (status ${result.status})`);
    expect(result.ok).toBe(false);
    expect(result.status).not.toBe(0);
    expect(result.outputs).toEqual(["task 0\n", "task 1\n", "task 2\n"]);
  });

  it("submits a batch script whose #SBATCH lines make the array, with its arguments", async (context) => {
    if (!cluster) return context.skip(skipReason);
    const script = join(cluster.dir, "array.sh");
    await writeFile(
      script,
      '#!/bin/sh\n#SBATCH --array=0-2\necho "task $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT: $1 $2"\n',
    );
    const result = await cluster.sbatchScript(script, ["a b", "c"], 3);
    console.log(`[slurm] 3-task job array from a script finished in ${result.ms} ms`);
    expect(result.status, result.sbatchOutput).toBe(0);
    expect(result.outputs).toEqual(["task 0 of 3: a b c\n", "task 1 of 3: a b c\n", "task 2 of 3: a b c\n"]);
  });

  it("stops every process it started, by PID, and removes its folder", async (context) => {
    if (!cluster) return context.skip(skipReason);
    const { processes, dir } = cluster;
    expect(processes.map((p) => p.name)).toEqual(["munged", "slurmctld", "slurmd"]);
    expect(processes.every((p) => isAlive(p.pid))).toBe(true);
    const started = Date.now();
    await cluster.stop();
    console.log(`[slurm] stopped in ${Date.now() - started} ms`);
    expect(processes.filter((p) => isAlive(p.pid))).toEqual([]);
    expect(existsSync(dir)).toBe(false);
    cluster = undefined;
  });
});
