// The tensorstore contender (src/tensorstore/*): the real tensorstore 0.1.85 in
// its venv (installed on first use from the machine's Python index), reading and
// writing arrays zarrkit writes, each result checked as the suite checks every
// contender's. Skipped, with the reason printed, where tensorstore cannot be had.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as zk from "zarrkit";
import { checkBox, wholeBox } from "../src/check.js";
import { SelfTimed } from "../src/contest.js";
import { Content } from "../src/content.js";
import { definition, form } from "../src/forms.js";
import type { Box } from "../src/peers.js";
import { QUICK } from "../src/profile.js";
import type { CaseResult, Environment } from "../src/results.js";
import { summary } from "../src/table.js";
import { TensorstoreChild } from "../src/tensorstore/child-process.js";
import { runningChild, tensorstoreReads, tensorstoreWrite, valuesLoader } from "../src/tensorstore/contenders.js";
import { setUpTensorstore } from "../src/tensorstore/install.js";

/** Two 32^3 shards a side of 16^3 zstd inner chunks: small, and every path of a sharded read. */
const PROFILE = { ...QUICK, size: 64, shard: 32, inner: 16 };
const SHARDED = form("sharded");
const content = new Content(PROFILE.size);
const shape = [PROFILE.size, PROFILE.size, PROFILE.size];

const setup = setUpTensorstore((line) => console.log(line));
const skip = "skip" in setup ? setup.skip : undefined;
if (skip) console.log(`tensorstore tests skipped: ${skip}`);

const root = mkdtempSync(join(tmpdir(), "zarrkit-bench-tensorstore-"));
let child: TensorstoreChild | undefined;

afterAll(async () => {
  await child?.close();
  rmSync(root, { recursive: true, force: true });
});

/** The content written by zarrkit at `path`, every value plus `shift`. */
async function writeArray(path: string, shift: number): Promise<string> {
  const store = new zk.FileSystemStore(root);
  const array = await zk.createArray(store, path, definition(SHARDED, PROFILE));
  await array.set(null, { data: content.all().map((v) => v + shift), shape });
  return join(root, path);
}

/** Runs a contender's checking run (as the suite's warm-up does) and returns what its work returned. */
async function checkingRun(prepare: (checking: boolean) => Promise<() => Promise<unknown>>): Promise<unknown> {
  return (await prepare(true))();
}

