// The conversion as a library: `convert` and its parts called directly, no command line.
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArray, createGroup, FileSystemStore, MemoryStore, openArray, openGroup, type ZarrArray } from "zarrkit";
import {
  type ConvertProgress,
  ConvertOptionError,
  convert,
  downsample,
  multiscaleAttributes,
  omeAxes,
  writePrecomputed,
  zarrSource,
} from "../src/index.js";

const V2 = fileURLToPath(new URL("../../../../shared/fixtures/zarr-python-v2.zarr", import.meta.url));
const EXPECTED = fileURLToPath(new URL("../../../../shared/fixtures/zarr-python-v2.expected.json", import.meta.url));
const haveFixtures = existsSync(V2) && existsSync(EXPECTED);
if (!haveFixtures) console.warn(`[zarrkit] skipping the zarr-python v2 conversions: ${V2} is absent`);

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "zarrkit-convert-lib-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The inner codecs of a sharded v3 array. */
function innerCodecs(array: ZarrArray): { name: string; configuration?: Record<string, unknown> }[] {
  const metadata = array.metadata;
  if (metadata.zarr_format !== 3) throw new Error("expected a v3 array");
  const sharding = metadata.codecs.find((c) => c.name === "sharding_indexed")!;
  return (sharding.configuration as { codecs: { name: string; configuration?: Record<string, unknown> }[] }).codecs;
}

/** A 2-D uint16 array in memory: 12 x 10 in chunks of 4 x 5, values i. */
async function memoryArray(): Promise<ZarrArray> {
  const array = await createArray(new MemoryStore(), "", {
    shape: [12, 10],
    dataType: "uint16",
    chunkShape: [4, 5],
    dimensionNames: ["y", "x"],
  });
  await array.set(
    null,
    Uint16Array.from({ length: 120 }, (_, i) => i),
  );
  return array;
}

describe.skipIf(!haveFixtures)("convert: zarr-python v2 arrays keep their compression", () => {
  const expected = haveFixtures
    ? (JSON.parse(readFileSync(EXPECTED, "utf8")) as { arrays: Record<string, { data: number[] }> }).arrays
    : {};

  it("blosc lz4 with byte shuffle stays blosc lz4 with byte shuffle, values equal", async () => {
    const dst = join(root, "blosc.zarr");
    const result = await convert(join(V2, "3d.chunked.mixed.i2.C"), dst, { shardShape: [3, 3, 3] });
    expect(result).toMatchObject({ to: "zarr", arrays: 1, groups: 0, aborted: false });
    expect(result.shards).toEqual({ total: 1, written: 1, present: 0, empty: 0 });
    const array = await openArray(new FileSystemStore(dst), "");
    expect(innerCodecs(array)).toEqual([
      { name: "bytes", configuration: { endian: "little" } },
      { name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 2, blocksize: 0 } },
    ]);
    expect(Array.from((await array.get()).data as Int16Array)).toEqual(expected["3d.chunked.mixed.i2.C"]!.data);
  });

  it("zstd stays zstd at its level; a second run finds every shard present", async () => {
    const dst = join(root, "zstd.zarr");
    await convert(join(V2, "1d.contiguous.zstd.i2"), dst);
    const array = await openArray(new FileSystemStore(dst), "");
    expect(innerCodecs(array).map((c) => c.name)).toEqual(["bytes", "zstd"]);
    expect(innerCodecs(array)[1]!.configuration).toMatchObject({ level: 0 });
    expect(Array.from((await array.get()).data as Int16Array)).toEqual(expected["1d.contiguous.zstd.i2"]!.data);
    const again = await convert(join(V2, "1d.contiguous.zstd.i2"), dst);
    expect(again.shards).toEqual({ total: 1, written: 0, present: 1, empty: 0 });
  });
});

