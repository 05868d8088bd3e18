import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPrecomputedImage } from "@zarrkit/neuroglancer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArray, FileSystemStore, openArray } from "zarrkit";
import { generate, VOLUME, voxel } from "./generate.js";
import { fileDigests as files, killAfter, run } from "./helpers.js";

let root: string;

const noise = (n: number, mod: number, seed = 1) =>
  Array.from({ length: n }, (_, i) => (((i + seed) * 2654435761) >>> 11) % mod);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "zarrkit-precomputed-"));
  await generate(root);
  await writeUnsharded(join(root, "unsharded"));
  const zyx = await createArray(new FileSystemStore(join(root, "zyx.zarr")), "", {
    shape: [10, 13, 17],
    dataType: "uint16",
    chunkShape: [4, 5, 6],
  });
  await zyx.set(null, Uint16Array.from(noise(10 * 13 * 17, 65536)));
  const czyx = await createArray(new FileSystemStore(join(root, "czyx.zarr")), "", {
    shape: [2, 5, 6, 7],
    dataType: "uint32",
    chunkShape: [1, 5, 6, 7],
  });
  await czyx.set(null, Uint32Array.from(noise(2 * 5 * 6 * 7, 2 ** 32, 3)));
  const big = await createArray(new FileSystemStore(join(root, "big.zarr")), "", {
    shape: [64, 256, 256],
    dataType: "uint8",
    chunkShape: [16, 32, 32],
  });
  await big.set(null, Uint8Array.from(noise(64 * 256 * 256, 256, 7)));
  await createArray(new FileSystemStore(join(root, "f64.zarr")), "", {
    shape: [4, 4],
    dataType: "float64",
    chunkShape: [4, 4],
  });
}, 120_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

/**
 * An unsharded 2-channel uint8 volume, one file per chunk ("x0-x1_y0-y1_z0-z1"), voxel (x, y, z, c) = x + 7y + 31z +
 * 100c.
 */
async function writeUnsharded(dir: string): Promise<void> {
  const size = [5, 4, 3];
  const chunk = [3, 2, 2];
  await mkdir(join(dir, "8_8_8"), { recursive: true });
  const info = {
    "@type": "neuroglancer_multiscale_volume",
    type: "image",
    data_type: "uint8",
    num_channels: 2,
    scales: [
      { key: "8_8_8", size, voxel_offset: [0, 0, 0], chunk_sizes: [chunk], resolution: [8, 8, 8], encoding: "raw" },
    ],
  };
  await writeFile(join(dir, "info"), JSON.stringify(info));
  for (let z0 = 0; z0 < size[2]!; z0 += chunk[2]!)
    for (let y0 = 0; y0 < size[1]!; y0 += chunk[1]!)
      for (let x0 = 0; x0 < size[0]!; x0 += chunk[0]!) {
        const [x1, y1, z1] = [
          Math.min(size[0]!, x0 + chunk[0]!),
          Math.min(size[1]!, y0 + chunk[1]!),
          Math.min(size[2]!, z0 + chunk[2]!),
        ];
        const bytes: number[] = [];
        for (let c = 0; c < 2; c++)
          for (let z = z0; z < z1; z++)
            for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) bytes.push(x + 7 * y + 31 * z + 100 * c);
        await writeFile(join(dir, "8_8_8", `${x0}-${x1}_${y0}-${y1}_${z0}-${z1}`), Uint8Array.from(bytes));
      }
}

async function zarrValues(path: string): Promise<{ shape: number[]; data: number[] }> {
  const got = await (await openArray(new FileSystemStore(path), "")).get();
  return { shape: got.shape, data: Array.from(got.data as ArrayLike<number>) };
}

/** The whole of scale 0, through zarrkit's precomputed reader: [c][z][y][x], the C order of a [c, z, y, x] array. */
async function precomputedValues(
  path: string,
): Promise<{ shape: number[]; data: number[]; info: Record<string, unknown> }> {
  const image = await openPrecomputedImage(new FileSystemStore(path));
  const size = image.info.scales[0].size;
  const region = await image.read({ min: [0, 0, 0], max: size }, { fillMissing: false });
  return {
    shape: [region.shape[3], region.shape[2], region.shape[1], region.shape[0]],
    data: Array.from(region.data as ArrayLike<number>),
    info: image.info as unknown as Record<string, unknown>,
  };
}

