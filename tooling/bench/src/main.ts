// pnpm bench [--quick] [--runs N] [--only 1,2,3,4,5,6,7,8,scaling,browser,memory,convert] [--malloc huge-pages|default]
// Issue 7's suite: zarrkit beside zarrita.js and the floor, on one machine.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { browserReads } from "./cases/browser-read.js";
import { chunkReads } from "./cases/chunk-reads.js";
import { conversion } from "./cases/conversion.js";
import { floorChecksum } from "./cases/floor-checksum.js";
import { memoryReads } from "./cases/memory.js";
import { planeReads } from "./cases/plane-reads.js";
import { issue20Pick, randomReads } from "./cases/random-reads.js";
import { rewrites } from "./cases/rewrites.js";
import { scaling } from "./cases/scaling.js";
import { wholeReads } from "./cases/whole-read.js";
import { wholeWrites } from "./cases/whole-writes.js";
import { zstdDecodes } from "./cases/zstd-decode.js";
import { Content } from "./content.js";
import { ensureData } from "./data.js";
import { zarrkitZstd } from "./direct-codecs.js";
import { FORMS, form } from "./forms.js";
import { mallocSetting, relaunchWithHugePages } from "./huge-pages.js";
import { LatencyServer } from "./http/latency-server-client.js";
import { backgroundCpu, environment } from "./machine.js";
import { DATA_DIR, RESULTS_DIR } from "./paths.js";
import { FULL, QUICK } from "./profile.js";
import type { CaseResult, Failure, MemoryResult, SuiteResults } from "./results.js";
import { HttpSource, LocalSource } from "./sources.js";
import type { SuiteContext } from "./suite-context.js";
import { summary } from "./table.js";
import { verdicts } from "./targets.js";
import { QUICK_BUDGET_SECONDS, tensorstoreSeconds } from "./tensorstore/cost.js";
import { COMPARED_RUNS } from "./tensorstore/contenders.js";
import { startTensorstore, stopTensorstore } from "./tensorstore/session.js";

const ALL = ["1", "2", "3", "4", "5", "6", "7", "8", "scaling", "browser", "memory", "convert"];
const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    runs: { type: "string" },
    only: { type: "string" },
    malloc: { type: "string", default: "huge-pages" },
  },
});
if (args.malloc !== "huge-pages" && args.malloc !== "default") {
  throw new Error(`--malloc takes huge-pages or default; got ${args.malloc}`);
}
const relaunched = relaunchWithHugePages(args.malloc);
if (relaunched !== undefined) process.exit(relaunched);
const only = new Set(args.only?.split(",") ?? ALL);
const unknown = [...only].filter((o) => !ALL.includes(o));
if (unknown.length) throw new Error(`--only takes ${ALL.join(",")}; got ${unknown.join(",")}`);
const profile = { ...(args.quick ? QUICK : FULL), ...(args.runs ? { runs: Number(args.runs) } : {}) };

const started = performance.now();
const log = (line: string) =>
  process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

log(
  `profile ${profile.name}: ${profile.size}^3 uint16, ${profile.runs} runs per contender (at least ${COMPARED_RUNS} ` +
    `where compared with tensorstore) after ${profile.warmups} warm-up(s); sampling background CPU`,
);
const env = environment(profile.name, await backgroundCpu(), mallocSetting(args.malloc));
log(`background CPU ${(env.backgroundCpu.before * 100).toFixed(0)}% of ${env.cores} cores`);
log(`Node allocates with ${env.malloc}`);
const content = new Content(profile.size);
const data = content.all();
// Cases 1, 3 and 6 compare with tensorstore.
const tensorstoreStart = performance.now();
const tensorstore = await startTensorstore(
  profile,
  ["1", "3", "6"].some((o) => only.has(o)),
  log,
);
const tensorstoreStartup = (performance.now() - tensorstoreStart) / 1000;
env.tensorstore = "child" in tensorstore ? tensorstore.version : `skipped: ${tensorstore.skip}`;
const ctx: SuiteContext = {
  profile,
  content,
  dataRoot: await ensureData(profile, content, data, log),
  scratchRoot: join(DATA_DIR, `${profile.name}-scratch`),
  zstd: await zarrkitZstd(3),
  tensorstore,
  log,
};