describe.skipIf(skip !== undefined)("tensorstore as a contender", () => {
  const scratch = join(root, "scratch");
  const box = wholeBox(PROFILE.size);
  const boxes: Box[] = [
    { start: [0, 0, 0], stop: [16, 16, 16] },
    { start: [48, 16, 32], stop: [64, 32, 48] },
  ];

  beforeAll(() => {
    if ("command" in setup) child = TensorstoreChild.start(setup.command);
  });

  test("reads the whole array, timed in the child, and its values pass the suite's check", async () => {
    const arrayDir = await writeArray("right", 0);
    const contender = tensorstoreReads(child!, {
      arrayDir,
      scratch,
      whole: box,
      check: (data) => checkBox(content, data, box, "tensorstore"),
    });
    const done = await checkingRun(contender.prepare);
    expect(done).toBeInstanceOf(SelfTimed);
    expect((done as SelfTimed).ms).toBeGreaterThan(0);
    // The timed runs (no check) report the child's own time as well.
    expect(await (await contender.prepare(false))()).toBeInstanceOf(SelfTimed);
  });

  test("a wrong result is reported as a mismatch: the whole array and boxes read in turn", async () => {
    const arrayDir = await writeArray("shifted", 1);
    const whole = tensorstoreReads(child!, {
      arrayDir,
      scratch,
      whole: box,
      check: (data) => checkBox(content, data, box, "tensorstore"),
    });
    await expect(checkingRun(whole.prepare)).rejects.toThrow(
      /tensorstore: wrong data in box \[0,0,0\]\.\.\[64,64,64\] at element 0/,
    );
    const checked: Box[] = [];
    const inTurn = tensorstoreReads(child!, {
      arrayDir,
      scratch,
      boxes,
      whole: box,
      setup: boxes,
      check: (data, at) => {
        checked.push(at);
        checkBox(content, data, at, "tensorstore box", at === boxes[1] ? 1 : 0);
      },
    });
    // The first box's values are one too high; the second is checked with that shift, so only the first fails.
    await expect(checkingRun(inTurn.prepare)).rejects.toThrow(
      /tensorstore box: wrong data in box \[0,0,0\]\.\.\[16,16,16\]/,
    );
    expect(checked).toEqual([boxes[0]]);
  });

  test("boxes read in turn are handed back in order, each checked against its own box", async () => {
    const arrayDir = join(root, "right");
    const checked: Box[] = [];
    const inTurn = tensorstoreReads(child!, {
      arrayDir,
      scratch,
      boxes,
      whole: box,
      check: (data, at) => {
        checked.push(at);
        checkBox(content, data, at, "tensorstore box");
      },
    });
    expect(await checkingRun(inTurn.prepare)).toBeInstanceOf(SelfTimed);
    expect(checked).toEqual(boxes);
  });

  test("writes the form zarrkit writes, and zarrkit reads back what it wrote", async () => {
    const dir = join(root, "written");
    const metadata = JSON.parse(new TextDecoder().decode(await new zk.FileSystemStore(root).get("right/zarr.json")));
    const readBack = async (shift: number) => {
      const array = await zk.openArray(new zk.FileSystemStore(dir), "w");
      checkBox(content, (await array.get()).data as Uint16Array, box, "tensorstore's write", shift);
    };
    const load = valuesLoader(child!, scratch, content.all(), shape);
    const write = tensorstoreWrite(child!, { dir, path: "w", metadata, load, readBack: () => readBack(0) });
    expect(await checkingRun(write.prepare)).toBeInstanceOf(SelfTimed);
    // What it wrote is zarrkit's form: the same inner chunks and codecs (tensorstore omits the default index_location).
    const written = await zk.openArray(new zk.FileSystemStore(dir), "w");
    expect((await zk.openArray(new zk.FileSystemStore(root), "right")).metadata.codecs).toMatchObject(
      written.metadata.codecs as object[],
    );
    // The read-back check fails on values other than the content.
    const wrong = tensorstoreWrite(child!, { dir, path: "w", metadata, load, readBack: () => readBack(1) });
    await expect(checkingRun(wrong.prepare)).rejects.toThrow(/tensorstore's write: wrong data/);
  });

  test("a failed request rejects with tensorstore's message; the child goes on serving", async () => {
    await expect(child!.request({ op: "open", path: join(root, "absent") })).rejects.toThrow(
      /^tensorstore: .*NOT_FOUND/,
    );
    expect((await child!.request({ op: "version" })).version).toBe("0.1.85");
  });
});

describe("without tensorstore", () => {
  test("a venv that cannot be made is a reason to skip, not an error", () => {
    const lines: string[] = [];
    const setup = setUpTensorstore((line) => lines.push(line), "/dev/null/venv");
    expect(setup).toEqual({ skip: expect.stringMatching(/^\S*python3 -m venv \/dev\/null\/venv failed: .+/) });
    expect(lines).toEqual(["installing tensorstore 0.1.85 into /dev/null/venv (once)"]);
  });

  test("one process installs at a time: the others wait for its lock, then look again", () => {
    const dir = mkdtempSync(join(tmpdir(), "zarrkit-bench-tensorstore-lock-"));
    try {
      // A file where the venv should be: the install, once this process gets to it, fails at once.
      const venv = join(dir, "venv");
      writeFileSync(venv, "");
      mkdirSync(`${venv}.lock`);
      const done = join(dir, "done");
      // "Another process" holds the lock a while, leaves a mark, then lets go.
      const holder = spawn("sh", ["-c", `sleep 2; touch '${done}'; rmdir '${venv}.lock'`], { stdio: "ignore" });
      const setup = setUpTensorstore(() => {}, venv);
      expect(existsSync(done)).toBe(true);
      expect(setup).toEqual({ skip: expect.stringMatching(/-m venv .* failed/) });
      expect(existsSync(`${venv}.lock`)).toBe(false);
      holder.unref();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the summary says why under the cases it would have been in, and the targets say it was not measured", () => {
    const environment = {
      cores: 2,
      tensorstore: "skipped: pip install tensorstore==0.1.85 failed: no index",
    } as Environment;
    const whole: CaseResult = {
      id: "whole/sharded/local",
      group: 1,
      title: "whole",
      source: "local",
      load: [0, 0],
      contenders: [],
    };
    const text = summary({ environment, cases: [whole], memory: [], failures: [], elapsedSeconds: 0, targets: [] });
    expect(text).toContain("### 1. Whole array");
    expect(text).toContain("tensorstore skipped: pip install tensorstore==0.1.85 failed: no index.");
  });
});

describe("the child process", () => {
  test("exiting rejects the request in flight with its exit code and stderr", async () => {
    const dying = TensorstoreChild.start([
      "python3",
      "-c",
      "import sys; sys.stdin.readline(); sys.stderr.write('gone'); sys.exit(3)",
    ]);
    await expect(dying.request({ op: "version" })).rejects.toThrow("tensorstore child exited (code 3): gone");
    await expect(dying.request({ op: "version" })).rejects.toThrow(/exited/);
    // The cases after it leave tensorstore out.
    expect(dying.running).toBe(false);
    expect(runningChild({ child: dying, version: "0.1.85" })).toBeUndefined();
  });

  test("a reply without a time is an error for timed work", async () => {
    const silent = TensorstoreChild.start([
      "python3",
      "-c",
      "import sys, json\nfor l in sys.stdin: print(json.dumps({'id': json.loads(l)['id']}), flush=True)",
    ]);
    await expect(silent.timed({ op: "read", boxes: null, out: null })).rejects.toThrow(
      "tensorstore child: no time in the reply to read",
    );
    await silent.close();
  });
});
