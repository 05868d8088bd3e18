// What a careless user or a hostile machine does to convert and verify: numbers
// out of range, kill -9 mid-write, read-only and full destinations.
import { execFileSync, spawn } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, rm, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArray, FileSystemStore, openArray } from "zarrkit";
import { run } from "./helpers.js";

const BIN = fileURLToPath(new URL("../src/bin.ts", import.meta.url));
const isRoot = process.getuid?.() === 0;
const NOBODY = { uid: 65534, gid: 65534 };

let root: string;
const mounts: string[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "zarrkit-robust-"));
  // Readable by the unprivileged user the permission test runs as.
  await chmod(root, 0o755);
  const small = await createArray(new FileSystemStore(join(root, "small.zarr")), "", {
    shape: [40, 30],
    dataType: "int32",
    chunkShape: [4, 5],
  });
  await small.set(
    null,
    Int32Array.from({ length: 1200 }, (_, i) => i * 7 - 3),
  );
  // 8 MiB shards of values that do not compress (each takes a while to write and fsync: a kill lands inside one).
  const big = await createArray(new FileSystemStore(join(root, "big.zarr")), "", {
    shape: [2048, 2048],
    dataType: "uint32",
    chunkShape: [256, 256],
  });
  await big.set(
    null,
    Uint32Array.from({ length: 2048 * 2048 }, (_, i) => Math.imul(i + 1, 2654435761) >>> 0),
  );
  execFileSync("chmod", ["-R", "a+rX", root]);
}, 120_000);

afterAll(async () => {
  for (const mount of mounts) execFileSync("umount", [mount]);
  if (root) await rm(root, { recursive: true, force: true });
});

async function values(path: string): Promise<number[]> {
  return Array.from((await (await openArray(new FileSystemStore(path), "")).get()).data as Int32Array);
}

/** The store's temporary files under `dir` (relative paths). */
async function temporaryFiles(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.startsWith(".zarrkit-tmp.")).map((e) => join(e.parentPath, e.name));
}

/** Start a conversion and SIGKILL it as soon as a temporary file appears (a shard being written); the files it left. */
async function killMidWrite(args: string[], dst: string): Promise<string[]> {
  for (let attempt = 0; attempt < 5; attempt++) {
    await rm(dst, { recursive: true, force: true });
    const child = spawn(process.execPath, [...process.execArgv, BIN, ...args], { stdio: "ignore" });
    let exited = false;
    child.on("exit", () => (exited = true));
    while (!exited && (await temporaryFiles(dst)).length === 0) await new Promise((r) => setTimeout(r, 1));
    child.kill("SIGKILL");
    await new Promise((r) => child.once("close", r));
    const left = await temporaryFiles(dst);
    if (left.length > 0) return left;
  }
  throw new Error("no kill landed inside a write in 5 attempts");
}

