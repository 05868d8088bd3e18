import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { openPrecomputedImage } from "@zarrkit/neuroglancer";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as zk from "zarrkit";
import { SAMPLES } from "../../server/samples.js";
import { viridisLut } from "../../src/colormap.js";
import {
  CORRUPT_KEY,
  type Demo,
  newPage,
  screenshotDir,
  settled,
  skipReason,
  sourceUrl,
  startDemo,
} from "./harness.js";
import { decodePng, type Pixels } from "./png.js";

const skip = skipReason();
const LO = 1000;
const HI = 40000;
const Z = 40;
const gray = (v: number) => Math.round((255 * (Math.min(HI, Math.max(LO, v)) - LO)) / (HI - LO));

async function viewPixels(page: Page, name: string): Promise<Pixels> {
  // On whole CSS pixels, or the canvas would be resampled.
  const box = (await page.locator("#view").boundingBox())!;
  expect([box.x % 1, box.y % 1]).toEqual([0, 0]);
  const png = await page.locator("#view").screenshot();
  await writeFile(join(screenshotDir, `${name}.png`), png);
  return decodePng(png);
}

/** The pixels of the top-left rows x cols of the view that differ from gray(expected). */
function mismatches(pixels: Pixels, rows: number, cols: number, expected: (r: number, c: number) => number): string[] {
  const wrong: string[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const at = (r * pixels.width + c) * 4;
      const want = gray(expected(r, c));
      const got = [...pixels.rgba.subarray(at, at + 3)];
      if (got.some((v) => v !== want) && wrong.length < 5) wrong.push(`(${r}, ${c}): [${got}] instead of ${want}`);
    }
  }
  return wrong;
}

const pixelAt = (pixels: Pixels, r: number, c: number) => [
  ...pixels.rgba.subarray((r * pixels.width + c) * 4, (r * pixels.width + c) * 4 + 3),
];

