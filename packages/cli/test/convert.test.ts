import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { fixturePath } from "@zarrkit/test-utils/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArray, FileSystemStore, openArray, openGroup, ZarrArray } from "zarrkit";
import { generate } from "./generate.js";
import { killAfter, run } from "./helpers.js";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "zarrkit-convert-"));
  await generate(root);
  // 40 x 30 int32 in chunks of 4 x 5, no value equal to the fill value.
  const plain = await createArray(new FileSystemStore(join(root, "plain.zarr")), "", {
    shape: [40, 30],
    dataType: "int32",
    chunkShape: [4, 5],
    attributes: { kept: [1, 2] },
    dimensionNames: ["y", "x"],
  });
  await plain.set(
    null,
    Int32Array.from({ length: 1200 }, (_, i) => i * 3 - 7 + (i % 2 === 0 ? 0 : 10_000)),
  );
  // 1500 x 1500 uint16 in 100 shards' worth of rows: big enough that a kill lands mid-conversion.
  const big = await createArray(new FileSystemStore(join(root, "big.zarr")), "", {
    shape: [1500, 1500],
    dataType: "uint16",
    chunkShape: [15, 100],
  });
  await big.set(
    null,
    Uint16Array.from({ length: 1500 * 1500 }, (_, i) => ((i * 2654435761) >>> 7) % 65521 || 1),
  );
}, 120_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

async function values(path: string, node = ""): Promise<{ shape: number[]; data: unknown[] }> {
  const arr = await openArray(new FileSystemStore(path), node);
  const got = await arr.get();
  return { shape: got.shape, data: Array.from(got.data as ArrayLike<unknown>) };
}

/** Every file under `dir` (relative path) with its bytes and mtime, temporary files left out. */
async function files(dir: string): Promise<Map<string, { bytes: Buffer; mtimeMs: number; ino: number }>> {
  const out = new Map<string, { bytes: Buffer; mtimeMs: number; ino: number }>();
  if (!existsSync(dir)) return out;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    // A kill may leave a store's temporary file or lock (".zarrkit-tmp.", ".zarrkit-lock."): not part of the array.
    if (!entry.isFile() || entry.name.startsWith(".zarrkit-")) continue;
    const path = join(entry.parentPath, entry.name);
    const info = await stat(path);
    out.set(relative(dir, path), { bytes: await readFile(path), mtimeMs: info.mtimeMs, ino: info.ino });
  }
  return out;
}

const shardFiles = (f: Map<string, unknown>) => [...f.keys()].filter((k) => k.startsWith("c/")).sort();

