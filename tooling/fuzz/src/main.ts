// pnpm fuzz [--seed N] [--runs N] [--target shard,metadata,neuroglancer,zstd]
//           [--long [--minutes M]] [--replay PATH]
// Seeded fuzzing of zarrkit's parsers; see README.md. Exit 1 on any failure.
import { parseArgs } from "node:util";
import { type Failure, replay, runTarget, type TargetSummary } from "./runner.js";
import { getTarget, TARGETS } from "./targets/index.js";

const { values: args } = parseArgs({
  options: {
    seed: { type: "string", default: "20240601" },
    runs: { type: "string", default: "1000" },
    target: { type: "string" },
    long: { type: "boolean", default: false },
    minutes: { type: "string", default: "10" },
    replay: { type: "string" },
  },
});

const seed = Number(args.seed);
const runs = Number(args.runs);
const targets = args.target ? args.target.split(",") : Object.keys(TARGETS);
for (const t of targets) {
  if (!TARGETS[t]) {
    console.error(`unknown target ${t}; targets: ${Object.keys(TARGETS).join(", ")}`);
    process.exit(2);
  }
}
if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(runs) || runs < 1) {
  console.error("--seed and --runs must be integers");
  process.exit(2);
}

const firstLine = (text: string) => {
  const end = text.indexOf("\n");
  return end < 0 ? text : text.slice(0, end);
};
const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;
const reproduce = (f: Failure) => `pnpm fuzz --target ${f.target} --seed ${f.seed} --replay ${f.path}`;

if (args.replay !== undefined) {
  const only = targets.length === 1 ? targets[0] : undefined;
  if (only === undefined) {
    console.error("--replay needs exactly one --target");
    process.exit(2);
  }
  const result = await replay(only, seed, args.replay);
  if (!result.failure) {
    console.log(`${only} seed ${seed} path ${args.replay}: passes`);
    process.exit(0);
  }
  console.log(`${only} seed ${seed} path ${args.replay}: ${result.failure.kind}`);
  console.log(result.failure.detail || result.failure.message);
  console.log(`shrunk (${result.numShrinks ?? 0} shrinks) to path ${result.path}:`);
  console.log(result.counterexample);
  if (result.files) {
    console.log("store after mutation (key: hex):");
    for (const [key, hex] of Object.entries(result.files)) {
      console.log(`  ${key}: ${/(zarr\.json|info)$/.test(key) ? Buffer.from(hex, "hex").toString("latin1") : hex}`);
    }
  }
  process.exit(1);
}

const summaries: TargetSummary[] = [];
const onFailure = (f: Failure) =>
  console.log(`  FAILURE ${f.target} ${f.kind}: ${firstLine(f.message).slice(0, 300)}\n    reproduce: ${reproduce(f)}`);

if (args.long) {
  // Round-robin slices of a minute per target, each slice its own seed, until the time is up.
  const deadline = Date.now() + Number(args.minutes) * 60_000;
  for (let round = 0; Date.now() < deadline; round++) {
    for (const t of targets) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      const summary = await runTarget(t, {
        seed: seed + round,
        numRuns: Number.MAX_SAFE_INTEGER,
        timeLimitMs: Math.min(60_000, left),
        onFailure,
      });
      summaries.push(summary);
      console.log(`${t} seed ${seed + round}: ${summary.cases} cases, ${summary.failedCases} failed`);
    }
  }
} else {
  for (const t of targets) {
    console.log(`${t}: ${runs} cases, seed ${seed} (${getTarget(t).description})`);
    summaries.push(await runTarget(t, { seed, numRuns: runs, onFailure }));
  }
}

console.log(
  "\ntarget        cases    same   typed  diff(no checksum)  FAILURES  peak RSS growth  peak ArrayBuffer growth  time",
);
for (const t of targets) {
  const mine = summaries.filter((s) => s.target === t);
  const sum = (f: (s: TargetSummary) => number) => mine.reduce((n, s) => n + f(s), 0);
  const max = (f: (s: TargetSummary) => number) => mine.reduce((n, s) => Math.max(n, f(s)), 0);
  console.log(
    [
      t.padEnd(12),
      String(sum((s) => s.cases)).padStart(6),
      String(sum((s) => s.outcomes.same)).padStart(7),
      String(sum((s) => s.outcomes.typed)).padStart(7),
      String(sum((s) => s.outcomes.different)).padStart(18),
      `${String(sum((s) => s.failedCases)).padStart(9)} `,
      `${mib(max((s) => s.peakRssGrowth)).padStart(15)} `,
      `${mib(max((s) => s.peakArrayBuffersGrowth)).padStart(23)} `,
      `${(sum((s) => s.ms) / 1000).toFixed(1)} s`,
    ].join(" "),
  );
}
const failures = summaries.flatMap((s) => s.failures);
if (failures.length > 0) {
  console.log(`\n${failures.length} distinct failure(s):`);
  for (const f of failures) {
    console.log(
      `- [${f.target}] ${f.kind} (${f.count} case(s)): ${firstLine(f.message).slice(0, 400)}\n  seed ${f.seed} ` +
        `path ${f.path}; reproduce and shrink: ${reproduce(f)}`,
    );
  }
  process.exit(1);
}
console.log("\nno failures");