describe.skipIf(skip)("the demo in Chromium", () => {
  let demo: Demo;
  /** The slice z = Z of the volume (256 x 256, row-major), read in Node with zarrkit. */
  let slice: Uint16Array;

  beforeAll(async () => {
    demo = await startDemo();
    const store = await zk.openStore(pathToFileURL(join(demo.dataDir, "volume.zarr")).href);
    const array = await zk.openArray(store, "sharded");
    slice = (await array.get([Z, null, null])).data as Uint16Array;
  });
  afterAll(async () => {
    await demo?.close();
  });

  it("shows the start page with every sample", async () => {
    const { context, page } = await newPage(demo);
    const from = demo.requests.length;
    await page.goto(`${demo.base}/`);
    await page.waitForSelector("#samples a");
    // The codecs' wasm and the codec worker load when a view first needs them, not with the page.
    expect(demo.requests.slice(from).filter((r) => /wasm|codec-worker/.test(r.path))).toEqual([]);
    const names = await page.locator("#samples a").allTextContents();
    expect(names).toEqual(SAMPLES.map((s) => s.name));
    await page.screenshot({ path: join(screenshotDir, "start.png") });
    await context.close();
  });

  for (const source of ["/data/volume.zarr/sharded", "/data/volume.zarr/unsharded", "/data/volume-v2.zarr"]) {
    it(`draws ${source} with one data element per CSS pixel, in the contract's gray`, async () => {
      const { context, page, errors } = await newPage(demo);
      const from = demo.requests.length;
      await page.goto(
        sourceUrl(demo.base, source, { at: String(Z), contrast: `${LO},${HI}`, colormap: "gray", zoom: "1" }),
      );
      expect(await settled(page)).toBe("ready");
      const pixels = await viewPixels(page, source.split("/").slice(2).join("-"));
      expect(mismatches(pixels, 256, 256, (r, c) => slice[r * 256 + c]!)).toEqual([]);
      // Outside the array: black.
      expect(pixelAt(pixels, 300, 300)).toEqual([0, 0, 0]);
      // The 128 KiB zstd chunks were decoded on zarrkit's codec workers (on by default), not on the page:
      // the worker entry Vite emitted for zarrkit was loaded, and the zstd decoder's wasm chunk with it.
      expect(await page.locator('[data-total="Chunks decoded on workers"]').textContent()).toMatch(/^[1-9]\d* of \d+$/);
      const served = demo.requests.slice(from).filter((r) => r.status === 200);
      expect(served.some((r) => /^\/assets\/zstd-decode-wasm-[\w-]+\.js$/.test(r.path))).toBe(true);
      expect(served.some((r) => /^\/assets\/codec-worker-[\w-]+\.js$/.test(r.path))).toBe(true);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it(
    "draws the precomputed copy with x across and y down at z = at, from the sharded scale and the " + "unsharded one",
    async () => {
      const store = await zk.openStore(pathToFileURL(join(demo.dataDir, "precomputed")).href);
      const image = await openPrecomputedImage(store);
      const { data } = await image.read({ min: [0, 0, Z], max: [256, 256, Z + 1] });
      const { context, page } = await newPage(demo);
      await page.goto(
        sourceUrl(demo.base, "precomputed:///data/precomputed", {
          at: String(Z),
          contrast: `${LO},${HI}`,
          colormap: "gray",
          zoom: "1",
        }),
      );
      expect(await settled(page)).toBe("ready");
      const pixels = await viewPixels(page, "precomputed");
      expect(mismatches(pixels, 256, 256, (r, c) => Number(data[r * 256 + c]))).toEqual([]);

      // At zoom 0.5: scale s1, unsharded (one file per chunk), one element per CSS pixel.
      const half = (await image.read({ min: [0, 0, Z / 2], max: [128, 128, Z / 2 + 1] }, { scale: 1 })).data;
      demo.requests.length = 0;
      await page.goto(
        sourceUrl(demo.base, "precomputed:///data/precomputed", {
          at: String(Z),
          contrast: `${LO},${HI}`,
          colormap: "gray",
          zoom: "0.5",
        }),
      );
      expect(await settled(page)).toBe("ready");
      expect(
        mismatches(await viewPixels(page, "precomputed-s1"), 128, 128, (r, c) => Number(half[r * 128 + c])),
      ).toEqual([]);
      const chunkFiles = demo.requests
        .filter((r) => /\/precomputed\/s\d/.test(r.path))
        .map((r) => r.path.split("/precomputed/")[1]);
      expect(chunkFiles.sort()).toEqual([
        "s1/0-64_0-64_0-64",
        "s1/0-64_64-128_0-64",
        "s1/64-128_0-64_0-64",
        "s1/64-128_64-128_0-64",
      ]);
      await context.close();
    },
  );

  it("shows an OME-Zarr pyramid's level 0 at zoom 1 and level 1 at zoom 0.5, one element per CSS pixel", async () => {
    const store = await zk.openStore(pathToFileURL(join(demo.dataDir, "pyramid.ome.zarr")).href);
    const level1 = (await (await zk.openArray(store, "1")).get([Z / 2, null, null])).data as Uint16Array;
    const { context, page } = await newPage(demo);
    await page.goto(
      sourceUrl(demo.base, "/data/pyramid.ome.zarr", {
        at: String(Z),
        contrast: `${LO},${HI}`,
        colormap: "gray",
        zoom: "1",
      }),
    );
    expect(await settled(page)).toBe("ready");
    expect(mismatches(await viewPixels(page, "pyramid-level0"), 256, 256, (r, c) => slice[r * 256 + c]!)).toEqual([]);
    demo.requests.length = 0;
    await page.goto(
      sourceUrl(demo.base, "/data/pyramid.ome.zarr", {
        at: String(Z),
        contrast: `${LO},${HI}`,
        colormap: "gray",
        zoom: "0.5",
      }),
    );
    expect(await settled(page)).toBe("ready");
    const pixels = await viewPixels(page, "pyramid-level1");
    expect(mismatches(pixels, 128, 128, (r, c) => level1[r * 128 + c]!)).toEqual([]);
    expect(pixelAt(pixels, 130, 130)).toEqual([0, 0, 0]);
    // Only level 1's shard was read.
    const shards = new Set(demo.requests.filter((r) => /\/c\//.test(r.path)).map((r) => r.path));
    expect([...shards]).toEqual(["/data/pyramid.ome.zarr/1/c/0/0/0"]);
    await context.close();
  });

  it("draws a rectilinear array pixel for pixel and its grid's real boundaries in the inspector", async () => {
    const volume = await zk.openStore(pathToFileURL(join(demo.dataDir, "volume.zarr")).href);
    const plane = (await (await zk.openArray(volume, "sharded")).get([64, null, null])).data as Uint16Array;
    const { context, page } = await newPage(demo);
    await page.goto(
      sourceUrl(demo.base, "/data/rectilinear.zarr", { contrast: `${LO},${HI}`, colormap: "gray", zoom: "1" }),
    );
    expect(await settled(page)).toBe("ready");
    expect(mismatches(await viewPixels(page, "rectilinear"), 256, 256, (r, c) => plane[r * 256 + c]!)).toEqual([]);
    expect(await page.locator("#layout").textContent()).toMatch(/chunk grid: rectilinear; chunks \[32,16\]/);
    // The grid canvas (256 elements in 160 pixels): a dark line at row 32 (pixel 20), none at row 64 (pixel 40),
    // seen at column 160 (pixel 100), between the column boundaries 128 and 256.
    const grid = decodePng(await page.locator("#chunk-grid").screenshot());
    expect(pixelAt(grid, 20, 100)).toEqual([51, 51, 51]);
    expect(pixelAt(grid, 40, 100)).toEqual([238, 238, 238]);
    await context.close();
  });

  it("draws the uint64 labels in colours and lists the group's tree", async () => {
    const { context, page } = await newPage(demo);
    await page.goto(sourceUrl(demo.base, "/data/volume.zarr/labels", { at: "32" }));
    expect(await settled(page)).toBe("ready");
    const pixels = await viewPixels(page, "labels");
    // Sphere 2 (centre y 170, x 90 in the volume) is at (85, 45) at half resolution: coloured; a corner is background.
    expect(pixelAt(pixels, 85, 45)).not.toEqual([0, 0, 0]);
    expect(pixelAt(pixels, 127, 0)).toEqual([0, 0, 0]);
    demo.requests.length = 0;
    await page.goto(sourceUrl(demo.base, "/data/volume.zarr"));
    await page.waitForSelector("#tree a");
    expect(await page.locator("#tree a").allTextContents()).toEqual(["labels", "sharded", "unsharded"]);
    // The whole tree from the group's consolidated metadata: one request.
    expect(demo.requests.filter((r) => r.path.startsWith("/data/volume.zarr")).map((r) => r.path)).toEqual([
      "/data/volume.zarr/zarr.json",
    ]);
    expect(await page.locator("#group-title").textContent()).toMatch(/consolidated metadata/);
    await page.screenshot({ path: join(screenshotDir, "group.png") });
    await context.close();
  });

  it(
    "reads a view's shards with the index plus one coalesced data read each, and no index again after moving " +
      "a slider",
    async () => {
      const { context, page } = await newPage(demo);
      const shardRequests = () => demo.requests.filter((r) => /\/volume\.zarr\/sharded\/c\//.test(r.path));
      const isIndex = (r: { range?: string }) => r.range?.startsWith("bytes=-") ?? false;
      demo.requests.length = 0;
      await page.goto(
        sourceUrl(demo.base, "/data/volume.zarr/sharded", { at: "10", contrast: `${LO},${HI}`, zoom: "1" }),
      );
      expect(await settled(page, "10")).toBe("ready");
      // 256 x 256 at z = 10: four shards of 64 x 128 x 128, each read as index + one range.
      const first = shardRequests();
      const keys = [...new Set(first.map((r) => r.path))].sort();
      expect(keys.map((k) => k.split("/sharded/")[1])).toEqual(["c/0/0/0", "c/0/0/1", "c/0/1/0", "c/0/1/1"]);
      for (const key of keys) {
        const forKey = first.filter((r) => r.path === key);
        expect(forKey.filter(isIndex), key).toHaveLength(1);
        expect(
          forKey.filter((r) => !isIndex(r)),
          key,
        ).toHaveLength(1);
        expect(forKey.every((r) => r.status === 206)).toBe(true);
      }
      expect(await page.locator("#layout").textContent()).toContain(
        "codecs: sharding_indexed(bytes → zstd; index: bytes → crc32c)",
      );

      // z = 20: other inner chunks of the same shards; the indexes are cached.
      demo.requests.length = 0;
      await page.locator("#controls input[type=range]").fill("20");
      expect(await settled(page, "20")).toBe("ready");
      const moved = shardRequests();
      expect(moved.filter(isIndex)).toEqual([]);
      expect(moved).toHaveLength(4);
      demo.requests.length = 0;
      await page.locator("#controls input[type=range]").fill("10");
      expect(await settled(page, "10")).toBe("ready");
      expect(shardRequests().filter(isIndex)).toEqual([]);
      expect(new URL(page.url()).searchParams.get("at")).toBe("10");
      await context.close();
    },
  );

  it("pans by dragging, zooms with the wheel, and colours with viridis", async () => {
    const { context, page } = await newPage(demo);
    await page.goto(
      sourceUrl(demo.base, "/data/volume.zarr/sharded", {
        at: String(Z),
        contrast: `${LO},${HI}`,
        colormap: "viridis",
        zoom: "1",
      }),
    );
    expect(await settled(page)).toBe("ready");
    const lut = viridisLut();
    const viridis = (v: number) => [...lut.subarray(gray(v) * 4, gray(v) * 4 + 3)];
    let pixels = await viewPixels(page, "viridis");
    expect(pixelAt(pixels, 100, 150)).toEqual(viridis(slice[100 * 256 + 150]!));

    const box = (await page.locator("#view").boundingBox())!;
    await page.mouse.move(box.x + 200, box.y + 200);
    await page.mouse.down();
    await page.mouse.move(box.x + 150, box.y + 170, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => new URL(page.url()).searchParams.get("pan")).toBe("30,50");
    expect(await settled(page)).toBe("ready");
    pixels = await viewPixels(page, "panned");
    // The view's top-left is now element (30, 50).
    expect(pixelAt(pixels, 0, 0)).toEqual(viridis(slice[30 * 256 + 50]!));
    expect(pixelAt(pixels, 70, 100)).toEqual(viridis(slice[100 * 256 + 150]!));

    // Zooming in keeps the element under the pointer where it is.
    await page.mouse.move(box.x + 100, box.y + 70);
    await page.mouse.wheel(0, -500 * Math.log(2));
    await expect.poll(() => new URL(page.url()).searchParams.get("zoom")).toBe("2");
    expect(new URL(page.url()).searchParams.get("pan")).toBe("65,100");
    await context.close();
  });

  it("fetches only the inner chunks the view shows", async () => {
    // Panned to (200, 200): rows and columns 200..255 at z = 40, inside inner chunk (2, 3, 3) of shard c/0/1/1.
    const store = await zk.openStore(pathToFileURL(join(demo.dataDir, "volume.zarr")).href);
    const shard = await zk.describeShard(await zk.openArray(store, "sharded"), [0, 1, 1]);
    const chunk = shard.chunks.find((c) => c.coords.join() === "2,1,1")!;
    expect("nbytes" in chunk).toBe(true);
    const { context, page } = await newPage(demo);
    demo.requests.length = 0;
    await page.goto(
      sourceUrl(demo.base, "/data/volume.zarr/sharded", {
        at: String(Z),
        contrast: `${LO},${HI}`,
        zoom: "1",
        pan: "200,200",
      }),
    );
    expect(await settled(page)).toBe("ready");
    const reads = demo.requests.filter((r) => /\/sharded\/c\//.test(r.path));
    expect(reads.map((r) => r.path.split("/sharded/")[1])).toEqual(["c/0/1/1", "c/0/1/1"]);
    const data = reads.find((r) => !r.range!.startsWith("bytes=-"))!;
    if ("nbytes" in chunk) expect(data.range).toBe(`bytes=${chunk.offset}-${chunk.offset + chunk.nbytes - 1}`);
    const pixels = await viewPixels(page, "one-inner-chunk");
    expect(mismatches(pixels, 56, 56, (r, c) => slice[(r + 200) * 256 + c + 200]!)).toEqual([]);
    await context.close();
  });

  it("aborts the reads of a slice no longer shown when the slider moves on", async () => {
    const { context, page } = await newPage(demo);
    const aborted: string[] = [];
    page.on("requestfailed", (request) => {
      if (request.failure()?.errorText === "net::ERR_ABORTED") aborted.push(new URL(request.url()).pathname);
    });
    await page.goto(
      sourceUrl(demo.base, "/data/volume.zarr/sharded", { at: "100", contrast: `${LO},${HI}`, zoom: "1" }),
    );
    expect(await settled(page, "100")).toBe("ready");
    // Slow data reads (not the indexes): the slider moves on before they arrive.
    await page.route(
      (url) => url.pathname.includes("/sharded/c/0/"),
      async (route) => {
        await new Promise((done) => setTimeout(done, 1000));
        await route.continue().catch((error: Error) => expect(error.message).toMatch(/already handled/));
      },
    );
    await page.locator("#controls input[type=range]").fill("10");
    await expect.poll(() => page.locator("#view").getAttribute("data-at")).toBe("10");
    await page.locator("#controls input[type=range]").fill("100");
    expect(await settled(page, "100")).toBe("ready");
    await expect.poll(() => aborted.length).toBeGreaterThan(0);
    expect(aborted.every((path) => path.includes("/sharded/c/0/"))).toBe(true);
    await context.close();
  });

  it("names a corrupt shard in an alert and draws the others", async () => {
    const { context, page } = await newPage(demo);
    await page.goto(sourceUrl(demo.base, "/data/corrupt.zarr", { at: String(Z), contrast: `${LO},${HI}`, zoom: "1" }));
    expect(await settled(page)).toBe("error");
    const alert = page.getByRole("alert");
    await expect.poll(() => alert.count()).toBe(1);
    const text = await alert.textContent();
    expect(text).toContain(CORRUPT_KEY);
    expect(text).toMatch(/checksum/i);
    const pixels = await viewPixels(page, "corrupt");
    // The shard below the damaged one (rows 128.., columns 0..127) is drawn.
    expect(
      mismatches(
        { ...pixels, rgba: pixels.rgba.subarray(128 * pixels.width * 4) },
        128,
        128,
        (r, c) => slice[(r + 128) * 256 + c]!,
      ),
    ).toEqual([]);
    expect(pixelAt(pixels, 10, 10)).toEqual([0, 0, 0]);
    await context.close();
  });

  it("says what is wrong with a missing array, a CORS refusal and a source that is not a URL", async () => {
    const { context, page } = await newPage(demo);
    await page.goto(sourceUrl(demo.base, "/data/nothing.zarr"));
    expect(await settled(page)).toBe("error");
    expect(await page.getByRole("alert").textContent()).toMatch(/Not found \(key zarr\.json\)/);
    await page.goto(sourceUrl(demo.base, "ftp:/nowhere"));
    expect(await settled(page)).toBe("error");
    expect(await page.getByRole("alert").textContent()).toMatch(/Cannot open ftp:\/\/ URLs here/);
    // Another origin whose answers carry no CORS headers: the browser refuses them.
    const foreign = createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end('{"zarr_format": 3, "node_type": "group", "attributes": {}}');
    });
    await new Promise<void>((done) => foreign.listen(0, "127.0.0.1", done));
    try {
      const port = (foreign.address() as AddressInfo).port;
      await page.goto(sourceUrl(demo.base, `http://127.0.0.1:${port}/a.zarr`));
      expect(await settled(page)).toBe("error");
      expect(await page.getByRole("alert").textContent()).toMatch(/refused its answer \(CORS\) \(key zarr\.json\)/);
    } finally {
      foreign.close();
    }
    await page.goto(sourceUrl(demo.base, "nowhere"));
    expect(await settled(page)).toBe("error");
    expect(await page.getByRole("alert").textContent()).toMatch(/"nowhere" is not a URL/);
    await context.close();
  });
});