describe("convert: values", () => {
  it("a v3 array: sharded as asked, values, attributes and dimension names kept, each codec", async () => {
    const src = join(root, "plain.zarr");
    const expected = await values(src);
    for (const [codec, name] of [
      ["zstd:3", "zstd"],
      ["gzip:6", "gzip"],
      ["blosc:zstd:5:shuffle", "blosc"],
      ["none", undefined],
    ] as const) {
      const dst = join(root, `plain-${name ?? "none"}.zarr`);
      const r = await run([
        "convert",
        src,
        dst,
        "--shard-shape",
        "8,10",
        "--codec",
        codec,
        "--index-location",
        "start",
        "--progress",
        "none",
      ]);
      expect(r.stderr).toMatch(/shards: 15 written, 0 already present, 15 of 15/);
      expect(r.code).toBe(0);
      const arr = await openArray(new FileSystemStore(dst), "");
      expect(arr.shardShape).toEqual([8, 10]);
      expect(arr.chunkShape).toEqual([4, 5]);
      expect(arr.attributes).toEqual({ kept: [1, 2] });
      expect(arr.dimensionNames).toEqual(["y", "x"]);
      const sharding = (
        arr.metadata as unknown as {
          codecs: { configuration: { codecs: { name: string }[]; index_location: string } }[];
        }
      ).codecs[0]!.configuration;
      expect(sharding.index_location).toBe("start");
      expect(sharding.codecs.map((c) => c.name)).toEqual(name ? ["bytes", name] : ["bytes"]);
      expect(await values(dst)).toEqual(expected);
    }
  });

  it("--chunk-shape and --shard-bytes: a shard shape of the given size, a multiple of the chunk", async () => {
    const dst = join(root, "plain-bytes.zarr");
    // 2 x 5 int32 chunks (40 bytes); at most 640 bytes a shard: 4 doublings, the shorter edge first: 4x5, 8x5, 8x10,
    // 16x10.
    const r = await run([
      "convert",
      join(root, "plain.zarr"),
      dst,
      "--chunk-shape",
      "2,5",
      "--shard-bytes",
      "640",
      "--progress",
      "none",
    ]);
    expect(r.code).toBe(0);
    const arr = await openArray(new FileSystemStore(dst), "");
    expect(arr.chunkShape).toEqual([2, 5]);
    expect(arr.shardShape).toEqual([16, 10]);
    expect(await values(dst)).toEqual(await values(join(root, "plain.zarr")));
  });

  it(
    "shards all of fill value are not stored, and say so; a rerun computes them again but " + "writes nothing",
    async () => {
      const src = join(root, "sparse.zarr");
      const arr = await createArray(new FileSystemStore(src), "", {
        shape: [8, 10],
        dataType: "uint8",
        chunkShape: [2, 5],
      });
      await arr.set([0, null], 9);
      const dst = join(root, "sparse-out.zarr");
      const first = await run(["convert", src, dst, "--shard-shape", "2,10", "--progress", "none"]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr, first.stderr).toContain(
        "shards: 1 written, 0 already present, 4 of 4; 3 all fill value, not stored",
      );
      expect(shardFiles(await files(dst))).toEqual(["c/0/0"]);
      const again = await run(["convert", src, dst, "--shard-shape", "2,10", "--progress", "none"]);
      expect(again.stderr, again.stderr).toContain(
        "shards: 0 written, 1 already present, 4 of 4; 3 all fill value, not stored",
      );
      expect(await values(dst)).toEqual(await values(src));
    },
  );

  it("a rectilinear source", async () => {
    const src = join(root, "rect.zarr");
    const arr = await createArray(new FileSystemStore(src), "", {
      shape: [10, 8],
      dataType: "float32",
      chunkShape: [[3, 7], 4],
    });
    await arr.set(
      null,
      Float32Array.from({ length: 80 }, (_, i) => i / 4 + 0.5),
    );
    const dst = join(root, "rect-out.zarr");
    const r = await run(["convert", src, dst, "--chunk-shape", "2,4", "--shard-shape", "4,8", "--progress", "none"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("shards: 3 written, 0 already present, 3 of 3");
    expect(await values(dst)).toEqual(await values(src));
  });

  it("a v2 source (big-endian int32)", async () => {
    const dst = join(root, "v2-out.zarr");
    const r = await run(["convert", join(root, "gen-v2.zarr"), dst, "--progress", "none"]);
    expect(r.code, r.stderr).toBe(0);
    const arr = await openArray(new FileSystemStore(dst), "");
    expect(arr.format).toBe(3);
    expect(arr.shardShape).toBeDefined();
    expect(await values(dst)).toEqual(await values(join(root, "gen-v2.zarr")));
  });

  it("a group: every array and group below it, attributes kept", async () => {
    const src = join(root, "gen.zarr");
    const dst = join(root, "gen-out.zarr");
    const r = await run(["convert", src, dst, "--codec", "gzip:1", "--progress", "none"]);
    expect(r.code, r.stderr).toBe(0);
    const group = await openGroup(new FileSystemStore(dst), "");
    expect(group.attributes).toEqual({ made: "by test" });
    const tree = async (path: string) =>
      (await run(["tree", path])).stdout.replace(/ shards \[[^\]]*\] of chunks \[[^\]]*\]/g, "");
    expect(await tree(dst)).toEqual(await tree(src));
    const arrays: string[] = [];
    const walk = async (g: Awaited<ReturnType<typeof openGroup>>, prefix: string) => {
      for (const name of await g.childNames()) {
        const child = await g.open(name);
        if (child instanceof ZarrArray) arrays.push(`${prefix}${name}`);
        else await walk(child as Awaited<ReturnType<typeof openGroup>>, `${prefix}${name}/`);
      }
    };
    await walk(await openGroup(new FileSystemStore(src), ""), "");
    expect(arrays.length).toBeGreaterThanOrEqual(3);
    for (const path of arrays) {
      expect((await openArray(new FileSystemStore(dst), path)).shardShape, path).toBeDefined();
      expect(await values(dst, path), path).toEqual(await values(src, path));
      expect((await openArray(new FileSystemStore(dst), path)).attributes).toEqual(
        (await openArray(new FileSystemStore(src), path)).attributes,
      );
    }
  });

  const fixtureCases = [
    [
      "zarr-python-v3.zarr",
      [
        "3d.chunked.mixed.compressed.sharded.i2",
        "2d.chunked.ragged.compressed.sharded.i2",
        "1d.contiguous.f4.be",
        "3d.chunked.mixed.i2.F",
      ],
    ],
    [
      "zarr-python-v2.zarr",
      ["3d.chunked.mixed.i2.C", "1d.contiguous.zstd.i2", "1d.contiguous.f4.be", "2d.chunked.ragged.i2"],
    ],
  ] as const;
  for (const [fixture, names] of fixtureCases) {
    const dir = fixturePath(fixture);
    it.skipIf(!dir)(
      `the ${fixture} fixture's arrays${dir ? "" : " (skipped: fixture not installed; set up by .ci/run)"}`,
      async () => {
        for (const name of names) {
          const dst = join(root, `${fixture}-${name}`);
          const r = await run(["convert", join(dir!, name), dst, "--progress", "none"]);
          expect(r.code, `${name}: ${r.stderr}`).toBe(0);
          expect(await values(dst), name).toEqual(await values(join(dir!, name)));
        }
      },
    );
  }
});

