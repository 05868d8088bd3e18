// convert keeps the source's compression: arrays written by zarr-python 2.13
// (Debian's python3-zarr) with blosc, zstd, gzip, zlib, no compressor and a
// compressor zarr v3 cannot express, converted without --codec.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileSystemStore, openArray } from "zarrkit";
import { PYTHON, run } from "./helpers.js";

function zarrPython(): string | undefined {
  if (!existsSync(PYTHON)) return `${PYTHON} is absent`;
  try {
    execFileSync(PYTHON, ["-c", "import zarr, numcodecs"], { stdio: "pipe" });
    return undefined;
  } catch {
    return "zarr-python 2 is not installed for /usr/bin/python3 (apt-get install -y python3-zarr)";
  }
}
const absent = zarrPython();
if (absent) console.warn(`[zarrkit] skipping the convert-keeps-compression test: ${absent}`);

// A smooth uint16 volume (blosc lz4 + bitshuffle makes it about 10x smaller), its raw values saved beside.
const WRITE = `
import sys, zarr, numcodecs, numpy as np
root = sys.argv[1]
z, y, x = np.mgrid[0:48, 0:192, 0:160]
data = ((x // 7 + y // 11 + z * 3) % 700 + (x * y) % 5).astype("uint16")
data.tofile(root + "/values.u2")
cases = {
  "blosc": numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.BITSHUFFLE),
  "zstd": numcodecs.Zstd(level=5),
  "gzip": numcodecs.GZip(level=4),
  "zlib": numcodecs.Zlib(level=2),
  "none": None,
  "bz2": numcodecs.BZ2(level=9),
}
for name, compressor in cases.items():
  a = zarr.open(root + "/" + name + ".zarr", mode="w", shape=data.shape, chunks=(16, 64, 64), dtype="uint16", compressor=compressor)
  a[:] = data
print(zarr.__version__)
`;

let root: string;
let version = "";

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "zarrkit-keeps-"));
  if (!absent) version = execFileSync(PYTHON, ["-c", WRITE, root], { encoding: "utf8" }).trim();
}, 120_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

/** Bytes of the chunk or shard files under `dir` (metadata left out). */
async function storedBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.startsWith(".z") || entry.name === "zarr.json") continue;
    total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** The inner codecs of the destination's sharding codec. */
async function innerCodecs(dir: string): Promise<unknown[]> {
  const metadata = JSON.parse(await readFile(join(dir, "zarr.json"), "utf8")) as {
    codecs: { name: string; configuration: { codecs: unknown[] } }[];
  };
  return metadata.codecs.find((c) => c.name === "sharding_indexed")!.configuration.codecs;
}

async function sameValues(dst: string): Promise<void> {
  const got = await (await openArray(new FileSystemStore(dst), "")).get();
  const raw = await readFile(join(root, "values.u2"));
  expect(
    Buffer.from(
      (got.data as Uint16Array).buffer,
      (got.data as Uint16Array).byteOffset,
      (got.data as Uint16Array).byteLength,
    ).equals(raw),
  ).toBe(true);
}

const BYTES = { name: "bytes", configuration: { endian: "little" } };

describe.skipIf(absent !== undefined)("convert keeps the source's compression (zarr-python 2.13 sources)", () => {
  it(
    "blosc lz4 + bitshuffle stays so: the destination within 10% of the source's stored size, " + "values equal",
    async () => {
      expect(version).toMatch(/^2\./);
      const src = join(root, "blosc.zarr");
      const dst = join(root, "blosc-v3.zarr");
      const r = await run(["convert", src, dst, "--progress", "none"]);
      expect(r.code, r.stderr).toBe(0);
      expect(await innerCodecs(dst)).toEqual([
        BYTES,
        { name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "bitshuffle", typesize: 2, blocksize: 0 } },
      ]);
      const from = await storedBytes(src);
      const to = await storedBytes(dst);
      expect(from).toBeLessThan((48 * 192 * 160 * 2) / 8); // the source really is compressed well
      expect(to / from).toBeLessThan(1.1);
      await sameValues(dst);
      // info of both, side by side: the same compressor in both columns, the stored sizes compared.
      const info = await run(["info", src, dst]);
      expect(info.code, info.stderr).toBe(0);
      expect(info.stdout).toMatch(
        /^codecs: +blosc\(clevel=5, cname=lz4, shuffle=2\) +sharding_indexed\(bytes\(endian=little\), blosc\(cname=lz4, clevel=5, shuffle=bitshuffle\)\)$/m,
      );
      expect(info.stdout).toMatch(new RegExp(`^chunks: +27 of 27 present, ${from} B .* stored +-$`, "m"));
      expect(info.stdout).toMatch(new RegExp(`^shards: +- +1 of 1 present, ${to} B`, "m"));
      const ratio = Number(/^stored size: +([\d.]+)x \(second over first\)$/m.exec(info.stdout)?.[1]);
      expect(ratio).toBeCloseTo(to / from, 2);
      const json = JSON.parse((await run(["info", src, dst, "--json"])).stdout) as {
        chunks?: { bytes: number };
        shards?: { bytes: number };
      }[];
      expect(json).toHaveLength(2);
      expect(json[0]!.chunks!.bytes).toBe(from);
      expect(json[1]!.shards!.bytes).toBe(to);
    },
  );

  it("zstd stays zstd, gzip stays gzip (zlib as gzip), no compressor gets zstd:3; values equal", async () => {
    const expected: Record<string, unknown> = {
      zstd: { name: "zstd", configuration: { level: 5, checksum: false } },
      gzip: { name: "gzip", configuration: { level: 4 } },
      zlib: { name: "gzip", configuration: { level: 2 } },
      none: { name: "zstd", configuration: { level: 3, checksum: false } },
    };
    for (const [name, codec] of Object.entries(expected)) {
      const dst = join(root, `${name}-v3.zarr`);
      const r = await run(["convert", join(root, `${name}.zarr`), dst, "--progress", "none"]);
      expect(r.code, r.stderr).toBe(0);
      expect(await innerCodecs(dst), name).toEqual([BYTES, codec]);
      if (name !== "none")
        expect((await storedBytes(dst)) / (await storedBytes(join(root, `${name}.zarr`))), name).toBeLessThan(1.1);
      await sameValues(dst);
    }
  });

  it("a compressor without a v3 codec (bz2): the default, said so; --codec still chooses", async () => {
    const dst = join(root, "bz2-v3.zarr");
    const r = await run(["convert", join(root, "bz2.zarr"), dst, "--progress", "none"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/the source's compressor "bz2" has no Zarr v3 codec here; writing zstd:3 instead/);
    expect(await innerCodecs(dst)).toEqual([BYTES, { name: "zstd", configuration: { level: 3, checksum: false } }]);
    await sameValues(dst);
    const chosen = join(root, "blosc-gzip.zarr");
    expect(
      (await run(["convert", join(root, "blosc.zarr"), chosen, "--codec", "gzip:1", "--progress", "none"])).code,
    ).toBe(0);
    expect(await innerCodecs(chosen)).toEqual([BYTES, { name: "gzip", configuration: { level: 1 } }]);
  });
});
