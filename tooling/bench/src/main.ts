// pnpm bench [--quick] [--runs N] [--only 1,2,3,4,5,6,7,memory]
// Issue 7's suite: zarrkit beside zarrita.js and the floor, on one machine.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { chunkReads } from "./cases/chunk-reads.js";
import { floorChecksum } from "./cases/floor-checksum.js";
import { memoryReads } from "./cases/memory.js";
import { planeReads } from "./cases/plane-reads.js";
import { randomReads } from "./cases/random-reads.js";
import { rewrites } from "./cases/rewrites.js";
import { wholeReads } from "./cases/whole-read.js";
import { wholeWrites } from "./cases/whole-writes.js";
import { Content } from "./content.js";
import { ensureData } from "./data.js";
import { numcodecsZstd } from "./direct-codecs.js";
import { FORMS, form } from "./forms.js";
import { LatencyServer } from "./http/latency-server-client.js";
import { backgroundCpu, environment } from "./machine.js";
import { DATA_DIR, RESULTS_DIR } from "./paths.js";
import { FULL, QUICK } from "./profile.js";
import type { CaseResult, SuiteResults } from "./results.js";
import { HttpSource, LocalSource } from "./sources.js";
import type { SuiteContext } from "./suite-context.js";
import { summary } from "./table.js";
import { verdicts } from "./targets.js";

const ALL = ["1", "2", "3", "4", "5", "6", "7", "memory"];
const { values: args } = parseArgs({
  options: { quick: { type: "boolean", default: false }, runs: { type: "string" }, only: { type: "string" } },
});
const only = new Set(args.only?.split(",") ?? ALL);
const unknown = [...only].filter((o) => !ALL.includes(o));
if (unknown.length) throw new Error(`--only takes ${ALL.join(",")}; got ${unknown.join(",")}`);
const profile = { ...(args.quick ? QUICK : FULL), ...(args.runs ? { runs: Number(args.runs) } : {}) };

const started = performance.now();
const log = (line: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

log(`profile ${profile.name}: ${profile.size}^3 uint16, ${profile.runs} runs per contender after ${profile.warmups} warm-up(s); sampling background CPU`);
const env = environment(profile.name, await backgroundCpu());
log(`background CPU ${(env.backgroundCpu.before * 100).toFixed(0)}% of ${env.cores} cores`);
const content = new Content(profile.size);
const data = content.all();
const ctx: SuiteContext = {
  profile,
  content,
  dataRoot: await ensureData(profile, content, data, log),
  scratchRoot: join(DATA_DIR, `${profile.name}-scratch`),
  zstd: await numcodecsZstd(3),
  log,
};

const cases: CaseResult[] = [];
const local = new LocalSource(ctx.dataRoot);
if (only.has("1")) cases.push(...(await wholeReads(ctx, local, FORMS)));
if (only.has("2")) cases.push(...(await chunkReads(ctx, local, profile.concurrencies)));
if (only.has("3")) cases.push(...(await randomReads(ctx, local, 1)));
if (only.has("4")) cases.push(await planeReads(ctx, local));
if (only.has("5")) {
  const server = await LatencyServer.start(DATA_DIR, profile.latencyMs);
  try {
    const http = new HttpSource(server, `${profile.name}/`);
    cases.push(...(await wholeReads(ctx, http, profile.chunkForms.map(form))));
    cases.push(...(await chunkReads(ctx, http, profile.httpConcurrencies)));
    cases.push(...(await randomReads(ctx, http, profile.httpRandomConcurrency)));
    cases.push(await planeReads(ctx, http));
  } finally {
    await server.stop();
  }
}
if (only.has("6")) cases.push(...(await wholeWrites(ctx, data)), ...(await rewrites(ctx, data)));
if (only.has("7")) cases.push(await floorChecksum(ctx, data));
const memory = only.has("memory") ? await memoryReads(ctx) : [];

env.backgroundCpu.after = await backgroundCpu();
const measured = { environment: env, cases, memory, elapsedSeconds: (performance.now() - started) / 1000 };
const targets = verdicts(measured, profile.size ** 3 * 2, profile.randomChunks, (profile.size / profile.shard) ** 2);
const results: SuiteResults = { ...measured, targets };
const name = `${env.date.slice(0, 10)}${profile.name === "quick" ? "-quick" : ""}${only.size < ALL.length ? "-partial" : ""}.json`;
mkdirSync(RESULTS_DIR, { recursive: true });
writeFileSync(join(RESULTS_DIR, name), `${JSON.stringify(results, null, 2)}\n`);
log(`background CPU after: ${(env.backgroundCpu.after * 100).toFixed(0)}%; results in results/${name}`);
process.stdout.write(`${summary(results)}\n`);