describe("convert: parts", () => {
  it(
    "--part 0/2 and 1/2 write disjoint halves whose union is a full run's shards, byte for byte; " + "metadata by both",
    async () => {
      const src = join(root, "plain.zarr");
      const full = join(root, "parts-full.zarr");
      expect((await run(["convert", src, full, "--shard-shape", "8,10", "--progress", "none"])).code).toBe(0);
      const dst = join(root, "parts.zarr");
      const one = await run(["convert", src, dst, "--shard-shape", "8,10", "--part", "1/2", "--progress", "json"]);
      expect(one.code, one.stderr).toBe(0);
      expect(one.stderr).toMatch(/part 1\/2 \(from --part\)/);
      expect(one.stderr).toMatch(/shards: 7 written, 0 already present, 7 of 7 \(part 1\/2\)/);
      const afterOne = await files(dst);
      expect(afterOne.has("zarr.json")).toBe(true);
      // Grid 5 x 3: the odd linear indices.
      const odd = ["c/0/1", "c/1/0", "c/1/2", "c/2/1", "c/3/0", "c/3/2", "c/4/1"];
      expect(shardFiles(afterOne)).toEqual(odd);
      // --progress json names each shard's key and what became of it.
      const records = (r: { stderr: string }) =>
        r.stderr
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line));
      const written = records(one).filter((line) => line.key !== undefined);
      expect(written.map((line) => [line.key, line.shard]).sort()).toEqual(odd.map((key) => [key, "written"]));
      expect(written.every((line) => line.bytesWritten > 0)).toBe(true);
      const again = await run(["convert", src, dst, "--shard-shape", "8,10", "--part", "1/2", "--progress", "json"]);
      expect(
        records(again)
          .flatMap((line) => (line.key ? [[line.key, line.shard]] : []))
          .sort(),
      ).toEqual(odd.map((key) => [key, "present"]));
      const zero = await run(["convert", src, dst, "--shard-shape", "8,10", "--part", "0/2", "--progress", "none"]);
      expect(zero.code, zero.stderr).toBe(0);
      expect(zero.stderr).toMatch(/shards: 8 written, 0 already present, 8 of 8/);
      const afterBoth = await files(dst);
      // Part 0 touched none of part 1's files (same inode and mtime): no shard written twice.
      for (const key of shardFiles(afterOne)) {
        expect(afterBoth.get(key)!.ino, key).toBe(afterOne.get(key)!.ino);
        expect(afterBoth.get(key)!.mtimeMs, key).toBe(afterOne.get(key)!.mtimeMs);
      }
      const reference = await files(full);
      expect(shardFiles(afterBoth)).toEqual(shardFiles(reference));
      expect(shardFiles(afterBoth)).toHaveLength(15);
      for (const [key, file] of reference) expect(afterBoth.get(key)?.bytes.equals(file.bytes), key).toBe(true);
    },
  );

  it("the part from the batch engine's environment, printed; --parts without an index is a usage error", async () => {
    const src = join(root, "plain.zarr");
    const cases: [NodeJS.ProcessEnv, string[], string][] = [
      [{ JOB_COMPLETION_INDEX: "2" }, ["--parts", "3"], "part 2/3 (from JOB_COMPLETION_INDEX)"],
      [{ AWS_BATCH_JOB_ARRAY_INDEX: "2" }, ["--parts", "3"], "part 2/3 (from AWS_BATCH_JOB_ARRAY_INDEX)"],
      [
        { SLURM_ARRAY_TASK_ID: "7", SLURM_ARRAY_TASK_MIN: "5", SLURM_ARRAY_TASK_COUNT: "3" },
        [],
        "part 2/3 (from SLURM_ARRAY_TASK_ID)",
      ],
    ];
    for (const [i, [env, flags, message]] of cases.entries()) {
      const dst = join(root, `env-part-${i}.zarr`);
      const r = await run(["convert", src, dst, "--shard-shape", "8,10", ...flags, "--progress", "none"], env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(message);
      // Linear indices 2, 5, 8, 11, 14 of the 5 x 3 grid.
      expect(shardFiles(await files(dst))).toEqual(["c/0/2", "c/1/2", "c/2/2", "c/3/2", "c/4/2"]);
    }
    const bad = await run(["convert", src, join(root, "env-bad.zarr"), "--parts", "3"], {
      JOB_COMPLETION_INDEX: "",
      SLURM_ARRAY_TASK_ID: "",
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--parts N needs a part index/);
  });
});

