import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import * as zk from "zarrkit";
import { checkBox, wholeBox } from "../check.js";
import { type Contender, contest } from "../contest.js";
import type { ConvertFloorSpec } from "../convert-floor-child.js";
import { BYTES_LE, form } from "../forms.js";
import type { ProbeReport } from "../process-probe.js";
import type { CaseResult, ConversionFacts, ProcessFigures } from "../results.js";
import type { SuiteContext } from "../suite-context.js";

const run = promisify(execFile);
const MiB = 2 ** 20;
/** zarrkit writes zstd level 3 for `--codec zstd:3` (and by default); the floor compresses at the same level. */
const LEVEL = 3;
const PROBE = fileURLToPath(new URL("../process-probe.js", import.meta.url));
const FLOOR_CHILD = fileURLToPath(new URL("../convert-floor-child.js", import.meta.url));
/** The built CLI, as `npm i -g @zarrkit/cli` installs it. */
const CLI = fileURLToPath(new URL("./bin.js", import.meta.resolve("@zarrkit/cli")));

/** Total size of the files under `dir` (0 when missing). */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/**
 * Case 8: `zarrkit convert` of the unsharded zstd form into shards of the
 * sharded form's shape (`profile.shard`^3 of `profile.inner`^3 inner chunks,
 * zstd 3, index bytes + crc32c), the built CLI run in child processes as a
 * user runs it: `--jobs 1`, `--jobs 2`, two processes `--part 0/2` and
 * `--part 1/2` at once (`--jobs 1` each), and the floor (floorConvert) in a
 * child of its own. Each run writes into an emptied destination; every
 * process reports its CPU time and peak RSS through a preloaded probe.
 */
export async function conversion(ctx: SuiteContext): Promise<CaseResult> {
  const { profile, content } = ctx;
  const source = join(ctx.dataRoot, form("zstd").path);
  const dest = join(ctx.scratchRoot, "convert");
  const cube = (n: number) => `${n},${n},${n}`;
  const layout = [
    "--chunk-shape",
    cube(profile.inner),
    "--shard-shape",
    cube(profile.shard),
    "--codec",
    `zstd:${LEVEL}`,
    "--progress",
    "none",
  ];
  let probes = 0;
  mkdirSync(ctx.scratchRoot, { recursive: true });

  /** Run `args` under node with the probe; its figures once it exited. */
  async function probed(args: string[]): Promise<ProbeReport> {
    const file = join(ctx.scratchRoot, `probe-${probes++}.json`);
    await run(process.execPath, ["--import", PROBE, ...args], {
      env: { ...process.env, BENCH_PROBE_FILE: file },
      maxBuffer: MiB,
    });
    const report = JSON.parse(readFileSync(file, "utf8")) as ProbeReport;
    rmSync(file);
    return report;
  }
  const cli = (...extra: string[]) => probed([CLI, "convert", source, dest, ...layout, ...extra]);

  /** A contender running `work`, which returns its processes' reports; checked against the content in the warm-up. */
  function contender(
    name: string,
    inFlight: number,
    work: () => Promise<ProbeReport[]>,
    writesMetadata: boolean,
  ): Contender & { inFlight: number } {
    let last: ProbeReport[] = [];
    return {
      name,
      inFlight,
      async prepare(checking) {
        rmSync(dest, { recursive: true, force: true });
        return async () => {
          last = await work();
          if (checking) await readBack(name, writesMetadata);
        };
      },
      async processes(): Promise<ProcessFigures> {
        return {
          cpuMs: last.reduce((sum, r) => sum + r.cpuMs, 0),
          peakRssMiB: Math.max(...last.map((r) => r.peakRss)) / MiB,
          bytesWritten: bytesUnder(join(dest, "c")),
        };
      },
    };
  }

  /** Every value of the converted array, read back with zarrkit, and its layout. */
  async function readBack(who: string, writesMetadata: boolean): Promise<void> {
    const store = new zk.FileSystemStore(dest);
    const array = writesMetadata
      ? await zk.openArray(store, "")
      : await zk.createArray(store, "", {
          shape: [profile.size, profile.size, profile.size],
          dataType: "uint16",
          chunkShape: [profile.inner, profile.inner, profile.inner],
          shardShape: [profile.shard, profile.shard, profile.shard],
          codecs: [BYTES_LE, { name: "zstd", configuration: { level: LEVEL, checksum: false } }],
        });
    const expected = `${cube(profile.inner)} in ${cube(profile.shard)}`;
    const got = `${array.chunkShape.join(",")} in ${array.shardShape?.join(",")}`;
    if (got !== expected) throw new Error(`${who}: converted to inner chunks ${got}, expected ${expected}`);
    checkBox(content, (await array.get()).data as Uint16Array, wholeBox(profile.size), `${who} conversion`);
  }

  const floorSpec: ConvertFloorSpec = { sourceRoot: ctx.dataRoot, destRoot: dest, profile, level: LEVEL };
  const contenders = [
    contender("zarrkit --jobs 1", 1, async () => [await cli("--jobs", "1")], true),
    contender("zarrkit --jobs 2", 2, async () => [await cli("--jobs", "2")], true),
    contender(
      "zarrkit 2 parts",
      1,
      () => Promise.all([cli("--jobs", "1", "--part", "0/2"), cli("--jobs", "1", "--part", "1/2")]),
      true,
    ),
    contender("floor", 1, async () => [await probed([FLOOR_CHILD, JSON.stringify(floorSpec)])], false),
  ];
  const spec = {
    id: "convert/zstd-to-sharded",
    group: 8,
    title:
      `convert ${profile.size}^3 uint16, zstd ${profile.chunk}^3 chunks -> ${profile.shard}^3 shards ` +
      `of ${profile.inner}^3, zstd ${LEVEL}`,
    source: "local",
    form: "zstd",
  } as const;
  const result = await contest(spec, contenders, profile, ctx.log);
  // The command's own footprint: run again over a complete destination (the floor's, if it ran last, has no metadata),
  // it converts nothing.
  if (!existsSync(join(dest, "zarr.json"))) {
    rmSync(dest, { recursive: true, force: true });
    await cli("--jobs", "1");
  }
  const idle = await cli("--jobs", "1");
  rmSync(dest, { recursive: true, force: true });
  ctx.log(
    `convert: the CLI converting nothing peaks at ${(idle.peakRss / MiB).toFixed(0)} MiB, ` +
      `in ${idle.cpuMs.toFixed(0)} ms of CPU`,
  );
  const conversion: ConversionFacts = {
    arrayBytes: profile.size ** 3 * 2,
    shardBytes: profile.shard ** 3 * 2,
    shardsInFlight: Object.fromEntries(contenders.map((c) => [c.name, c.inFlight])),
    idleRssMiB: idle.peakRss / MiB,
    idleCpuMs: idle.cpuMs,
  };
  return { ...result, conversion };
}
