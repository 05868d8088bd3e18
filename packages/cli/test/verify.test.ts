import { cp, mkdtemp, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixturePath } from "@zarrkit/test-utils/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArray, createGroup, FileSystemStore } from "zarrkit";
import { run, type StaticServer, serveFolder } from "./helpers.js";

// A group with a sharded int32 array [8, 8] in shards [4, 4] of inner chunks [2, 2]: inner chain bytes + crc32c
// (16 + 4 bytes per inner chunk), index bytes + crc32c (4 entries x 16 + 4 = 68 bytes at the end): 4 shards of 148
// bytes.
const INNER = 20;
const INDEX = 68;
const SHARD = 4 * INNER + INDEX;

let root: string;
let server: StaticServer;
let clean: string;

async function makeClean(dir: string): Promise<void> {
  const store = new FileSystemStore(dir);
  await createGroup(store, "", { attributes: {} });
  const a = await createArray(store, "a", {
    zarr_format: 3,
    node_type: "array",
    shape: [8, 8],
    data_type: "int32",
    chunk_grid: { name: "regular", configuration: { chunk_shape: [4, 4] } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: 0,
    codecs: [
      {
        name: "sharding_indexed",
        configuration: {
          chunk_shape: [2, 2],
          codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }],
          index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }],
          index_location: "end",
        },
      },
    ],
    attributes: {},
  });
  await a.set(null, { data: Int32Array.from({ length: 64 }, (_, i) => i + 1), shape: [8, 8] });
  const plain = await createArray(store, "plain", { shape: [5, 4], dataType: "uint16", chunkShape: [2, 2] });
  await plain.set(null, { data: Uint16Array.from({ length: 20 }, (_, i) => i), shape: [5, 4] });
}

/** A copy of the clean group named `name`, changed by `edit` (given the copy's folder). */
async function corrupt(name: string, edit: (dir: string) => Promise<void>): Promise<string> {
  const dir = join(root, name);
  await cp(clean, dir, { recursive: true });
  await edit(dir);
  return dir;
}

