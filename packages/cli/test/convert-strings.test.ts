import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixturePath } from "@zarrkit/test-utils/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArray, FileSystemStore, openArray } from "zarrkit";
import { run } from "./helpers.js";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "zarrkit-strings-"));
});

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

async function values(path: string): Promise<{ shape: number[]; data: unknown[] }> {
  const got = await (await openArray(new FileSystemStore(path), "")).get();
  return { shape: got.shape, data: Array.from(got.data as ArrayLike<unknown>) };
}

/** The sharding codec's inner chain of a converted array. */
async function innerCodecs(path: string): Promise<string[]> {
  const metadata = JSON.parse(await readFile(join(path, "zarr.json"), "utf8"));
  expect(metadata.codecs[0].name).toBe("sharding_indexed");
  return metadata.codecs[0].configuration.codecs.map((c: { name: string }) => c.name);
}

describe("convert: variable-length strings", () => {
  it(
    "a v3 string array over several shards (one all empty, the fill value): vlen-utf8 inside the shards, " +
      "values equal",
    async () => {
      const src = join(root, "words.zarr");
      const words = Array.from({ length: 60 }, (_, i) => (i >= 40 ? "" : `${"ß€🚀".repeat(i % 4)}word${i}`));
      const array = await createArray(new FileSystemStore(src), "", {
        shape: [6, 10],
        dataType: "string",
        chunkShape: [2, 5],
      });
      await array.set(null, { data: words, shape: [6, 10] });
      const dst = join(root, "words-sharded.zarr");
      const r = await run(["convert", src, dst, "--shard-shape", "2,10", "--progress", "none"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain("shards: 2 written, 0 already present, 3 of 3; 1 all fill value, not stored");
      expect(await innerCodecs(dst)).toEqual(["vlen-utf8", "zstd"]);
      expect(await values(dst)).toEqual({ shape: [6, 10], data: words });
      // A rerun finds the shards complete.
      const again = await run(["convert", src, dst, "--shard-shape", "2,10", "--progress", "none"]);
      expect(again.stderr).toContain("0 written, 2 already present");
      const info = JSON.parse((await run(["info", dst, "--json"])).stdout);
      expect(info.dataType).toBe("string");
      expect(info.compressionRatio).toBeNull();
      // Strings have no mean nor mode here: refused before anything is written.
      const pyramid = await run(["convert", src, join(root, "words-pyramid.zarr"), "--multiscale", "1"]);
      expect(pyramid.code).toBe(1);
      expect(pyramid.stderr).toMatch(
        /UnsupportedError: .*words\.zarr: --multiscale needs a numeric array; string has no mean/,
      );
      expect(existsSync(join(root, "words-pyramid.zarr"))).toBe(false);
    },
  );

  const cases = [
    [
      "zarr-python-v3",
      [
        "1d.chunked.string.vlen",
        "2d.chunked.string.vlen",
        "1d.string.unicode",
        "1d.string.empty",
        "1d.contiguous.string.compressed",
      ],
    ],
    ["zarr-python-v2", ["3d.chunked.O", "1d.contiguous.U7"]],
  ] as const;
  for (const [fixture, names] of cases) {
    const dir = fixturePath(`${fixture}.zarr`);
    it.skipIf(!dir)(`the ${fixture} fixture's string arrays equal the fixture's expected values`, async () => {
      const expected = JSON.parse(await readFile(`${dir!.slice(0, -5)}.expected.json`, "utf8")) as {
        arrays: Record<string, { shape: number[]; data: unknown[] }>;
      };
      for (const name of names) {
        const dst = join(root, `${fixture}-${name}`);
        const r = await run(["convert", join(dir!, name), dst, "--codec", "gzip", "--progress", "none"]);
        expect(r.code, `${name}: ${r.stderr}`).toBe(0);
        const want = expected.arrays[name]!;
        expect(await values(dst), name).toEqual({ shape: want.shape, data: want.data });
        if (!name.includes("U7")) expect(await innerCodecs(dst), name).toEqual(["vlen-utf8", "gzip"]);
      }
    });
  }
});
