import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { MemoryReport, MemorySpec } from "../memory-spec.js";
import { MEMORY_PEERS } from "../peers.js";
import type { MemoryResult } from "../results.js";
import type { SuiteContext } from "../suite-context.js";

const run = promisify(execFile);
const MiB = 2 ** 20;

/**
 * Peak RSS of each read, each in a child process of its own: whole reads of every form (floor included), one inner
 * chunk, the z-plane.
 */
export async function memoryReads(ctx: SuiteContext): Promise<MemoryResult[]> {
  const child = fileURLToPath(new URL("../memory-child.js", import.meta.url));
  const base = { dataRoot: ctx.dataRoot, profile: ctx.profile };
  const peers = MEMORY_PEERS.map((p) => p.name);
  const specs: MemorySpec[] = [
    ...ctx.profile.memoryForms.flatMap((form) =>
      [...peers, "floor" as const].map((peer) => ({ ...base, peer, form, read: "whole" as const })),
    ),
    ...peers.map((peer) => ({ ...base, peer, form: "sharded" as const, read: "inner" as const })),
    ...peers.map((peer) => ({ ...base, peer, form: "sharded" as const, read: "plane" as const })),
  ];
  const results: MemoryResult[] = [];
  for (const spec of specs) {
    // A young generation too big to fill keeps a small read's garbage uncollected until it is counted.
    const flags = spec.read === "inner" ? ["--expose-gc", "--max-semi-space-size=64"] : ["--expose-gc"];
    const { stdout } = await run(process.execPath, [...flags, child, JSON.stringify(spec)], { maxBuffer: MiB });
    const report = JSON.parse(stdout) as MemoryReport;
    const id = `memory/${spec.read}/${spec.form}/${spec.peer}`;
    const title = {
      whole: `whole array, ${spec.form}`,
      inner: "one inner chunk of a shard",
      plane: "z-plane, sharded",
    }[spec.read];
    const result: MemoryResult = {
      id,
      title,
      peer: spec.peer,
      peakRssMiB: report.peakRss / MiB,
      peakReset: report.peakReset,
      baselineRssMiB: report.baselineRss / MiB,
      bytesFetched: report.bytesFetched,
      arrayBuffersGrowth: report.arrayBuffersGrowth,
      selectionBytes: report.selectionBytes,
    };
    ctx.log(
      `${id}: peak ${result.peakRssMiB.toFixed(0)} MiB (baseline ${result.baselineRssMiB.toFixed(0)} MiB), ` +
        `fetched ${report.bytesFetched} B`,
    );
    results.push(result);
  }
  return results;
}