async function flip(file: string, offset: number): Promise<void> {
  const bytes = new Uint8Array(await readFile(file));
  bytes[offset < 0 ? bytes.length + offset : offset]! ^= 0x5a;
  await writeFile(file, bytes);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32c(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Rewrite a shard's index entries (offset, nbytes per inner chunk) with a valid checksum. */
async function editIndex(file: string, edit: (entries: BigUint64Array) => void): Promise<void> {
  const bytes = new Uint8Array(await readFile(file));
  const index = bytes.subarray(bytes.length - INDEX);
  const entries = new BigUint64Array(index.slice(0, INDEX - 4).buffer);
  edit(entries);
  index.set(new Uint8Array(entries.buffer), 0);
  new DataView(index.buffer, index.byteOffset).setUint32(INDEX - 4, crc32c(index.subarray(0, INDEX - 4)), true);
  await writeFile(file, bytes);
}

const json = (text: string) =>
  JSON.parse(text) as {
    ok: boolean;
    checked: { shards: number; innerChunks: number; chunks: number };
    problems: { key: string; error: string; message: string }[];
  };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "zarrkit-verify-"));
  clean = join(root, "clean.zarr");
  await makeClean(clean);
  server = await serveFolder(root);
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe("verify", () => {
  it(
    "passes clean data: 4 shards, --deep decodes 16 inner chunks and the unsharded array's 6 chunks (files " +
      "and HTTP)",
    async () => {
      expect((await stat(join(clean, "a/c/0/0"))).size).toBe(SHARD);
      const text = await run(["verify", clean, "--progress", "none"]);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toBe("ok: checked 4 shards; 0 problems\n");
      expect(text.stderr).toBe("");
      const deep = await run(["verify", clean, "--deep", "--json", "--progress", "none"]);
      expect(deep.code).toBe(0);
      // The shards' inner chains end in crc32c; the unsharded array's chunks have no checksum: listed as unchecked.
      const plainChunks = ["0/0", "0/1", "1/0", "1/1", "2/0", "2/1"].map((c) => ({
        key: `plain/c/${c}`,
        reason: expect.stringMatching(/hold no checksum/),
      }));
      const none = { removed: [], kept: [] };
      expect(json(deep.stdout)).toEqual({
        ok: true,
        checked: { shards: 4, innerChunks: 16, chunks: 6 },
        problems: [],
        unchecked: plainChunks,
        temporaryFiles: none,
      });
      // HTTP cannot list: every shard key of the grid is probed (all present); the group's children come from
      // zarr.json.
      const http = await run(["verify", `${server.url}clean.zarr/a`, "--deep", "--json"]);
      expect(http.code, http.stderr).toBe(0);
      expect(json(http.stdout)).toEqual({
        ok: true,
        checked: { shards: 4, innerChunks: 16, chunks: 0 },
        problems: [],
        unchecked: [],
        temporaryFiles: none,
      });
    },
  );

  it(
    "passes the zarr-python v3 fixture: every array below the root with --deep, and a consolidated group " +
      "over HTTP",
    async (ctx) => {
      const dir = fixturePath("zarr-python-v3.zarr");
      if (!dir) return ctx.skip("the zarr-python v3 fixture is absent");
      const { code, stdout, stderr } = await run(["verify", dir, "--deep", "--json"]);
      expect(code, stderr).toBe(0);
      const report = json(stdout);
      expect(report.ok).toBe(true);
      expect(report.checked.shards).toBeGreaterThan(10);
      expect(report.checked.innerChunks).toBeGreaterThan(report.checked.shards);
      expect(report.checked.chunks).toBeGreaterThan(10);
      for (const name of ["3d.chunked.mixed.compressed.sharded.i2", "1d.chunked.compressed.sharded.i2"]) {
        const one = await run(["verify", join(dir, name), "--deep", "--json"]);
        expect(one.code, one.stderr).toBe(0);
        expect(json(one.stdout).checked.shards).toBeGreaterThan(0);
      }
      const fixtures = await serveFolder(join(dir, ".."));
      try {
        const local = await run(["verify", join(dir, "consolidated"), "--deep", "--json"]);
        const remote = await run(["verify", `${fixtures.url}zarr-python-v3.zarr/consolidated`, "--deep", "--json"]);
        expect(remote.code, remote.stderr).toBe(0);
        expect(json(remote.stdout)).toEqual(json(local.stdout));
        expect(json(local.stdout).checked.chunks).toBeGreaterThan(0);
      } finally {
        await fixtures.close();
      }
    },
  );

  it("a flipped byte in an index: exit 1, the key named, ChecksumError (files and HTTP)", async () => {
    const dir = await corrupt("index-flip.zarr", (d) => flip(join(d, "a/c/1/0"), -10));
    const { code, stdout } = await run(["verify", dir]);
    expect(code).toBe(1);
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^BAD a\/c\/1\/0: ChecksumError: /);
    expect(lines.at(-1)).toBe("FAILED: checked 3 shards; 1 problem");
    // Over HTTP the store is rooted at the array: keys are relative to it.
    const http = await run(["verify", `${server.url}index-flip.zarr/a`, "--json"]);
    expect(http.code).toBe(1);
    expect(json(http.stdout)).toMatchObject({
      ok: false,
      checked: { shards: 3 },
      problems: [{ key: "c/1/0", error: "ChecksumError" }],
    });
    // A group over HTTP without consolidated metadata cannot be walked: a failure, not a silent pass.
    const group = await run(["verify", `${server.url}index-flip.zarr`]);
    expect(group.code).toBe(1);
    expect(group.stderr).toMatch(/^zarrkit: StoreError: Cannot list the children/);
  });

  it("a flipped byte in an inner chunk (bytes + crc32c) is found only with --deep", async () => {
    const dir = await corrupt("inner-flip.zarr", (d) => flip(join(d, "a/c/0/1"), INNER + 3));
    const shallow = await run(["verify", dir, "--json"]);
    expect(shallow.code).toBe(0);
    expect(json(shallow.stdout).ok).toBe(true);
    const deep = await run(["verify", dir, "--deep", "--json"]);
    expect(deep.code).toBe(1);
    const report = json(deep.stdout);
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatchObject({ key: "a/c/0/1", error: "ChecksumError" });
    expect(report.checked).toMatchObject({ shards: 4, innerChunks: 12 });
  });

  it("a truncated shard: shorter than its index, and cut inside its data", async () => {
    const dir = await corrupt("truncated.zarr", async (d) => {
      await truncate(join(d, "a/c/0/0"), 40);
      await truncate(join(d, "a/c/1/1"), SHARD - 7);
    });
    const { code, stdout } = await run(["verify", dir, "--json"]);
    expect(code).toBe(1);
    const report = json(stdout);
    expect(report.problems.map((p) => p.key)).toEqual(["a/c/0/0", "a/c/1/1"]);
    expect(report.problems[0]).toMatchObject({ error: "CorruptDataError" });
    expect(report.problems[0]!.message).toMatch(/too short/);
    expect(report.checked.shards).toBe(2);
  });

  it("an index entry pointing past the end, and two entries overlapping (valid checksums)", async () => {
    const dir = await corrupt("entries.zarr", async (d) => {
      await editIndex(join(d, "a/c/0/0"), (e) => {
        e[6] = 4n * BigInt(INNER) - 4n; // inner chunk 3 starts 4 bytes early: runs into the index
      });
      await editIndex(join(d, "a/c/1/1"), (e) => {
        e[2] = 10n; // inner chunk 1 overlaps inner chunk 0
      });
    });
    const { code, stdout } = await run(["verify", dir, "--json"]);
    expect(code).toBe(1);
    const [past, overlap] = json(stdout).problems;
    expect(past).toMatchObject({ key: "a/c/0/0", error: "CorruptDataError" });
    expect(past!.message).toMatch(/outside the shard's data/);
    expect(overlap).toMatchObject({ key: "a/c/1/1", error: "CorruptDataError" });
    expect(overlap!.message).toMatch(/overlap/);
    // Over HTTP the shard's size comes from Content-Range: the same verdicts.
    const http = await run(["verify", `${server.url}entries.zarr/a`, "--json"]);
    expect(http.code).toBe(1);
    expect(
      json(http.stdout).problems.map((p) => [
        p.key,
        p.error,
        p.message.includes("outside") || p.message.includes("overlap"),
      ]),
    ).toEqual([
      ["c/0/0", "CorruptDataError", true],
      ["c/1/1", "CorruptDataError", true],
    ]);
  });

  it(
    "--progress json prints one {done, total} object per line on stderr; plain prints lines; " + "none nothing",
    async () => {
      const { code, stdout, stderr } = await run(["verify", clean, "--progress", "json", "--concurrency", "1"]);
      expect(code).toBe(0);
      expect(stdout).toBe("ok: checked 4 shards; 0 problems\n");
      const lines = stderr
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { done: number; total: number });
      expect(lines[0]).toEqual({ done: 0, total: 4 });
      expect(lines.at(-1)).toEqual({ done: 4, total: 4 });
      for (let i = 1; i < lines.length; i++) expect(lines[i]!.done).toBeGreaterThanOrEqual(lines[i - 1]!.done);
      const plain = await run(["verify", clean, "--progress", "plain", "--deep"], {
        ZARRKIT_PROGRESS_INTERVAL_MS: "1",
      });
      expect(plain.code).toBe(0);
      expect(plain.stderr.trim().split("\n").at(-1)).toMatch(/^10\/10 shards \(100%\), [\d.]+ shards\/s, took \d+s$/);
      const none = await run(["verify", clean, "--progress", "none", "--deep"]);
      expect(none.stderr).toBe("");
    },
  );

  it("--help shows usage and examples; bad flags exit 2 naming the flag", async () => {
    const help = await run(["verify", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: zarrkit verify <url>/);
    expect(help.stdout).toMatch(/Examples:\n {2}zarrkit verify /);
    expect((await run(["--help"])).stdout).toMatch(/^ {2}verify /m);
    for (const [args, flag] of [
      [["--concurrency", "0"], "--concurrency"],
      [["--progress", "fancy"], "--progress"],
      [["--deeep"], "--deeep"],
    ] as const) {
      const { code, stderr } = await run(["verify", clean, ...args]);
      expect(code).toBe(2);
      expect(stderr.trim().split("\n")).toHaveLength(1);
      expect(stderr).toContain(flag);
      expect(stderr).toContain('"zarrkit verify --help"');
    }
  });
});