describe("convert from precomputed sources", () => {
  it("a sharded volume: a [c, z, y, x] array with the voxels in place", async () => {
    const dst = join(root, "from-sharded.zarr");
    const r = await run(["convert", `precomputed://${join(root, "vol")}`, dst, "--progress", "none"]);
    expect(r.code, r.stderr).toBe(0);
    const array = await openArray(new FileSystemStore(dst), "");
    const [sx, sy, sz] = VOLUME.size;
    expect(array.shape).toEqual([1, sz, sy, sx]);
    expect(array.dimensionNames).toEqual(["c", "z", "y", "x"]);
    expect(array.dataType).toBe("uint16");
    expect(array.chunkShape).toEqual([1, VOLUME.chunk[2], VOLUME.chunk[1], VOLUME.chunk[0]]);
    const expected: number[] = [];
    for (let z = 0; z < sz; z++)
      for (let y = 0; y < sy; y++) for (let x = 0; x < sx; x++) expected.push(voxel(x, y, z));
    expect((await zarrValues(dst)).data).toEqual(expected);
    // zarrkit get of both agree, [x, y, z, c] against [c, z, y, x].
    const a = await run(["get", `precomputed://${join(root, "vol")}`, "--select", "3,4,1,0"]);
    const b = await run(["get", dst, "--select", "0,1,4,3"]);
    expect(a.stdout.trim()).toBe(String(voxel(3, 4, 1)));
    expect(b.stdout.trim()).toBe(a.stdout.trim());
  });

  it("an unsharded volume of 2 channels, with --multiscale: the channel axis is kept", async () => {
    const dst = join(root, "from-unsharded.zarr");
    const r = await run([
      "convert",
      `precomputed://${join(root, "unsharded")}`,
      dst,
      "--multiscale",
      "1",
      "--progress",
      "none",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const expected: number[] = [];
    for (let c = 0; c < 2; c++)
      for (let z = 0; z < 3; z++)
        for (let y = 0; y < 4; y++) for (let x = 0; x < 5; x++) expected.push(x + 7 * y + 31 * z + 100 * c);
    const level0 = await (await openArray(new FileSystemStore(dst), "0")).get();
    expect(level0.shape).toEqual([2, 3, 4, 5]);
    expect(Array.from(level0.data as Uint8Array)).toEqual(expected);
    expect((await openArray(new FileSystemStore(dst), "1")).shape).toEqual([2, 2, 2, 3]);
    // The volume's resolution (8 nm) becomes the scale of level 0, in nanometres.
    const multiscale = JSON.parse(await readFile(join(dst, "zarr.json"), "utf8")).attributes.ome.multiscales[0];
    expect(multiscale.axes).toEqual([
      { name: "c", type: "channel" },
      { name: "z", type: "space", unit: "nanometer" },
      { name: "y", type: "space", unit: "nanometer" },
      { name: "x", type: "space", unit: "nanometer" },
    ]);
    expect(
      multiscale.datasets.map(
        (d: { coordinateTransformations: { scale: number[] }[] }) => d.coordinateTransformations[0]!.scale,
      ),
    ).toEqual([
      [1, 8, 8, 8],
      [1, 16, 16, 16],
    ]);
  });
});

describe("convert --to precomputed", () => {
  it(
    "a [z, y, x] uint16 array: sharded precomputed, parameters chosen, values read back equal; " + "info works",
    async () => {
      const dst = join(root, "zyx-pre");
      const r = await run([
        "convert",
        join(root, "zyx.zarr"),
        `precomputed://${dst}`,
        "--to",
        "precomputed",
        "--shard-bytes",
        "2KiB",
        "--progress",
        "none",
      ]);
      expect(r.code, r.stderr).toBe(0);
      const shards = (await readdir(join(dst, "s0"))).filter((n) => n.endsWith(".shard"));
      expect(shards.length).toBeGreaterThan(1);
      expect(r.stderr).toContain(
        `1 precomputed volume; shards: ${shards.length} written, 0 already present, ${shards.length} ` +
          `of ${shards.length}`,
      );
      const source = await zarrValues(join(root, "zyx.zarr"));
      const back = await precomputedValues(dst);
      expect(back.shape).toEqual([1, 10, 13, 17]);
      expect(back.data).toEqual(source.data);
      expect(back.info.type).toBe("image");
      const scale = (
        back.info.scales as {
          size: number[];
          chunk_sizes: number[][];
          sharding: { data_encoding: string; hash: string };
        }[]
      )[0]!;
      expect(scale.size).toEqual([17, 13, 10]);
      expect(scale.chunk_sizes).toEqual([[6, 5, 4]]);
      expect(scale.sharding.hash).toBe("identity");
      expect(scale.sharding.data_encoding).toBe("gzip");
      const info = JSON.parse((await run(["info", `precomputed://${dst}`, "--json"])).stdout);
      expect(info.format).toBe("precomputed");
      expect(info.shape).toEqual([17, 13, 10, 1]);
      // Back to Zarr: the same values again.
      const again = join(root, "zyx-again.zarr");
      expect((await run(["convert", `precomputed://${dst}`, again, "--progress", "none"])).code).toBe(0);
      expect((await zarrValues(again)).data).toEqual(source.data);
      // Precomputed to precomputed keeps the voxels and the resolution (offset: 0).
      const copy = join(root, "vol-copy");
      expect(
        (
          await run([
            "convert",
            `precomputed://${join(root, "vol")}`,
            copy,
            "--to",
            "precomputed",
            "--progress",
            "none",
          ])
        ).code,
      ).toBe(0);
      const original = await openPrecomputedImage(new FileSystemStore(join(root, "vol")));
      const copied = await precomputedValues(copy);
      expect((copied.info.scales as { resolution: number[] }[])[0]!.resolution).toEqual([4, 4, 40]);
      const box = { min: VOLUME.offset, max: VOLUME.offset.map((o, d) => o + VOLUME.size[d]!) };
      expect(copied.data).toEqual(Array.from((await original.read(box)).data as ArrayLike<number>));
    },
  );

  it(
    "--multiscale 2 --to precomputed: one scale per level in info, each read back equal to the " + "block means",
    async () => {
      const dst = join(root, "zyx-pyramid");
      const r = await run([
        "convert",
        join(root, "zyx.zarr"),
        `precomputed://${dst}`,
        "--to",
        "precomputed",
        "--multiscale",
        "2",
        "--progress",
        "none",
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain("1 precomputed volume of 3 scales");
      const info = JSON.parse(await readFile(join(dst, "info"), "utf8")) as { scales: Record<string, unknown>[] };
      // Neuroglancer's layout: finest first, sizes halved (ceil) on x, y and z, resolutions doubled, each scale
      // sharded.
      expect(info.scales.map((s) => [s.key, s.size, s.resolution, s.chunk_sizes, s.voxel_offset])).toEqual([
        ["s0", [17, 13, 10], [1, 1, 1], [[6, 5, 4]], [0, 0, 0]],
        ["s1", [9, 7, 5], [2, 2, 2], [[6, 5, 4]], [0, 0, 0]],
        ["s2", [5, 4, 3], [4, 4, 4], [[5, 4, 3]], [0, 0, 0]],
      ]);
      for (const scale of info.scales)
        expect((scale.sharding as { "@type": string })["@type"]).toBe("neuroglancer_uint64_sharded_v1");
      const source = await zarrValues(join(root, "zyx.zarr"));
      const [Z, Y, X] = [10, 13, 17];
      const image = await openPrecomputedImage(new FileSystemStore(dst));
      for (const level of [0, 1, 2]) {
        const f = 2 ** level;
        const size = [Math.ceil(X / f), Math.ceil(Y / f), Math.ceil(Z / f)];
        const region = await image.read({ min: [0, 0, 0], max: size }, { scale: level, fillMissing: false });
        // The mean of the existing source voxels of each f x f x f block, rounded to nearest (ties away from zero).
        const expected: number[] = [];
        for (let z = 0; z < size[2]!; z++)
          for (let y = 0; y < size[1]!; y++)
            for (let x = 0; x < size[0]!; x++) {
              let sum = 0;
              let n = 0;
              for (let zz = z * f; zz < Math.min(Z, (z + 1) * f); zz++)
                for (let yy = y * f; yy < Math.min(Y, (y + 1) * f); yy++)
                  for (let xx = x * f; xx < Math.min(X, (x + 1) * f); xx++) {
                    sum += source.data[(zz * Y + yy) * X + xx]!;
                    n++;
                  }
              expected.push(Math.round(sum / n));
            }
        expect(Array.from(region.data as ArrayLike<number>), `scale ${level}`).toEqual(expected);
      }
      // A rerun finds every shard of every scale complete.
      const again = await run([
        "convert",
        join(root, "zyx.zarr"),
        `precomputed://${dst}`,
        "--to",
        "precomputed",
        "--multiscale",
        "2",
        "--progress",
        "none",
      ]);
      expect(again.stderr).toMatch(/shards: 0 written, (\d+) already present, \1 of \1/);
    },
  );

  it("[c, z, y, x] uint32 with --labels and --codec none: a 2-channel segmentation with raw data", async () => {
    const dst = join(root, "czyx-pre");
    const r = await run([
      "convert",
      join(root, "czyx.zarr"),
      dst,
      "--to",
      "precomputed",
      "--labels",
      "--codec",
      "none",
      "--progress",
      "none",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const back = await precomputedValues(dst);
    expect(back.info.type).toBe("segmentation");
    expect(back.info.num_channels).toBe(2);
    expect((back.info.scales as { sharding: { data_encoding: string } }[])[0]!.sharding.data_encoding).toBe("raw");
    expect(back.data).toEqual((await zarrValues(join(root, "czyx.zarr"))).data);
  });

  it("--part and kill -9: parts and resumed runs give the files of a whole run, byte for byte", async () => {
    const src = join(root, "big.zarr");
    const args = ["--to", "precomputed", "--shard-bytes", "64KiB", "--jobs", "1", "--progress", "none"];
    const whole = join(root, "big-whole");
    const w = await run(["convert", src, whole, ...args]);
    expect(w.code, w.stderr).toBe(0);
    const reference = await files(whole);
    const total = Object.keys(reference).length - 1;
    expect(total).toBeGreaterThanOrEqual(32);

    const parted = join(root, "big-parts");
    const p1 = await run(["convert", src, parted, ...args, "--part", "1/2"]);
    const p0 = await run(["convert", src, parted, ...args, "--part", "0/2"]);
    expect(p0.code, p0.stderr).toBe(0);
    expect(p1.code, p1.stderr).toBe(0);
    expect(p0.stderr).toContain(`(part 0/2)`);
    expect(await files(parted)).toEqual(reference);

    const killed = join(root, "big-killed");
    const stored = await killAfter(["convert", src, killed, ...args], join(killed, "s0"), 5, (name) =>
      name.endsWith(".shard"),
    );
    expect(stored).toBeLessThan(total);
    const r = await run(["convert", src, killed, ...args]);
    expect(r.code, r.stderr).toBe(0);
    const present = Number(/(\d+) already present/.exec(r.stderr)?.[1]);
    expect(present).toBeGreaterThanOrEqual(4);
    expect(r.stderr).toContain(`${total - present} written, ${present} already present, ${total} of ${total}`);
    expect(await files(killed)).toEqual(reference);
    // A truncated shard file (not what the store leaves, but a damaged copy) is written again.
    const name = Object.keys(reference).find((k) => k.endsWith(".shard"))!;
    const bytes = await readFile(join(killed, name));
    await writeFile(join(killed, name), bytes.subarray(0, bytes.length - 1));
    const again = await run(["convert", src, killed, ...args]);
    expect(again.stderr).toContain(`1 written, ${total - 1} already present`);
    expect(await files(killed)).toEqual(reference);
  }, 120_000);

  it("bad input: unsupported data types (exit 1), flags that do not apply (exit 2), nothing written", async () => {
    const dst = join(root, "bad-pre");
    const f = await run(["convert", join(root, "f64.zarr"), dst, "--to", "precomputed"]);
    expect(f.code).toBe(1);
    expect(f.stderr).toMatch(/UnsupportedError: .*f64\.zarr: precomputed volumes hold .* not float64/);
    for (const [flags, message] of [
      [["--codec", "zstd"], /--codec "zstd" with --to precomputed: expected gzip or none/],
      [["--shard-shape", "4,4"], /--shard-shape does not apply to --to precomputed/],
      [["--to", "n5"], /--to "n5": expected zarr or precomputed/],
    ] as const) {
      const r = await run(["convert", join(root, "f64.zarr"), dst, "--to", "precomputed", ...flags]);
      expect(r.code, flags.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    const g = await run(["convert", join(root, "gen.zarr"), dst, "--to", "precomputed"]);
    expect(g.code).toBe(2);
    expect(g.stderr).toMatch(/is a group: --to precomputed converts one array/);
    const p = await run(["convert", join(root, "zyx.zarr"), `precomputed://${dst}`]);
    expect(p.code).toBe(2);
    expect(p.stderr).toMatch(/needs --to precomputed/);
    expect(existsSync(dst)).toBe(false);
  });
});
