// zarrkit convert as users run it on a cluster: a real SLURM job array
// submitting examples/slurm-convert.sh (the script the README shows) with the
// built command, to the filesystem and to S3 on radosgw; and a plain convert
// to S3. Skipped with a printed reason when SLURM or radosgw is not
// installed; on CI, which installs both, that is a failure.
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { missingRgwBinaries, type Rgw, startRgw } from "@zarrkit/rgw";
import { type SbatchArrayResult, type SlurmCluster, startSlurm } from "@zarrkit/slurm";
import { AwsClient } from "aws4fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArray, FileSystemStore, openArray, openGroup, S3Store, type Store, ZarrArray } from "zarrkit";
import { BUILT_BIN, ensureBuilt } from "./built-bin.js";
import { generate } from "./generate.js";
import { run } from "./helpers.js";

const SCRIPT = fileURLToPath(new URL("../examples/slurm-convert.sh", import.meta.url));
/** Versioned: every PUT of a key stays a version of its own, the proof that no shard is stored twice. */
const BUCKET = "zarrkit-cli-versioned";
/**
 * Unversioned, as most buckets are: radosgw 16 ignores If-Match and
 * If-None-Match on PUT in versioned buckets, so the plain convert runs here.
 */
const PLAIN_BUCKET = "zarrkit-cli-plain";
const TASKS = 4;
// 100 x 140 uint16 (28 kB) in shards of 12 x 16: a grid of 9 x 9 = 81 shards, the last row and column clipped.
const SHAPE = [100, 140];
const GRID = [9, 9];
const LAYOUT = ["--chunk-shape", "6,8", "--shard-shape", "12,16"];
const SOURCE = Uint16Array.from({ length: SHAPE[0]! * SHAPE[1]! }, (_, i) => ((i * 2654435761) >>> 7) % 65521 || 1);
const SHARD_KEYS = Array.from(
  { length: GRID[0]! * GRID[1]! },
  (_, i) => `c/${Math.floor(i / GRID[1]!)}/${i % GRID[1]!}`,
).sort();
/** The part that owns a shard: its linear grid index modulo the number of tasks. */
const partOf = (key: string) => {
  const [i, j] = key.split("/").slice(1).map(Number) as [number, number];
  return (i * GRID[1]! + j) % TASKS;
};

let root: string;
let slurm: SlurmCluster | undefined;
let slurmSkip: string | undefined;
let rgw: Rgw | undefined;
let rgwSkip: string | undefined;
let s3: AwsClient;
/** A folder holding `zarrkit`: plain node on the built dist/bin.js, as `npm install -g` gives users. */
let binDir: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "zarrkit-cluster-"));
  const missing = missingRgwBinaries();
  if (missing.length > 0) rgwSkip = `${missing.join(", ")} not installed; run tooling/ci/install-system-deps.sh`;
  // The build, SLURM and radosgw start at once (each is mostly waiting).
  const [, cluster, server] = await Promise.all([
    ensureBuilt(),
    startSlurm({ onUnavailable: (reason) => (slurmSkip = reason) }),
    rgwSkip ? undefined : startRgw(),
    prepareSources(),
  ]);
  slurm = cluster;
  rgw = server;
  for (const [what, reason] of [
    ["SLURM", slurmSkip],
    ["radosgw", rgwSkip],
  ] as const) {
    if (reason === undefined) continue;
    if (process.env.CI === "true")
      throw new Error(`The cluster tests of the zarrkit command need ${what} on CI: ${reason}.`);
    console.warn(`\n[cli] Skipping the tests that need ${what}: ${reason}.\n`);
  }
  if (rgw) {
    s3 = new AwsClient({
      accessKeyId: rgw.accessKey,
      secretAccessKey: rgw.secretKey,
      service: "s3",
      region: "us-east-1",
    });
    for (const bucket of [BUCKET, PLAIN_BUCKET])
      await s3Ok(await s3.fetch(`${rgw.endpoint}/${bucket}`, { method: "PUT" }), `creating bucket ${bucket}`);
    const versioning =
      "<VersioningConfiguration " +
      'xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Status>Enabled</Status></VersioningConfiguration>';
    await s3Ok(
      await s3.fetch(`${rgw.endpoint}/${BUCKET}?versioning`, { method: "PUT", body: versioning }),
      "enabling versioning",
    );
  }
}, 240_000);

