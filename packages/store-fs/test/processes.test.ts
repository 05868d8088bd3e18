import { type ChildProcess, spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileSystemStore } from "../src/index.js";
import { encodeRecord, parseRecords, type RecordInfo } from "./fixtures/records.js";
import { tempDir } from "./temp-dir.js";

// Real processes, each with its own FileSystemStore on one directory: only the lock files
// coordinate them. Children run the TypeScript sources through the workspace's loader
// (process.execArgv, set by the vitest config).
const child = fileURLToPath(new URL("./fixtures/store-child.ts", import.meta.url));

let dir: Awaited<ReturnType<typeof tempDir>>;
let root: string;
beforeEach(async () => {
  dir = await tempDir();
  root = join(dir.path, "store.zarr");
});
afterEach(() => dir.remove());

function start(args: string[]): {
  process: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
  line: (wanted: string) => Promise<void>;
} {
  const proc = spawn(process.execPath, [...process.execArgv, child, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  let partial = "";
  let stderr = "";
  const waiters: { wanted: string; resolve: () => void }[] = [];
  proc.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    const parts = (partial + chunk).split("\n");
    partial = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      for (const w of waiters.filter((w) => w.wanted === line)) w.resolve();
    }
  });
  proc.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => proc.on("close", (code) => resolve(code)));
  const line = (wanted: string) =>
    new Promise<void>((resolve, reject) => {
      if (lines.includes(wanted)) return resolve();
      waiters.push({ wanted, resolve });
      exited.then(() =>
        reject(new Error(`child exited before printing ${wanted}: ${lines.slice(-3).join(" | ")} ${stderr}`)),
      );
    });
  exited.then((code) => {
    if (code !== 0 && code !== null) console.error(stderr);
  });
  return { process: proc, lines, exited, line };
}

async function run(args: string[]): Promise<unknown> {
  const started = start(args);
  const code = await started.exited;
  expect(code, `child ${args.join(" ")}`).toBe(0);
  return JSON.parse(started.lines.at(-1)!);
}

/** Names in the key's directory that are not values: lock, break and temporary files. */
async function leftovers(path: string): Promise<string[]> {
  return (await readdir(path)).filter((name) => name.startsWith(".zarrkit-"));
}

describe("across processes", () => {
  it("4 processes x 50 read-modify-write increments (getVersioned + set ifMatch, retried): none lost", async () => {
    const results = (await Promise.all([1, 2, 3, 4].map(() => run(["increment", root, "c/count", "50"])))) as {
      acked: number;
      retries: number;
    }[];
    const acked = results.reduce((n, r) => n + r.acked, 0);
    const retries = results.reduce((n, r) => n + r.retries, 0);
    const final = Number(new TextDecoder().decode(await new FileSystemStore(root).get("c/count")));
    console.log(
      `increments: processes=4 acknowledged=${acked} retries=${retries} final=${final} lost=${acked - final}`,
    );
    expect(retries, "the processes did contend").toBeGreaterThan(0);
    expect(final).toBe(acked);
    expect(acked).toBe(200);
    expect(await leftovers(join(root, "c"))).toEqual([]);
  });

  it(
    "4 processes x 50 conditional appends (ifMatch from getRangeWithSize): every record once, where its " +
      "append said",
    async () => {
      const results = (await Promise.all(
        [1, 2, 3, 4].map((id) => run(["append", root, "c/log", "50", String(id)])),
      )) as {
        acked: number;
        retries: number;
        offsets: number[];
      }[];
      const value = (await new FileSystemStore(root).get("c/log"))!;
      const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
      const seen = new Set<string>();
      results.forEach((result, i) => {
        result.offsets.forEach((offset, seq) => {
          expect(
            [view.getUint32(offset, true), view.getUint32(offset + 4, true)],
            `record ${seq} of process ${i + 1} at ${offset}`,
          ).toEqual([i + 1, seq]);
        });
      });
      for (let at = 0; at < value.length; at += 8)
        seen.add(`${view.getUint32(at, true)}:${view.getUint32(at + 4, true)}`);
      const acked = results.reduce((n, r) => n + r.acked, 0);
      const retries = results.reduce((n, r) => n + r.retries, 0);
      console.log(
        `appends: processes=4 acknowledged=${acked} retries=${retries} records=${value.length / 8} ` +
          `distinct=${seen.size} lost=${acked - seen.size}`,
      );
      expect(value.length).toBe(acked * 8);
      expect(seen.size).toBe(acked);
      expect(await leftovers(join(root, "c"))).toEqual([]);
    },
  );
});

type Op =
  | { kind: "A"; id: number; length: number }
  | { kind: "S"; index: number; gen: number }
  | { kind: "T"; keep: number };