const cases: CaseResult[] = [];
const failures: Failure[] = [];
function fail(step: string, error: unknown): void {
  failures.push({ step, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  log(`${step} FAILED: ${error instanceof Error ? error.message : String(error)}`);
}
/** Run one step; a failure is recorded and the suite goes on, so an hour's run is not lost to one case. */
async function attempt(step: string, run: () => Promise<CaseResult | CaseResult[]>): Promise<void> {
  try {
    cases.push(...[await run()].flat());
  } catch (error) {
    fail(step, error);
  }
}

const local = new LocalSource(ctx.dataRoot);
if (only.has("1")) await attempt("1: whole reads", () => wholeReads(ctx, local, FORMS));
if (only.has("2")) await attempt("2: chunk reads", () => chunkReads(ctx, local, profile.concurrencies));
if (only.has("3")) {
  await attempt("3: random reads", () => randomReads(ctx, local, 1));
  await attempt("3: random 64^3 reads (issue 20)", () => randomReads(ctx, local, 1, issue20Pick(profile)));
}
if (only.has("4")) await attempt("4: z-plane", () => planeReads(ctx, local));
if (only.has("scaling")) await attempt("10: scaling", () => scaling(ctx, local));
if (only.has("5")) {
  const server = await LatencyServer.start(DATA_DIR, profile.latencyMs);
  try {
    const http = new HttpSource(server, `${profile.name}/`);
    await attempt("5: whole reads over HTTP", () => wholeReads(ctx, http, profile.chunkForms.map(form)));
    await attempt("5: chunk reads over HTTP", () => chunkReads(ctx, http, profile.httpConcurrencies));
    await attempt("5: random reads over HTTP", () => randomReads(ctx, http, profile.httpRandomConcurrency));
    await attempt("5: z-plane over HTTP", () => planeReads(ctx, http));
  } finally {
    await server.stop();
  }
}
if (only.has("6")) {
  await attempt("6: whole writes", () => wholeWrites(ctx, data));
  await attempt("6: rewrites", () => rewrites(ctx, data));
}
if (only.has("7")) await attempt("7: floor checksum", () => floorChecksum(ctx, data));
if (only.has("8")) await attempt("8: zstd decoders", () => zstdDecodes(ctx));
if (only.has("browser")) await attempt("9: browser", () => browserReads(ctx));
let memory: MemoryResult[] = [];
if (only.has("memory")) {
  try {
    memory = await memoryReads(ctx);
  } catch (error) {
    fail("memory", error);
  }
}
// Last: its writes and fsyncs leave nothing behind for the cases above to pay for.
if (only.has("convert")) await attempt("8: conversion", () => conversion(ctx));
await stopTensorstore(tensorstore);
if ("child" in tensorstore) {
  env.tensorstoreSeconds = tensorstoreStartup + tensorstoreSeconds(cases, profile);
  log(`the comparison with tensorstore added ${env.tensorstoreSeconds.toFixed(0)} s to this run`);
  if (profile.name === "quick" && env.tensorstoreSeconds > QUICK_BUDGET_SECONDS) {
    log(
      `over bench:quick's budget of ${QUICK_BUDGET_SECONDS} s for it; ` +
        "if an idle machine shows that too, set tensorstoreSkip in the quick profile",
    );
  }
}

env.backgroundCpu.after = await backgroundCpu();
const measured = { environment: env, cases, memory, failures, elapsedSeconds: (performance.now() - started) / 1000 };
const targets = verdicts(measured, profile.size ** 3 * 2, profile.randomChunks, (profile.size / profile.shard) ** 2);
const results: SuiteResults = { ...measured, targets };
const suffix = `${profile.name === "quick" ? "-quick" : ""}${only.size < ALL.length ? "-partial" : ""}`;
const name = `${env.date.slice(0, 10)}${suffix}.json`;
mkdirSync(RESULTS_DIR, { recursive: true });
writeFileSync(join(RESULTS_DIR, name), `${JSON.stringify(results, null, 2)}\n`);
log(`background CPU after: ${(env.backgroundCpu.after * 100).toFixed(0)}%; results in results/${name}`);
process.stdout.write(`${summary(results)}\n`);
if (failures.length) process.exitCode = 1;