describe("convert: kill -9 and rerun", () => {
  it("a killed convert, rerun (killed again, then to the end), is complete and identical; reruns write only the " +
    "missing shards", async () => {
    const src = join(root, "big.zarr");
    const args = [
      "--chunk-shape",
      "15,100",
      "--shard-shape",
      "15,1500",
      "--codec",
      "zstd:3",
      "--jobs",
      "1",
      "--progress",
      "none",
    ];
    const full = join(root, "big-full.zarr");
    const f = await run(["convert", src, full, ...args]);
    expect(f.code, f.stderr).toBe(0);
    const reference = await files(full);
    expect(shardFiles(reference)).toHaveLength(100);
    const dst = join(root, "big-killed.zarr");
    let before = new Map<string, { bytes: Buffer; mtimeMs: number; ino: number }>();
    for (const threshold of [3, 40]) {
      const stored = await killAfter(["convert", src, dst, ...args], join(dst, "c"), threshold);
      expect(stored, "the convert ended before it could be killed").toBeLessThan(100);
      const now = await files(dst);
      // A kill leaves each shard absent or complete (identical to the reference).
      for (const key of shardFiles(now)) expect(now.get(key)!.bytes.equals(reference.get(key)!.bytes), key).toBe(true);
      for (const key of shardFiles(before)) expect(now.get(key)?.ino, key).toBe(before.get(key)!.ino);
      before = now;
    }
    const present = shardFiles(before).length;
    const r = await run(["convert", src, dst, ...args]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`shards: ${100 - present} written, ${present} already present, 100 of 100`);
    const after = await files(dst);
    // The rerun settled every lock a kill left behind.
    expect(
      (await readdir(dst, { recursive: true })).filter((name) => basename(name).startsWith(".zarrkit-lock.")),
    ).toEqual([]);
    for (const key of shardFiles(before)) {
      expect(after.get(key)!.ino, key).toBe(before.get(key)!.ino);
      expect(after.get(key)!.mtimeMs, key).toBe(before.get(key)!.mtimeMs);
    }
    expect([...after.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [key, file] of reference) expect(after.get(key)!.bytes.equals(file.bytes), key).toBe(true);
    // A second rerun finds everything in place and writes nothing.
    const again = await run(["convert", src, dst, ...args]);
    expect(again.stderr).toContain("shards: 0 written, 100 already present, 100 of 100");
  }, 120_000);
});

describe("convert: Ctrl-C", () => {
  it("SIGINT stops after the shards in flight (exit 130); a rerun completes the rest", async () => {
    const src = join(root, "big.zarr");
    const dst = join(root, "big-interrupted.zarr");
    const args = [
      "convert",
      src,
      dst,
      "--chunk-shape",
      "15,100",
      "--shard-shape",
      "15,1500",
      "--jobs",
      "1",
      "--progress",
      "none",
    ];
    const BIN = fileURLToPath(new URL("../src/bin.ts", import.meta.url));
    const child = spawn(process.execPath, [...process.execArgv, BIN, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => {
      const poll = () => {
        const dir = join(dst, "c");
        if (existsSync(dir) && readdirSync(dir, { recursive: true }).length >= 3) child.kill("SIGINT");
        else setTimeout(poll, 5);
      };
      poll();
      child.on("close", resolve);
    });
    expect(code, stderr).toBe(130);
    expect(stderr).toMatch(/interrupted: finishing the shards in flight/);
    const done = Number(/shards: (\d+) written/.exec(stderr)?.[1]);
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(100);
    const r = await run(args);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`shards: ${100 - done} written, ${done} already present, 100 of 100`);
    expect(await values(dst)).toEqual(await values(src));
  }, 120_000);
});

describe("convert: bad input", () => {
  it("usage errors exit 2 naming the flag, and write nothing", async () => {
    const src = join(root, "plain.zarr");
    const dst = join(root, "never.zarr");
    const cases: [string[], RegExp][] = [
      [["--bogus"], /unknown option --bogus/],
      [["--shard-shape", "6,10"], /--shard-shape 6,10 is not a multiple of the chunk shape 4,5 \(dimension 0/],
      [["--shard-shape", "8"], /--shard-shape "8": expected 2 positive integers/],
      [["--codec", "lzma"], /--codec "lzma": unknown codec/],
      [["--codec", "zstd:99"], /level "99" is not an integer/],
      [["--index-location", "middle"], /--index-location "middle"/],
      [["--part", "2/2"], /part 2 of 2/],
      [["--jobs", "0"], /--jobs "0"/],
      [["--shard-bytes", "lots"], /--shard-bytes "lots"/],
      [["--progress", "loud"], /--progress must be one of/],
    ];
    for (const [flags, message] of cases) {
      const r = await run(["convert", src, dst, ...flags]);
      expect(r.code, flags.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain('See "zarrkit convert --help"');
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(existsSync(dst), flags.join(" ")).toBe(false);
    }
    const missing = await run(["convert", src]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing argument <src> <dst>/);
  });

  it("an existing destination that is another node: exit 1, nothing written; --overwrite replaces it", async () => {
    const src = join(root, "plain.zarr");
    const dst = join(root, "occupied.zarr");
    const other = await createArray(new FileSystemStore(dst), "", { shape: [3], dataType: "uint8", chunkShape: [3] });
    await other.set(null, Uint8Array.of(1, 2, 3));
    const before = await files(dst);
    const r = await run(["convert", src, dst, "--shard-shape", "8,10"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/destination .*occupied\.zarr already holds other data \(zarr\.json\); pass --overwrite/);
    const after = await files(dst);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [key, file] of before) expect(after.get(key)!.mtimeMs, key).toBe(file.mtimeMs);
    const o = await run(["convert", src, dst, "--shard-shape", "8,10", "--overwrite", "--progress", "none"]);
    expect(o.code, o.stderr).toBe(0);
    expect(await values(dst)).toEqual(await values(src));
    expect((await files(dst)).has("c/0")).toBe(false);
  });

  it("a source that does not exist, and a read-only destination: exit 1", async () => {
    const r = await run(["convert", join(root, "nothing.zarr"), join(root, "nothing-out.zarr")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^zarrkit: NotFoundError: .*nothing\.zarr/);
    expect(existsSync(join(root, "nothing-out.zarr"))).toBe(false);
    const h = await run(["convert", join(root, "plain.zarr"), "http://127.0.0.1:9/x.zarr"]);
    expect(h.code).toBe(1);
    expect(h.stderr).toMatch(/read-only/);
  });
});
