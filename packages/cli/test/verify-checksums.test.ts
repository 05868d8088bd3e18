// --codec ...+crc32c puts a checksum on every inner chunk, and verify --deep
// names the shards it could not check for bit flips (no checksum in the chain).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArray, FileSystemStore, openArray } from "zarrkit";
import { run } from "./helpers.js";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "zarrkit-checksums-"));
  const src = await createArray(new FileSystemStore(join(root, "src.zarr")), "", {
    shape: [40, 30],
    dataType: "int32",
    chunkShape: [4, 5],
  });
  await src.set(
    null,
    Int32Array.from({ length: 1200 }, (_, i) => Math.imul(i + 1, 2654435761)),
  );
});

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

/** Flip a byte in the middle of the first inner chunk of shard c/0/0 (index at the end: 4 x offset, length). */
async function flipFirstChunk(dst: string): Promise<void> {
  const file = join(dst, "c/0/0");
  const bytes = new Uint8Array(await readFile(file));
  const index = new DataView(bytes.buffer, bytes.length - 4 * 16 - 4);
  const offset = Number(index.getBigUint64(0, true));
  const length = Number(index.getBigUint64(8, true));
  bytes[offset + Math.floor(length / 2)]! ^= 0x10;
  await writeFile(file, bytes);
}

const SHARDS = Array.from({ length: 15 }, (_, i) => `c/${Math.floor(i / 3)}/${i % 3}`).sort();

async function convert(codec: string): Promise<string> {
  const dst = join(root, `${codec.replace(/[^a-z0-9]/g, "_")}.zarr`);
  const r = await run([
    "convert",
    join(root, "src.zarr"),
    dst,
    "--codec",
    codec,
    "--shard-shape",
    "8,10",
    "--progress",
    "none",
  ]);
  expect(r.code, r.stderr).toBe(0);
  return dst;
}

describe("--codec ...+crc32c and verify --deep", () => {
  it.each(["none+crc32c", "zstd:3+crc32c", "blosc:lz4:5:shuffle+crc32c"])(
    "%s: a checksum last in the chain; a flipped bit is a ChecksumError",
    async (codec) => {
      const dst = await convert(codec);
      const array = await openArray(new FileSystemStore(dst), "");
      const inner = (array.metadata as unknown as { codecs: { configuration: { codecs: { name: string }[] } }[] })
        .codecs[0]!.configuration.codecs;
      expect(inner.at(-1)).toEqual({ name: "crc32c" });
      const clean = JSON.parse((await run(["verify", dst, "--deep", "--json"])).stdout);
      expect(clean).toMatchObject({ ok: true, checked: { shards: 15, innerChunks: 60 }, unchecked: [] });
      await flipFirstChunk(dst);
      const bad = await run(["verify", dst, "--deep", "--json"]);
      expect(bad.code).toBe(1);
      expect(JSON.parse(bad.stdout).problems).toEqual([
        { key: "c/0/0", error: "ChecksumError", message: expect.stringMatching(/crc32c/i) },
      ]);
    },
  );

  it(
    "without a checksum (none, blosc): a flipped bit decodes unseen, and verify --deep lists every shard as " +
      "unchecked",
    async () => {
      for (const codec of ["none", "blosc:lz4:5:shuffle"]) {
        const dst = await convert(codec);
        await flipFirstChunk(dst);
        const json = await run(["verify", dst, "--deep", "--json"]);
        expect(json.code, codec).toBe(0);
        const report = JSON.parse(json.stdout) as { ok: boolean; unchecked: { key: string; reason: string }[] };
        expect(report.ok).toBe(true);
        expect(report.unchecked.map((u) => u.key)).toEqual(SHARDS);
        expect(report.unchecked[0]!.reason).toMatch(/hold no checksum: bit flips in it cannot be seen/);
        const text = await run(["verify", dst, "--deep"]);
        expect(text.code).toBe(0);
        const lines = text.stdout.trim().split("\n");
        expect(lines.filter((l) => l.startsWith("UNCHECKED c/"))).toHaveLength(10);
        expect(lines).toContain("UNCHECKED ... 5 more (--json lists them all)");
        expect(lines.at(-1)).toBe(
          "ok: checked 15 shards, 60 inner chunks; 0 problems; 15 without a checksum (bit flips unseen)",
        );
        // Without --deep nothing is decoded, so nothing is claimed about the chunks.
        expect(JSON.parse((await run(["verify", dst, "--json"])).stdout).unchecked).toEqual([]);
      }
    },
  );

  it("gzip's CRC-32 counts as a checksum; bad +suffixes are usage errors", async () => {
    const dst = await convert("gzip:1");
    expect(JSON.parse((await run(["verify", dst, "--deep", "--json"])).stdout).unchecked).toEqual([]);
    for (const [codec, message] of [
      ["zstd+md5", /"\+md5" is not \+crc32c/],
      ["zstd+crc32c+crc32c", /\+crc32c is given more than once/],
      ["+crc32c", /unknown codec/],
    ] as const) {
      const r = await run(["convert", join(root, "src.zarr"), join(root, "never.zarr"), "--codec", codec]);
      expect(r.code, codec).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});
