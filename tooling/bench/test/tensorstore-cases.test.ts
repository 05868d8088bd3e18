// Cases 1, 3 and 6 with tensorstore among their contenders, on a small data set:
// it reads and writes the forms of issue 20's comparison (only those), every
// result checked, and the tables print its ratio. Skipped, with the reason
// printed, where tensorstore cannot be had.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as zk from "zarrkit";
import { type RandomPick, randomReads } from "../src/cases/random-reads.js";
import { wholeReads } from "../src/cases/whole-read.js";
import { wholeWrites } from "../src/cases/whole-writes.js";
import { Content } from "../src/content.js";
import { zarrkitZstd } from "../src/direct-codecs.js";
import { definition, FORMS, form } from "../src/forms.js";
import { type Profile, QUICK } from "../src/profile.js";
import type { CaseResult, Environment } from "../src/results.js";
import { READ_PEERS } from "../src/peers.js";
import { LocalSource } from "../src/sources.js";
import type { SuiteContext } from "../src/suite-context.js";
import { summary } from "../src/table.js";
import { TensorstoreChild } from "../src/tensorstore/child-process.js";
import { setUpTensorstore } from "../src/tensorstore/install.js";

const PROFILE: Profile = {
  ...QUICK,
  size: 64,
  shard: 32,
  inner: 16,
  otherInner: 32,
  runs: 1,
  randomChunks: 5,
  writeForms: [],
  tensorstoreForms: ["sharded", "sharded-raw"],
};

const setup = setUpTensorstore((line) => console.log(line));
const skip = "skip" in setup ? setup.skip : undefined;
if (skip) console.log(`tensorstore case tests skipped: ${skip}`);

const root = mkdtempSync(join(tmpdir(), "zarrkit-bench-tensorstore-cases-"));
let ctx: SuiteContext;

afterAll(async () => {
  if (ctx && "child" in ctx.tensorstore) await ctx.tensorstore.child.close();
  rmSync(root, { recursive: true, force: true });
});

const names = (c: CaseResult | undefined) => c?.contenders.map((m) => m.name);

describe.skipIf(skip !== undefined)("cases with tensorstore", () => {
  beforeAll(async () => {
    const content = new Content(PROFILE.size);
    const dataRoot = join(root, "data");
    const store = new zk.FileSystemStore(dataRoot);
    const shape = [PROFILE.size, PROFILE.size, PROFILE.size];
    for (const f of FORMS)
      await (await zk.createArray(store, f.path, definition(f, PROFILE))).set(null, { data: content.all(), shape });
    const child = "command" in setup ? TensorstoreChild.start(setup.command) : undefined;
    ctx = {
      profile: PROFILE,
      content,
      dataRoot,
      scratchRoot: join(root, "scratch"),
      zstd: await zarrkitZstd(3),
      tensorstore: { child: child!, version: "0.1.85" },
      log: () => {},
    };
  });

  test("whole reads: tensorstore reads the forms compared with it, checked; the table gives its ratio", async () => {
    const cases = await wholeReads(ctx, new LocalSource(ctx.dataRoot), [
      form("sharded"),
      form("sharded-raw"),
      form("zstd"),
    ]);
    expect(cases.map(names)).toEqual([
      ["zarrita", "zarrita+coalescing", "zarrkit", "floor", "tensorstore"],
      ["zarrita", "zarrita+coalescing", "zarrkit", "floor", "tensorstore"],
      ["zarrita", "zarrita+coalescing", "zarrkit", "floor"],
    ]);
    // The profile's one run, but at least five where the case is compared with tensorstore.
    expect(cases.map((c) => c.contenders[0]!.runsMs.length)).toEqual([5, 5, 1]);
    const environment = { cores: 2, tensorstore: "0.1.85" } as Environment;
    const text = summary({ environment, cases, memory: [], failures: [], elapsedSeconds: 0, targets: [] });
    expect(text).toContain("| tensorstore ÷ zarrkit |");
    expect(text).toContain("tensorstore 0.1.85: a Python child process on the same files");
  });

  test("random reads: tensorstore reads the same boxes warm where the pick says (issue 20's, not 7's)", async () => {
    const pick: RandomPick = {
      id: "random-16",
      form: form("sharded"),
      count: 5,
      temperatures: ["cold", "warm"],
      peers: READ_PEERS,
      tensorstore: true,
    };
    const [cold, warm] = await randomReads(ctx, new LocalSource(ctx.dataRoot), 1, pick);
    expect([cold!.id, warm!.id]).toEqual(["random-16-cold/local", "random-16-warm/local"]);
    expect(names(cold)).not.toContain("tensorstore");
    expect(names(warm)).toContain("tensorstore");
    expect([cold!.contenders[0]!.runsMs.length, warm!.contenders[0]!.runsMs.length]).toEqual([1, 5]);
    const issue7 = await randomReads(ctx, new LocalSource(ctx.dataRoot), 1);
    expect(issue7.map((c) => [c.id, names(c)!.includes("tensorstore")])).toEqual([
      ["random-cold/local", false],
      ["random-warm/local", false],
    ]);
  });

  test("whole writes: rows of the compared forms, zarrkit and tensorstore alone, its writes read back", async () => {
    const cases = await wholeWrites(ctx, ctx.content.all());
    expect(cases.map((c) => [c.id, names(c), c.forTensorstore])).toEqual([
      ["write/sharded", ["zarrkit", "tensorstore"], true],
      ["write/sharded-raw", ["zarrkit", "tensorstore"], true],
    ]);
    expect(cases.map((c) => c.contenders.map((m) => m.runsMs.length))).toEqual([
      [5, 5],
      [5, 5],
    ]);
  });
});
