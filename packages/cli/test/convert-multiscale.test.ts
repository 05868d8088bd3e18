import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArray, FileSystemStore, openArray, openGroup } from "zarrkit";
import { fileDigests as files, killAfter, run } from "./helpers.js";

let root: string;

/** Deterministic pseudo-random integers in [lo, hi]. */
const noise = (n: number, lo: number, hi: number, seed = 1) =>
  Array.from({ length: n }, (_, i) => lo + ((((i + seed) * 2654435761) >>> 11) % (hi - lo + 1)));

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "zarrkit-multiscale-"));
  // Odd sizes on every axis; negative values, so integer rounding of both signs is exercised.
  const image = await createArray(new FileSystemStore(join(root, "image.zarr")), "", {
    shape: [13, 21, 17],
    dataType: "int16",
    chunkShape: [4, 8, 8],
    attributes: { source: "test" },
  });
  await image.set(null, Int16Array.from(noise(13 * 21 * 17, -1000, 1000)));
  const channels = await createArray(new FileSystemStore(join(root, "czyx.zarr")), "", {
    shape: [2, 9, 10, 7],
    dataType: "float32",
    chunkShape: [1, 4, 4, 4],
    dimensionNames: ["c", "z", "y", "x"],
  });
  await channels.set(
    null,
    Float32Array.from(noise(2 * 9 * 10 * 7, 0, 100000), (v) => v / 7),
  );
  // Labels: few distinct values, so blocks have ties and majorities.
  for (const [name, dataType, values] of [
    ["labels8.zarr", "uint8", Uint8Array.from(noise(19 * 23, 0, 3, 5))],
    ["labels32.zarr", "uint32", Uint32Array.from(noise(19 * 23, 0, 3, 9), (v) => v * 1_000_000_007)],
  ] as const) {
    const labels = await createArray(new FileSystemStore(join(root, name)), "", {
      shape: [19, 23],
      dataType,
      chunkShape: [5, 6],
      dimensionNames: ["y", "x"],
    });
    await labels.set(null, values);
  }
  const big = await createArray(new FileSystemStore(join(root, "big.zarr")), "", {
    shape: [800, 600],
    dataType: "uint16",
    chunkShape: [10, 100],
  });
  await big.set(null, Uint16Array.from(noise(800 * 600, 0, 60000)));
}, 120_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

async function read(path: string, node = ""): Promise<{ shape: number[]; data: number[] }> {
  const array = await openArray(new FileSystemStore(path), node);
  const got = await array.get();
  return { shape: got.shape, data: Array.from(got.data as ArrayLike<number>) };
}

/** The reference: every element of the level from its block of the source, one at a time. */
function reference(
  src: { shape: number[]; data: number[] },
  level: number,
  spatial: boolean[],
  method: "mean" | "mode",
  float: boolean,
): { shape: number[]; data: number[] } {
  const f = spatial.map((s) => (s ? 2 ** level : 1));
  const shape = src.shape.map((n, d) => Math.ceil(n / f[d]!));
  const strides = src.shape.map((_, d) => src.shape.slice(d + 1).reduce((a, b) => a * b, 1));
  const data: number[] = [];
  const index = shape.map(() => 0);
  const total = shape.reduce((a, b) => a * b, 1);
  for (let n = 0; n < total; n++) {
    const block: number[] = [];
    const lo = index.map((i, d) => i * f[d]!);
    const hi = lo.map((s, d) => Math.min(src.shape[d]!, s + f[d]!));
    const at = [...lo];
    for (;;) {
      block.push(src.data[at.reduce((a, p, d) => a + p * strides[d]!, 0)]!);
      let d = at.length - 1;
      for (; d >= 0; d--) {
        if (++at[d]! < hi[d]!) break;
        at[d] = lo[d]!;
      }
      if (d < 0) break;
    }
    if (method === "mean") {
      const mean = block.reduce((a, b) => a + b, 0) / block.length;
      data.push(float ? Math.fround(mean) : Math.sign(mean) * Math.floor(Math.abs(mean) + 0.5));
    } else {
      const counts = new Map<number, number>();
      for (const v of block) counts.set(v, (counts.get(v) ?? 0) + 1);
      const best = Math.max(...counts.values());
      data.push(Math.min(...[...counts].filter(([, c]) => c === best).map(([v]) => v)));
    }
    for (let d = index.length - 1; d >= 0; d--) {
      if (++index[d]! < shape[d]!) break;
      index[d] = 0;
    }
  }
  return { shape, data };
}