describe("numeric flags", () => {
  it(
    "numbers that are not positive safe integers are usage errors naming the flag (exit 2), never " + "RangeError",
    async () => {
      const src = join(root, "small.zarr");
      const cases: [string[], RegExp][] = [
        [
          ["convert", src, join(root, "n1"), "--jobs", "99999999999999999999"],
          /--jobs 99999999999999999999: too large/,
        ],
        [["convert", src, join(root, "n1"), "--jobs", "1e3"], /--jobs "1e3": expected a positive integer/],
        [["convert", src, join(root, "n1"), "--jobs", "0"], /--jobs "0": expected a positive integer/],
        [
          ["convert", src, join(root, "n1"), "--multiscale", "99999999999999999999"],
          /--multiscale 99999999999999999999: too large/,
        ],
        [["convert", src, join(root, "n1"), "--part", "0/99999999999999999999"], /--part count "99999999999999999999"/],
        [
          ["convert", src, join(root, "n1"), "--shard-shape", "8,99999999999999999999"],
          /--shard-shape "8,99999999999999999999"/,
        ],
        [["verify", src, "--concurrency", "99999999999999999999"], /--concurrency 99999999999999999999: too large/],
        [["info", src, "--concurrency", "99999999999999999999"], /--concurrency 99999999999999999999: too large/],
      ];
      for (const [args, message] of cases) {
        const r = await run(args);
        expect(r.code, args.join(" ")).toBe(2);
        expect(r.stderr).toMatch(message);
        expect(r.stderr).not.toMatch(/RangeError/);
      }
      expect(existsSync(join(root, "n1"))).toBe(false);
    },
  );

  it("--jobs 100000000 is capped at the shards to write (no allocation of 10^8 workers); verify and info " +
    "likewise", async () => {
    const dst = join(root, "jobs.zarr");
    const r = await run([
      "convert",
      join(root, "small.zarr"),
      dst,
      "--shard-shape",
      "8,10",
      "--jobs",
      "100000000",
      "--progress",
      "none",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("shards: 15 written, 0 already present, 15 of 15");
    expect(await values(dst)).toEqual(await values(join(root, "small.zarr")));
    expect((await run(["verify", dst, "--concurrency", "100000000"])).code).toBe(0);
    expect((await run(["info", dst, "--concurrency", "100000000"])).code).toBe(0);
  }, 60_000);
});

describe("temporary files of interrupted writes", () => {
  it("a kill -9 leaves one; reruns keep it while recent, remove it once old, never one open in a process", async () => {
    const src = join(root, "big.zarr");
    const dst = join(root, "killed.zarr");
    const args = [
      "convert",
      src,
      dst,
      "--shard-shape",
      "1024,2048",
      "--codec",
      "none",
      "--jobs",
      "1",
      "--progress",
      "none",
    ];
    const [left] = await killMidWrite(args, dst);
    // Just left: as young as a write in flight, so a rerun keeps it, and verify says so.
    const rerun = await run(args);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/kept 1 temporary file \((?:c\/\d\/)?\.zarrkit-tmp\.[0-9a-f]+: changed \d+ s ago/);
    expect(await temporaryFiles(dst)).toEqual([left]);
    const kept = await run(["verify", dst, "--json"]);
    expect(kept.code).toBe(0);
    expect(JSON.parse(kept.stdout).temporaryFiles).toMatchObject({
      removed: [],
      kept: [{ reason: expect.stringMatching(/^changed/) }],
    });

    // Unchanged for two minutes before the run, but held open by a running process (a stopped writer): kept.
    const old = new Date(Date.now() - 120_000);
    await utimes(left!, old, old);
    const fd = openSync(left!, "r+");
    const holder = spawn("sleep", ["60"], { stdio: ["ignore", fd, "ignore"] });
    closeSync(fd);
    try {
      const held = await run(["verify", dst]);
      expect(held.code).toBe(0);
      expect(held.stdout).toMatch(
        new RegExp(
          `^KEPT .*\\.zarrkit-tmp\\.[0-9a-f]+: temporary file open by process ${holder.pid}: a write in flight$`,
          "m",
        ),
      );
      expect(await temporaryFiles(dst)).toEqual([left]);
    } finally {
      holder.kill("SIGKILL");
      await new Promise((r) => holder.once("close", r));
    }

    // Old and open nowhere: verify removes it and says so; the array stays whole.
    const swept = await run(["verify", dst]);
    expect(swept.code, swept.stdout).toBe(0);
    expect(swept.stdout).toMatch(
      /^REMOVED (?:c\/\d\/)?\.zarrkit-tmp\.[0-9a-f]+: a temporary file left by an interrupted write$/m,
    );
    expect(await temporaryFiles(dst)).toEqual([]);
    expect(await values(dst)).toEqual(await values(src));

    // And convert's rerun removes old ones too.
    const [again] = await killMidWrite(args, dst);
    await utimes(again!, old, old);
    const resumed = await run(args);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain("removed 1 temporary file left by interrupted writes");
    expect(await temporaryFiles(dst)).toEqual([]);
  }, 120_000);
});

/** Mount a filesystem for a test (root only); undefined and a printed reason when it cannot be. */
function mount(args: string[], target: string): boolean {
  if (!isRoot) {
    console.warn(`[zarrkit] skipping a mount test (mount ${args.join(" ")}): not running as root`);
    return false;
  }
  try {
    execFileSync("mount", [...args, target], { stdio: "pipe" });
    mounts.unshift(target);
    return true;
  } catch (error) {
    console.warn(`[zarrkit] skipping a mount test: mount ${args.join(" ")} failed: ${String(error)}`);
    return false;
  }
}

describe("write errors say their cause", () => {
  it("a read-only bind mount: read-only filesystem (EROFS), not ENOENT: mkdir; nothing written", async (ctx) => {
    const backing = join(root, "ro-backing");
    const target = join(root, "ro-mount");
    await mkdir(backing);
    await mkdir(target);
    if (!mount(["--bind", backing], target)) return ctx.skip();
    execFileSync("mount", ["-o", "remount,bind,ro", target]);
    for (const dst of [join(target, "new.zarr"), target]) {
      const r = await run(["convert", join(root, "small.zarr"), dst, "--progress", "none"]);
      expect(r.code, dst).toBe(1);
      expect(r.stderr).toMatch(
        /^zarrkit: StoreError: read-only filesystem \(EROFS\): cannot write zarr\.json in .* is not writable\)$/m,
      );
      expect(r.stderr).not.toMatch(/ENOENT/);
    }
    expect(await readdir(backing)).toEqual([]);
  });

  it("a directory without write permission: no permission to write (EACCES), naming the directory", async () => {
    const dir = join(root, "locked");
    await mkdir(dir, { mode: 0o555 });
    await chmod(dir, 0o555);
    const r = await run(
      ["convert", join(root, "small.zarr"), join(dir, "a.zarr"), "--progress", "none"],
      {},
      isRoot ? NOBODY : undefined,
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      `zarrkit: StoreError: no permission to write (EACCES): cannot write zarr.json in ${join(dir, "a.zarr")} ` +
        `(${dir} is not writable)`,
    );
  });

  it("a full filesystem (a 1 MiB tmpfs): disk full (ENOSPC), not 'Could not lock'; a rerun with room " +
    "finishes", async (ctx) => {
    const target = join(root, "tiny");
    await mkdir(target);
    if (!mount(["-t", "tmpfs", "-o", "size=1m", "tmpfs"], target)) return ctx.skip();
    const dst = join(target, "big.zarr");
    const r = await run([
      "convert",
      join(root, "big.zarr"),
      dst,
      "--shard-shape",
      "256,512",
      "--codec",
      "none",
      "--progress",
      "none",
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^zarrkit: StoreError: disk full \(ENOSPC\) while writing c\/\d+\/\d+ in .*: free some space and run the same command again/m,
    );
    expect(r.stderr).not.toMatch(/Could not lock/);
    execFileSync("mount", ["-o", "remount,size=24m", target]);
    const again = await run([
      "convert",
      join(root, "big.zarr"),
      dst,
      "--shard-shape",
      "256,512",
      "--codec",
      "none",
      "--progress",
      "none",
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(await values(dst)).toEqual(await values(join(root, "big.zarr")));
  }, 60_000);
});