describe("convert: bad options", () => {
  const cases: [Parameters<typeof convert>[2], string, RegExp][] = [
    [{ shardShape: [6, 10] }, "shardShape", /shardShape 6,10 is not a multiple of the chunk shape 4,5/],
    [{ chunkShape: [4] }, "chunkShape", /chunkShape "4": expected 2 positive integers/],
    [{ jobs: 0 }, "jobs", /jobs 0: expected a positive integer/],
    [{ shardShape: [8, 10], shardBytes: 1000 }, "shardShape", /shardShape and shardBytes exclude each other/],
    [{ to: "precomputed", codecs: [{ name: "zstd" }] }, "codecs", /codecs with to precomputed: expected gzip or none/],
    [{ part: { index: 2, count: 2 } }, "part", /part 2 of 2: the index must be below the count/],
    [{ labels: true }, "labels", /labels applies to multiscale/],
    [{ multiscale: 30 }, "multiscale", /multiscale 30: an element of the last level would cover/],
    [{ to: "tiff" as "zarr" }, "to", /to "tiff": expected zarr or precomputed/],
  ];
  for (const [options, option, message] of cases) {
    it(`${JSON.stringify(options)}: a ConvertOptionError naming ${option}, nothing written`, async () => {
      const dst = new MemoryStore();
      const error = await convert(await memoryArray(), dst, options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConvertOptionError);
      expect((error as ConvertOptionError).option).toBe(option);
      expect((error as ConvertOptionError).field).toBe(option);
      expect((error as ConvertOptionError).message).toMatch(message);
      expect((error as ConvertOptionError).messageNaming((o) => `<${o}>`)).toContain(`<${option}>`);
      expect(await dst.get("zarr.json")).toBeUndefined();
    });
  }

  it("a group source refuses shapes, which are per array", async () => {
    const group = await openGroup(await groupOf(await memoryArray()), "");
    const error = await convert(group, new MemoryStore(), { chunkShape: [2, 2] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConvertOptionError);
    expect((error as ConvertOptionError).option).toBe("chunkShape");
  });
});

/** A store holding a group with `array`'s values as its child "a". */
async function groupOf(array: ZarrArray): Promise<MemoryStore> {
  const store = new MemoryStore();
  await createGroup(store, "");
  const child = await createArray(store, "a", { shape: array.shape, dataType: "uint16", chunkShape: [4, 5] });
  await child.set(null, await array.get());
  return store;
}

describe("convert: multiscale, progress and abort", () => {
  it("an OME-Zarr pyramid: attributes from multiscaleAttributes, level 1 = downsample(level 0)", async () => {
    const source = await memoryArray();
    const dst = new MemoryStore();
    const events: ConvertProgress[] = [];
    const result = await convert(source, dst, {
      multiscale: 1,
      shardShape: [8, 10],
      ome: { name: "ramp" },
      onProgress: (e) => events.push(e),
    });
    expect(result).toMatchObject({ arrays: 2, groups: 1, levels: 1 });
    const axes = omeAxes(2, ["y", "x"], "ramp");
    expect((await openGroup(dst, "")).attributes).toEqual(multiscaleAttributes("ramp", axes, 1, "mean"));
    const level1 = await (await openArray(dst, "1")).get();
    expect(level1).toEqual(downsample(await source.get(), "uint16", 1));
    expect(events[0]).toEqual({ kind: "start", total: result.shards.total, notes: [] });
    const shardEvents = events.filter((e) => e.kind === "shard");
    expect(shardEvents).toHaveLength(result.shards.total);
    expect(shardEvents.at(-1)).toMatchObject({ done: result.shards.total, total: result.shards.total });
  });

  it("an abort finishes the shards in flight and stops; the next call resumes", async () => {
    const source = await memoryArray();
    const dst = new MemoryStore();
    const stop = new AbortController();
    const first = await convert(source, dst, {
      chunkShape: [4, 5],
      shardShape: [4, 5],
      jobs: 1,
      signal: stop.signal,
      onProgress: (e) => {
        if (e.kind === "shard") stop.abort();
      },
    });
    expect(first.aborted).toBe(true);
    expect(first.shards.written).toBe(1);
    const second = await convert(source, dst, { chunkShape: [4, 5], shardShape: [4, 5] });
    expect(second.shards).toEqual({ total: 6, written: 5, present: 1, empty: 0 });
    expect(await (await openArray(dst, "")).get()).toEqual(await source.get());
    await expect(convert(source, new MemoryStore(), { signal: AbortSignal.abort() })).rejects.toThrow();
  });
});

describe("writePrecomputed", () => {
  it("writes the info and every shard file of each scale; a rerun finds them present", async () => {
    const source = zarrSource(await memoryArray(), "ramp");
    const store = new MemoryStore();
    const options = { shardBytes: 2 ** 20, dataEncoding: "raw" as const, labels: false, levels: 1 };
    const first = await writePrecomputed(source, store, options);
    const info = JSON.parse(new TextDecoder().decode(await store.get("info")));
    expect(info.scales.map((s: { key: string; size: number[] }) => [s.key, s.size])).toEqual([
      ["s0", [10, 12, 1]],
      ["s1", [5, 6, 1]],
    ]);
    expect(first.written).toBeGreaterThanOrEqual(2);
    expect(await writePrecomputed(source, store, options)).toEqual({ written: 0, present: first.written });
  });
});