async function groupAttributes(path: string): Promise<Record<string, unknown>> {
  const json = JSON.parse(await readFile(join(path, "zarr.json"), "utf8"));
  expect(json.zarr_format).toBe(3);
  expect(json.node_type).toBe("group");
  return json.attributes;
}

/** The multiscales object, checked against the OME-NGFF 0.5 rules field by field. */
function checkOme(
  attributes: Record<string, unknown>,
  levels: number,
  axes: { name: string; type?: string }[],
): Record<string, unknown> {
  const ome = attributes.ome as Record<string, unknown>;
  expect(ome.version).toBe("0.5");
  const multiscales = ome.multiscales as Record<string, unknown>[];
  expect(Array.isArray(multiscales) && multiscales.length).toBe(1);
  const m = multiscales[0]!;
  expect(typeof m.name).toBe("string");
  // Axes: 2 to 5, unique names, 2 or 3 of type space, at most one time, order time < channel/custom < space.
  expect(m.axes).toEqual(axes);
  const list = m.axes as { name: string; type?: string }[];
  expect(list.length).toBeGreaterThanOrEqual(2);
  expect(list.length).toBeLessThanOrEqual(5);
  expect(new Set(list.map((a) => a.name)).size).toBe(list.length);
  const spaces = list.filter((a) => a.type === "space").length;
  expect(spaces === 2 || spaces === 3).toBe(true);
  const order = list.map((a) => ({ time: 0, channel: 1, space: 2 })[a.type as "time"] ?? 1);
  expect([...order].sort()).toEqual(order);
  // Datasets: one per level, paths "0".."N", highest resolution first, exactly one scale transformation of the axes'
  // length.
  const datasets = m.datasets as { path: string; coordinateTransformations: { type: string; scale: number[] }[] }[];
  expect(datasets.map((d) => d.path)).toEqual(Array.from({ length: levels + 1 }, (_, k) => String(k)));
  for (const [k, d] of datasets.entries()) {
    expect(d.coordinateTransformations).toEqual([
      { type: "scale", scale: list.map((a) => (a.type === "space" ? 2 ** k : 1)) },
    ]);
  }
  return m;
}

