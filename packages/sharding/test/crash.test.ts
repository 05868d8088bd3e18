import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openArray, slice } from "@zarrkit/core";
import { FileSystemStore } from "@zarrkit/store-fs";
import { describe, expect, it } from "vitest";
import { BYTES, createArray } from "./helpers.js";

const writer = fileURLToPath(new URL("./fixtures/shard-writer.ts", import.meta.url));
const KILLS = Number(process.env.ZARRKIT_CRASH_KILLS ?? 50);
const CHUNKS = 16;
/** Elements per inner chunk: 16 KiB chunks keep the writer busy in I/O for longer than a few bytes would. */
const WIDTH = 4096;

/** A seeded generator (LCG), so a failing run can be repeated. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * Start a writer that writes random inner chunks until killed; SIGKILL it a
 * random moment (0-25 ms) after its first write began. Returns what it printed.
 */
function writeUntilKilled(root: string, strategy: string, seed: number, delayMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, writer, root, strategy, "forever", String(seed)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let armed = false;
    child.stdout.on("data", (data: Buffer) => {
      stdout += data.toString();
      if (!armed && stdout.includes("try ")) {
        armed = true;
        setTimeout(() => child.kill("SIGKILL"), delayMs);
      }
    });
    child.stderr.on("data", (data: Buffer) => {
      stderr += data.toString();
    });
    child.on("error", reject);
    child.on("exit", (_code, signal) => {
      if (signal === "SIGKILL") resolve(stdout);
      else reject(new Error(`the writer ended without being killed: ${stderr}`));
    });
  });
}

/**
 * Run the writer's `tear` mode: true when it tore a write and died, false when it finished (fewer large writes than n).
 */
function tearAt(root: string, strategy: string, n: number, chunk: number, value: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...process.execArgv, writer, root, strategy, "tear", String(n), String(chunk), String(value)],
      {
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (data: Buffer) => {
      stderr += data.toString();
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve(true);
      else if (code === 0) resolve(false);
      else reject(new Error(`the writer failed: ${stderr}`));
    });
  });
}

async function crashArray(root: string) {
  // Checksums where a torn write could land: the index (default codecs) and the inner chunks.
  const arr = await createArray(new FileSystemStore(root), "a", {
    shape: [WIDTH * CHUNKS],
    dataType: "int32",
    chunkShape: [WIDTH],
    shardShape: [WIDTH * CHUNKS],
    codecs: [BYTES, { name: "crc32c" }],
  });
  await arr.set(null, -1);
}

/** Every chunk of the array, each checked to hold one value throughout. */
async function chunkValues(root: string): Promise<(number | undefined)[]> {
  const data = (await (await openArray(new FileSystemStore(root), "a")).get()).data as Int32Array;
  return Array.from({ length: CHUNKS }, (_, chunk) => {
    const got = data.subarray(WIDTH * chunk, WIDTH * (chunk + 1));
    return got.every((x) => x === got[0]) ? got[0] : undefined;
  });
}

describe("a write torn half-way by a crash leaves every chunk old or new", () => {
  for (const strategy of ["rewrite", "append", "in-place"] as const) {
    it(`${strategy}: the 1st, 2nd, ... large file write torn`, async () => {
      let torn = 0;
      for (let n = 1; n <= 4; n++) {
        const root = await mkdtemp(join(tmpdir(), "zarrkit-tear-"));
        try {
          await crashArray(root);
          const died = await tearAt(root, strategy, n, 5, 77);
          const values = await chunkValues(root);
          const expected = Array.from({ length: CHUNKS }, () => -1);
          if (!died) expected[5] = 77;
          if (died && values[5] === 77) expected[5] = 77; // the write was complete when the tear hit a later one
          expect(values, `tear of large write ${n}`).toEqual(expected);
          // The next writer (and reader) finds the shard whole.
          await (
            await openArray(new FileSystemStore(root), "a", {
              codecOptions: { sharding_indexed: { writeStrategy: strategy } },
            })
          ).set([slice(WIDTH * 6, WIDTH * 7)], 66);
          expect((await chunkValues(root))[6]).toBe(66);
          if (died) torn++;
        } finally {
          await rm(root, { recursive: true, force: true });
        }
      }
      console.log(`${strategy}: ${torn} torn writes recovered`);
      expect(torn).toBeGreaterThan(0);
    });
  }
});

describe("a writer killed at random moments never leaves a chunk that is neither old nor new", () => {
  for (const strategy of ["rewrite", "append", "in-place"] as const) {
    it(`${strategy}: ${KILLS} SIGKILLs`, { timeout: 240_000 }, async () => {
      const root = await mkdtemp(join(tmpdir(), "zarrkit-crash-"));
      try {
        await crashArray(root);
        const settled = new Array<number>(CHUNKS).fill(-1);
        const next = random(KILLS + strategy.length);
        let acknowledged = 0;
        for (let kill = 0; kill < KILLS; kill++) {
          const stdout = await writeUntilKilled(root, strategy, Math.floor(next() * 2 ** 31), Math.floor(next() * 25));
          let inFlight: [number, number] | undefined;
          for (const line of stdout.split("\n")) {
            const [word, chunk, value] = line.split(" ");
            if (word === "try") inFlight = [Number(chunk), Number(value)];
            if (word === "ack") {
              settled[Number(chunk)] = Number(value);
              inFlight = undefined;
              acknowledged++;
            }
          }
          const values = await chunkValues(root);
          for (let chunk = 0; chunk < CHUNKS; chunk++) {
            const allowed = [settled[chunk]!];
            if (inFlight?.[0] === chunk) allowed.push(inFlight[1]);
            expect(allowed, `kill ${kill}: chunk ${chunk} holds ${values[chunk] ?? "a mix"}`).toContain(values[chunk]);
            settled[chunk] = values[chunk]!;
          }
        }
        console.log(
          `${strategy}: ${KILLS} kills survived, ${acknowledged} acknowledged writes, 0 lost, every chunk old or new`,
        );
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    });
  }
});