afterAll(async () => {
  await slurm?.stop();
  await rgw?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

async function prepareSources(): Promise<void> {
  const src = await createArray(new FileSystemStore(join(root, "src.zarr")), "", {
    shape: SHAPE,
    dataType: "uint16",
    chunkShape: [10, 20],
  });
  await src.set(null, { data: SOURCE, shape: SHAPE });
  await generate(root);
  binDir = join(root, "bin");
  await mkdir(binDir);
  await writeFile(join(binDir, "zarrkit"), `#!/bin/sh\nexec "${process.execPath}" "${BUILT_BIN}" "$@"\n`);
  await chmod(join(binDir, "zarrkit"), 0o755);
}

async function s3Ok(response: Response, what: string): Promise<void> {
  if (!response.ok) throw new Error(`${what} on radosgw failed: ${response.status} ${await response.text()}`);
}

function awsEnv(): NodeJS.ProcessEnv {
  return {
    AWS_ACCESS_KEY_ID: rgw!.accessKey,
    AWS_SECRET_ACCESS_KEY: rgw!.secretKey,
    AWS_ENDPOINT_URL: rgw!.endpoint,
    AWS_REGION: "us-east-1",
  };
}

function s3Store(bucket: string, prefix: string): S3Store {
  return new S3Store({
    bucket,
    prefix,
    endpoint: rgw!.endpoint,
    credentials: { accessKeyId: rgw!.accessKey, secretAccessKey: rgw!.secretKey },
  });
}

/** Submit the example script as users do: `sbatch slurm-convert.sh src.zarr <dst> <layout>`, with `zarrkit` on PATH. */
function submit(dst: string, env: NodeJS.ProcessEnv = {}): Promise<SbatchArrayResult> {
  const jobEnv: NodeJS.ProcessEnv = { ...process.env, PATH: `${binDir}:${process.env.PATH}`, ...env };
  // Plain node: nothing of the test runner's loader reaches the tasks.
  delete jobEnv.NODE_OPTIONS;
  return slurm!.sbatchScript(SCRIPT, [join(root, "src.zarr"), dst, ...LAYOUT], TASKS, {
    env: jobEnv,
    cwd: root,
    timeoutMs: 150_000,
  });
}

interface TaskReport {
  /** What the task wrote per shard (--progress json): key and "written", "present" or "empty". */
  records: { key: string; shard: string }[];
  summary: string;
}

/** Each task succeeded, printed the part it took from SLURM_ARRAY_TASK_ID, and reported exactly its own shards. */
function checkTasks(result: SbatchArrayResult, shard: "written" | "present"): TaskReport[] {
  expect(result.status, `${result.sbatchOutput}\n${result.outputs.join("\n---\n")}`).toBe(0);
  return result.outputs.map((output, task) => {
    expect(output, `task ${task}`).toContain(`part ${task}/${TASKS} (from SLURM_ARRAY_TASK_ID)`);
    const lines = output.split("\n");
    const records = lines
      .filter((line) => line.startsWith("{"))
      .flatMap((line) => {
        const record = JSON.parse(line) as { key?: string; shard?: string };
        return record.key === undefined ? [] : [{ key: record.key, shard: record.shard! }];
      });
    const own = SHARD_KEYS.filter((key) => partOf(key) === task);
    expect(
      records.map((r) => r.key),
      `task ${task}`,
    ).toHaveLength(own.length);
    expect(records.map((r) => [r.key, r.shard]).sort(), `task ${task}`).toEqual(own.map((key) => [key, shard]));
    const summary = lines.find((line) => line.startsWith("converted ")) ?? "";
    const written = shard === "written" ? own.length : 0;
    expect(summary, `task ${task}`).toContain(
      `shards: ${written} written, ${own.length - written} already present, ${own.length} of ${own.length} ` +
        `(part ${task}/${TASKS})`,
    );
    return { records, summary };
  });
}

/** Every key a job's tasks reported as written: each shard exactly once, by one task. */
function writtenKeys(reports: TaskReport[]): string[] {
  return reports
    .flatMap((r) => r.records.filter((record) => record.shard === "written").map((record) => record.key))
    .sort();
}

async function expectValues(store: Store): Promise<void> {
  const array = await openArray(store, "");
  expect(array.shape).toEqual(SHAPE);
  expect(array.shardShape).toEqual([12, 16]);
  const got = await array.get();
  const bytes = got.data as Uint16Array;
  expect(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(Buffer.from(SOURCE.buffer))).toBe(true);
}

/** The shard files of a local array: inode and mtime by key. */
async function shardFiles(dir: string): Promise<Map<string, { ino: number; mtimeMs: number }>> {
  const files = new Map<string, { ino: number; mtimeMs: number }>();
  for (const name of await readdir(join(dir, "c"), { recursive: true })) {
    const info = await stat(join(dir, "c", name));
    if (info.isFile()) files.set(`c/${name}`, { ino: info.ino, mtimeMs: info.mtimeMs });
  }
  return files;
}

interface ObjectVersion {
  key: string;
  versionId: string;
  etag: string;
  lastModified: string;
}

/**
 * Every version of every object under `prefix` (ListObjectVersions, one page:
 * the tests stay under 1000); in an unversioned bucket, each object once.
 */
async function versions(bucket: string, prefix: string): Promise<ObjectVersion[]> {
  const response = await s3.fetch(`${rgw!.endpoint}/${bucket}?versions&prefix=${encodeURIComponent(prefix)}`);
  const xml = await response.text();
  expect(response.status, xml).toBe(200);
  expect(xml).toContain("<IsTruncated>false</IsTruncated>");
  expect(xml).not.toContain("<DeleteMarker>");
  const field = (entry: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(entry)?.[1] ?? "";
  return [...xml.matchAll(/<Version>(.*?)<\/Version>/gs)].map(([, entry]) => ({
    key: field(entry!, "Key").slice(prefix.length),
    versionId: field(entry!, "VersionId"),
    etag: field(entry!, "ETag"),
    lastModified: field(entry!, "LastModified"),
  }));
}

describe("examples/slurm-convert.sh", () => {
  it("is the script the README shows", async () => {
    const readme = await readFile(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");
    expect(readme).toContain(`\`\`\`bash\n${await readFile(SCRIPT, "utf8")}\`\`\``);
  });
});

describe("a SLURM job array of examples/slurm-convert.sh", () => {
  it("4 tasks convert to the filesystem, each its own part, every shard written once; a rerun " +
    "writes nothing", async (context) => {
    if (!slurm) return context.skip(slurmSkip);
    const dst = join(root, "slurm.zarr");
    const first = checkTasks(await submit(dst), "written");
    expect(writtenKeys(first)).toEqual(SHARD_KEYS);
    const files = await shardFiles(dst);
    expect([...files.keys()].sort()).toEqual(SHARD_KEYS);
    // Nothing a store leaves while writing (temporary files, locks) remains.
    expect((await readdir(dst, { recursive: true })).filter((name) => name.includes(".zarrkit-"))).toEqual([]);
    await expectValues(new FileSystemStore(dst));

    const again = checkTasks(await submit(dst), "present");
    expect(again.flatMap((r) => r.records.map((record) => record.key)).sort()).toEqual(SHARD_KEYS);
    // A write replaces the file (temporary file and rename): the same inode and mtime say no shard was written again.
    expect(await shardFiles(dst)).toEqual(files);
  }, 360_000);

  it("4 tasks convert to S3 on radosgw: each shard one PUT (one object version); a rerun " +
    "writes nothing", async (context) => {
    if (!slurm) return context.skip(slurmSkip);
    if (!rgw) return context.skip(rgwSkip);
    const prefix = "slurm.zarr";
    const first = checkTasks(await submit(`s3://${BUCKET}/${prefix}`, awsEnv()), "written");
    expect(writtenKeys(first)).toEqual(SHARD_KEYS);
    const stored = await versions(BUCKET, `${prefix}/`);
    const shardVersions = stored.filter((v) => v.key.startsWith("c/"));
    // One version per shard key: no shard was stored twice, by any task.
    expect(shardVersions.map((v) => v.key).sort()).toEqual(SHARD_KEYS);
    // Every task writes the metadata when it finds it missing, so parts starting at once may each store it: the same
    // bytes.
    const metadata = stored.filter((v) => v.key === "zarr.json");
    expect(metadata.length).toBeGreaterThanOrEqual(1);
    expect(metadata.length).toBeLessThanOrEqual(TASKS);
    expect(new Set(metadata.map((v) => v.etag)).size).toBe(1);
    expect(stored.length).toBe(shardVersions.length + metadata.length);
    console.log(
      `[cli] SLURM array to S3: ${shardVersions.length} shards stored once each, zarr.json stored ` +
        `by ${metadata.length} of ${TASKS} tasks`,
    );
    await expectValues(s3Store(BUCKET, prefix));

    checkTasks(await submit(`s3://${BUCKET}/${prefix}`, awsEnv()), "present");
    // Not one new version: the rerun stored nothing, metadata included.
    expect(await versions(BUCKET, `${prefix}/`)).toEqual(stored);
  }, 360_000);
});

describe("convert to S3 on radosgw", () => {
  it("a group: values equal, a rerun writes nothing, verify passes, info's statistics equal a local " +
    "conversion's", async (context) => {
    if (!rgw) return context.skip(rgwSkip);
    const src = join(root, "gen.zarr");
    const dst = `s3://${PLAIN_BUCKET}/gen.zarr`;
    const first = await run(["convert", src, dst, "--progress", "none"], awsEnv());
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(
      `converted ${src} -> ${dst}: 4 arrays, 2 groups; shards: 4 written, 0 already present, 4 of 4`,
    );

    const source = await openGroup(new FileSystemStore(src));
    const dest = await openGroup(s3Store(PLAIN_BUCKET, "gen.zarr"));
    expect(dest.attributes).toEqual(source.attributes);
    for (const path of ["sub/sharded", "plain", "complex", "half-be"]) {
      const [a, b] = [await openArray(source.store, path), await openArray(dest.store, path)];
      expect(b, path).toBeInstanceOf(ZarrArray);
      expect(b.shardShape, path).toBeDefined();
      expect(b.dataType, path).toEqual(a.dataType);
      const [x, y] = [await a.get(), await b.get()];
      expect(y.shape, path).toEqual(x.shape);
      expect(Array.from(y.data as ArrayLike<unknown>), path).toEqual(Array.from(x.data as ArrayLike<unknown>));
    }

    const before = await versions(PLAIN_BUCKET, "gen.zarr/");
    const again = await run(["convert", src, dst, "--progress", "none"], awsEnv());
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain("shards: 0 written, 4 already present, 4 of 4");
    // Every object as it was (same ETag and modification time): nothing stored again.
    expect(await versions(PLAIN_BUCKET, "gen.zarr/")).toEqual(before);

    const verified = await run(["verify", dst, "--deep", "--json", "--progress", "none"], awsEnv());
    expect(verified.code, verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, checked: { shards: 4 }, problems: [] });

    // The same conversion to the filesystem: info must report the same statistics from S3 (listing, sizes, indexes).
    const local = join(root, "gen-local.zarr");
    expect((await run(["convert", src, local, "--progress", "none"])).code).toBe(0);
    for (const path of ["sub/sharded", "plain"]) {
      const remote = await run(["info", `${dst}/${path}`, "--json"], awsEnv());
      expect(remote.code, remote.stderr).toBe(0);
      const info = JSON.parse(remote.stdout);
      expect(info).toEqual(JSON.parse((await run(["info", join(local, path), "--json"])).stdout));
      expect(info.shards.present, path).toBe(1);
      expect(info.shards.bytes, path).toBeGreaterThan(0);
    }
    // The sharded source's 9 inner chunks with values (of 20): fill-value chunks are not stored.
    expect(JSON.parse((await run(["info", `${dst}/sub/sharded`, "--json"], awsEnv())).stdout).innerChunks).toEqual({
      total: 20,
      present: 9,
    });
  }, 120_000);
});