describe("convert --multiscale", () => {
  it(
    "an int16 [z, y, x] image of odd sizes: OME-Zarr 0.5 metadata, every level the mean of its " + "source block",
    async () => {
      const src = join(root, "image.zarr");
      const dst = join(root, "image-pyramid.zarr");
      const r = await run(["convert", src, dst, "--multiscale", "3", "--shard-shape", "8,16,16", "--progress", "none"]);
      expect(r.code, r.stderr).toBe(0);
      // Level 0: 2 x 2 x 2 shards; 1: [7, 11, 9] -> 1 x 1 x 1; 2: [4, 6, 5]; 3: [2, 3, 3].
      expect(r.stderr).toContain("1 multiscale image of 4 arrays; shards: 11 written, 0 already present, 11 of 11");
      const m = checkOme(await groupAttributes(dst), 3, [
        { name: "z", type: "space" },
        { name: "y", type: "space" },
        { name: "x", type: "space" },
      ]);
      expect(m.type).toBe("mean");
      expect(m.name).toBe("image");
      const source = await read(src);
      const shapes = [
        [13, 21, 17],
        [7, 11, 9],
        [4, 6, 5],
        [2, 3, 3],
      ];
      for (let k = 0; k <= 3; k++) {
        const level = await openArray(new FileSystemStore(dst), String(k));
        expect(level.shape).toEqual(shapes[k]);
        expect(level.dataType).toBe("int16");
        expect(level.dimensionNames, "dimension_names match the axes").toEqual(["z", "y", "x"]);
        expect(level.chunkShape).toEqual([4, 8, 8].map((n, d) => Math.min(n, shapes[k]![d]!)));
        expect(
          level.shardShape!.every(
            (n, d) => n % level.chunkShape[d]! === 0 && n <= Math.max(level.chunkShape[d]!, [8, 16, 16][d]!),
          ),
        ).toBe(true);
        expect(await read(dst, String(k)), `level ${k}`).toEqual(
          reference(source, k, [true, true, true], "mean", false),
        );
      }
      expect((await openArray(new FileSystemStore(dst), "0")).attributes).toEqual({ source: "test" });

      // info and tree show the pyramid.
      const tree = await run(["tree", dst]);
      expect(tree.stdout).toBe(
        [
          "/ (zarr-v3 group)",
          "├── 0 [13, 21, 17] int16 shards [8, 16, 16] of chunks [4, 8, 8]",
          "├── 1 [7, 11, 9] int16 shards [8, 16, 16] of chunks [4, 8, 8]",
          "├── 2 [4, 6, 5] int16 shards [4, 6, 5] of chunks [4, 6, 5]",
          "└── 3 [2, 3, 3] int16 shards [2, 3, 3] of chunks [2, 3, 3]",
          "",
        ].join("\n"),
      );
      const info = JSON.parse((await run(["info", dst, "--json"])).stdout);
      expect(info.node).toBe("group");
      expect(info.children.sort()).toEqual(["0", "1", "2", "3"]);
      expect((info.attributes.ome as { version: string }).version).toBe("0.5");
    },
  );

  it("[c, z, y, x] float32 from dimension names: the channel axis is not reduced, floats stay floats", async () => {
    const src = join(root, "czyx.zarr");
    const dst = join(root, "czyx-pyramid.zarr");
    const r = await run(["convert", src, dst, "--multiscale", "2", "--progress", "none"]);
    expect(r.code, r.stderr).toBe(0);
    checkOme(await groupAttributes(dst), 2, [
      { name: "c", type: "channel" },
      { name: "z", type: "space" },
      { name: "y", type: "space" },
      { name: "x", type: "space" },
    ]);
    const source = await read(src);
    for (let k = 0; k <= 2; k++) {
      const got = await read(dst, String(k));
      const want = reference(source, k, [false, true, true, true], "mean", true);
      expect(got.shape).toEqual(want.shape);
      expect(got.shape[0]).toBe(2);
      for (const [i, v] of want.data.entries()) expect(got.data[i], `level ${k} element ${i}`).toBeCloseTo(v, 2);
    }
  });

  it("--labels: the most frequent label of each block (ties to the smallest), uint8 and uint32", async () => {
    for (const name of ["labels8", "labels32"]) {
      const src = join(root, `${name}.zarr`);
      const dst = join(root, `${name}-pyramid.zarr`);
      const r = await run(["convert", src, dst, "--multiscale", "3", "--labels", "--progress", "none"]);
      expect(r.code, r.stderr).toBe(0);
      const m = checkOme(await groupAttributes(dst), 3, [
        { name: "y", type: "space" },
        { name: "x", type: "space" },
      ]);
      expect(m.type).toBe("mode");
      const source = await read(src);
      for (let k = 0; k <= 3; k++)
        expect(await read(dst, String(k)), `${name} level ${k}`).toEqual(
          reference(source, k, [true, true], "mode", false),
        );
      // Labels are labels, not averages: every value of every level is one of the source's.
      const labels = new Set(source.data);
      expect((await read(dst, "3")).data.every((v) => labels.has(v))).toBe(true);
    }
  });

  it("--part: parts of every level are independent; their union equals a whole run, byte for byte", async () => {
    const src = join(root, "big.zarr");
    const args = ["--multiscale", "2", "--shard-shape", "20,600", "--codec", "zstd:1", "--progress", "none"];
    const whole = join(root, "big-whole.zarr");
    expect((await run(["convert", src, whole, ...args])).code).toBe(0);
    const parted = join(root, "big-parts.zarr");
    // Part 1 first: parts need no order.
    const p1 = await run(["convert", src, parted, ...args, "--part", "1/2"]);
    const p0 = await run(["convert", src, parted, ...args, "--part", "0/2"]);
    expect(p0.code, p0.stderr).toBe(0);
    expect(p1.code, p1.stderr).toBe(0);
    // 40 + 20 + 10 shards: part 0 writes 20 + 10 + 5.
    expect(p0.stderr).toContain("shards: 35 written, 0 already present, 35 of 35 (part 0/2)");
    expect(await files(parted)).toEqual(await files(whole));
  }, 120_000);

  it("kill -9 and rerun: the pyramid is complete and identical to an uninterrupted run", async () => {
    const src = join(root, "big.zarr");
    const args = [
      "--multiscale",
      "2",
      "--shard-shape",
      "20,600",
      "--codec",
      "zstd:1",
      "--jobs",
      "1",
      "--progress",
      "none",
    ];
    const whole = join(root, "big-whole.zarr");
    if (!existsSync(whole)) expect((await run(["convert", src, whole, ...args])).code).toBe(0);
    const dst = join(root, "big-killed.zarr");
    const stored = await killAfter(["convert", src, dst, ...args], join(dst, "0", "c"), 10);
    expect(stored, "the convert ended before it could be killed").toBeLessThan(40);
    const r = await run(["convert", src, dst, ...args]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/shards: \d+ written, [1-9]\d* already present, 70 of 70/);
    expect(await files(dst)).toEqual(await files(whole));
  }, 120_000);

  it("bad input: usage errors (exit 2) and nothing written", async () => {
    const cases: [string[], RegExp][] = [
      [["--multiscale", "0"], /--multiscale "0": expected a positive integer/],
      [["--multiscale", "two"], /--multiscale "two"/],
      [["--multiscale", "30"], /--multiscale 30: an element of the last level/],
      [["--labels"], /--labels applies to --multiscale/],
      [["--multiscale", "30", "--to", "precomputed"], /--multiscale 30: a voxel of the last scale would cover/],
    ];
    for (const [flags, message] of cases) {
      const dst = join(root, "bad.zarr");
      const r = await run(["convert", join(root, "image.zarr"), dst, ...flags]);
      expect(r.code, flags.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(existsSync(dst)).toBe(false);
    }
    // Axes that break the OME rules: one dimension, and names with a single space axis.
    const oneD = await createArray(new FileSystemStore(join(root, "line.zarr")), "", {
      shape: [10],
      dataType: "uint8",
      chunkShape: [5],
    });
    await oneD.set(
      null,
      Uint8Array.from({ length: 10 }, (_, i) => i),
    );
    const r1 = await run(["convert", join(root, "line.zarr"), join(root, "bad.zarr"), "--multiscale", "1"]);
    expect(r1.code).toBe(2);
    expect(r1.stderr).toMatch(/OME-Zarr images have 2 to 5 dimensions, the array has 1/);
    await createArray(new FileSystemStore(join(root, "yc.zarr")), "", {
      shape: [4, 3],
      dataType: "uint8",
      chunkShape: [4, 3],
      dimensionNames: ["y", "c"],
    });
    const r2 = await run(["convert", join(root, "yc.zarr"), join(root, "bad.zarr"), "--multiscale", "1"]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/2 or 3 space axes/);
    expect(existsSync(join(root, "bad.zarr"))).toBe(false);
    // The group opens as a group (an OME-Zarr reader's first step).
    expect((await openGroup(new FileSystemStore(join(root, "image-pyramid.zarr")), "")).attributes).toHaveProperty(
      "ome",
    );
  });
});