function parseOp(fields: string[]): Op {
  const [kind, a, b] = fields;
  if (kind === "A") return { kind, id: Number(a), length: Number(b) };
  if (kind === "S") return { kind, index: Number(a), gen: Number(b) };
  return { kind: "T", keep: Number(a) };
}

function apply(records: RecordInfo[], op: Op): RecordInfo[] {
  if (op.kind === "A") return [...records, { id: op.id, length: op.length, gen: 0 }];
  if (op.kind === "T") return records.slice(0, op.keep);
  return records.map((r, i) => (i === op.index ? { ...r, gen: op.gen } : r));
}

const same = (a: RecordInfo[], b: RecordInfo[]) => JSON.stringify(a) === JSON.stringify(b);

describe("crashes", () => {
  it("SIGKILL at random moments during appends, setRanges and truncates: after recover() the value is what the " +
    "completed operations made", {
    timeout: 120_000,
  }, async () => {
    const key = "c/0/0";
    const store = new FileSystemStore(root, { staleLockMs: 2000 });
    let model: RecordInfo[] = [];
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const figures = {
      kills: 0,
      acknowledged: 0,
      inFlight: 0,
      inFlightLanded: 0,
      locksLeft: 0,
      journalsLeft: 0,
      torn: 0,
      recovered: 0,
    };
    const began = Date.now();
    while (figures.kills < 60 && (figures.kills < 50 || Date.now() - began < 40_000)) {
      const started = start(["torture", root, key, String(Math.floor(random() * 2 ** 31))]);
      await started.line("ready");
      await new Promise((resolve) => setTimeout(resolve, 2 + random() * 150));
      started.process.kill("SIGKILL");
      expect(await started.exited, `child ${figures.kills} was killed, did not fail: ${started.lines.at(-1)}`).toBe(
        null,
      );
      figures.kills++;

      let inFlight: Op | undefined;
      for (const line of started.lines) {
        const [tag, ...fields] = line.split(" ");
        if (tag === "B") inFlight = parseOp(fields);
        if (tag === "K") {
          model = apply(model, parseOp(fields));
          figures.acknowledged++;
          inFlight = undefined;
        }
      }
      const lockPath = join(root, "c", "0", ".zarrkit-lock.0");
      const lock = await readFile(lockPath).catch(() => undefined);
      if (lock) {
        figures.locksLeft++;
        if (lock.toString("latin1").split("\n").length > 2) figures.journalsLeft++;
      }
      const before = await readFile(join(root, "c", "0", "0")).catch(() => new Uint8Array(0));
      if ("error" in parseRecords(before)) figures.torn++;
      const recovered = await store.recover(key);
      if (recovered) figures.recovered++;
      expect(recovered, "recover() reports the dead writer's lock it broke").toBe(lock !== undefined);

      const parsed = parseRecords((await store.get(key)) ?? new Uint8Array(0));
      if ("error" in parsed)
        throw new Error(`after kill ${figures.kills} (in flight: ${JSON.stringify(inFlight)}): ${parsed.error}`);
      if (!same(parsed.records, model)) {
        if (inFlight) figures.inFlight++;
        // The operation in flight may have completed just before the kill, its acknowledgement unprinted.
        const landed = inFlight && apply(model, inFlight);
        expect(
          landed && same(parsed.records, landed),
          `after kill ${figures.kills}: the value is neither the acknowledged state nor that ` +
            `plus ${JSON.stringify(inFlight)}`,
        ).toBe(true);
        model = landed!;
        figures.inFlightLanded++;
      } else if (inFlight) {
        figures.inFlight++;
      }
      expect(
        (await leftovers(join(root, "c", "0"))).filter((name) => !name.startsWith(".zarrkit-tmp.")),
        "lock files left after recover",
      ).toEqual([]);
    }
    // The final value once more, byte for byte, as the model says.
    const expected = model.map(encodeRecord);
    const value = (await store.get(key)) ?? new Uint8Array(0);
    expect(value.length).toBe(expected.reduce((n, r) => n + r.length, 0));
    expect(Buffer.from(value).equals(Buffer.concat(expected))).toBe(true);
    const seconds = ((Date.now() - began) / 1000).toFixed(1);
    console.log(
      `crashes: kills=${figures.kills} acknowledged writes=${figures.acknowledged} killed ` +
        `mid-operation=${figures.inFlight} (of which had landed=${figures.inFlightLanded}) ` +
        `locks left=${figures.locksLeft} (with a journal=${figures.journalsLeft}) torn values found=${figures.torn} ` +
        `recovered=${figures.recovered} records=${model.length} size=${value.length} lost=0 in ${seconds}s`,
    );
    expect(figures.kills).toBeGreaterThanOrEqual(50);
    expect(figures.torn, "some kills should tear a write, for recover() to undo").toBeGreaterThan(0);
  });
});
