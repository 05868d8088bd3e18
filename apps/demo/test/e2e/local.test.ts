// Archives and folders opened from this computer (dropped, picked) and remote
// .ozx archives by URL: the same pixels as the array read in Node, read lazily.
import { execFileSync } from "node:child_process";
import { copyFile, mkdir, readdir, stat, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as zk from "zarrkit";
import { type Demo, newPage, screenshotDir, settled, skipReason, sourceUrl, startDemo } from "./harness.js";
import { decodePng } from "./png.js";

const skip = skipReason();
const [LO, HI, Z] = [1000, 40000, 40];
const gray = (v: number) => Math.round((255 * (Math.min(HI, Math.max(LO, v)) - LO)) / (HI - LO));
const VIEW = { at: String(Z), contrast: `${LO},${HI}`, colormap: "gray", zoom: "1" };

// Python's zipfile writes the archive (STORED, zarr.json first, then the rest sorted): not our own writer.
const PYTHON_ZIP = `
import os, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
names = sorted(os.path.relpath(os.path.join(d, f), src) for d, _, fs in os.walk(src) for f in fs)
names.sort(key=lambda n: (os.path.basename(n) != "zarr.json", n.count("/"), n))
with zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED) as z:
    for n in names:
        z.write(os.path.join(src, n), n)
`;

/** Counts the page's reads of Blobs (so of dropped or picked files): slices taken, and bytes read by any means. */
function countBlobSlices(): void {
  const counter = { slices: 0, bytes: 0 };
  (window as unknown as { blobReads: typeof counter }).blobReads = counter;
  const proto = Blob.prototype;
  const { slice, arrayBuffer, text, stream } = proto;
  proto.slice = function (this: Blob, start?: number, end?: number, type?: string) {
    counter.slices++;
    return slice.call(this, start, end, type);
  };
  proto.arrayBuffer = function (this: Blob) {
    counter.bytes += this.size;
    return arrayBuffer.call(this);
  };
  proto.text = function (this: Blob) {
    counter.bytes += this.size;
    return text.call(this);
  };
  proto.stream = function (this: Blob) {
    counter.bytes += this.size;
    return stream.call(this);
  };
}

type BlobReads = { slices: number; bytes: number };
const blobReads = (page: Page) => page.evaluate(() => (window as unknown as { blobReads: BlobReads }).blobReads);

describe.skipIf(skip)("local archives and folders in Chromium", () => {
  let demo: Demo;
  let slice: Uint16Array;
  let archive: string;
  let archiveBytes: number;
  let badDir: string;

  beforeAll(async () => {
    demo = await startDemo();
    const volume = join(demo.dataDir, "volume.zarr");
    const store = await zk.openStore(pathToFileURL(volume).href);
    slice = (await (await zk.openArray(store, "sharded")).get([Z, null, null])).data as Uint16Array;
    // The whole group (three arrays): a view of one array reads a small part of it.
    archive = join(demo.dataDir, "volume.ozx");
    execFileSync("/usr/bin/python3", ["-c", PYTHON_ZIP, volume, archive]);
    archiveBytes = (await stat(archive)).size;
    // The OME-Zarr pyramid as RFC-9's single file, by zarrkit's writer.
    const pyramid = await zk.openStore(pathToFileURL(join(demo.dataDir, "pyramid.ome.zarr")).href);
    const pyramidZip = await zk.zipBlob(pyramid, { ome: true });
    await writeFile(join(demo.dataDir, "pyramid.ozx"), new Uint8Array(await pyramidZip.arrayBuffer()));
    badDir = join(demo.dataDir, "bad");
    await mkdir(badDir);
    await writeFile(join(badDir, "not-a-zip.ozx"), "just some text, no zip records in here\n".repeat(10));
    execFileSync("/usr/bin/python3", [
      "-c",
      "import sys, zipfile; zipfile.ZipFile(sys.argv[1], 'w').writestr('README.txt', 'no zarr.json at the root')",
      join(badDir, "no-root.ozx"),
    ]);
    await copyFile(join(badDir, "no-root.ozx"), join(badDir, "no-root.zip"));
  });
  afterAll(async () => {
    await demo?.close();
  });

  async function expectSlicePixels(page: Page, name: string): Promise<void> {
    const png = await page.locator("#view").screenshot({ path: join(screenshotDir, `${name}.png`) });
    const pixels = decodePng(png);
    const wrong: string[] = [];
    for (let r = 0; r < 256; r++) {
      for (let c = 0; c < 256; c++) {
        const got = pixels.rgba[(r * pixels.width + c) * 4];
        if (got !== gray(slice[r * 256 + c]!) && wrong.length < 5) wrong.push(`(${r}, ${c}): ${got}`);
      }
    }
    expect(wrong).toEqual([]);
  }

  /** Apply the contract's view settings to the page's current (in-page) source. */
  async function withView(page: Page): Promise<void> {
    const url = new URL(page.url());
    for (const [name, value] of Object.entries(VIEW)) url.searchParams.set(name, value);
    // The local file lives in this page: change its URL and reopen without loading a new page.
    await page.evaluate((href) => {
      history.pushState(null, "", href);
      dispatchEvent(new PopStateEvent("popstate"));
    }, url.href);
  }

  /** From the group's tree, open its array "sharded" and apply the contract's view settings. */
  async function openShardedMember(page: Page): Promise<void> {
    await page.locator("#tree a").first().waitFor();
    const members = await page.locator("#tree a").allTextContents();
    expect(members).toEqual(expect.arrayContaining(["sharded", "unsharded", "labels"]));
    await page.locator("#tree a", { hasText: /^sharded$/ }).click();
    expect(await settled(page)).toBe("ready");
  }

  it("shows a dropped .ozx written by Python's zipfile, reads a small part of it, saves it for offline", async () => {
    const { context, page, errors } = await newPage(demo);
    await page.addInitScript(countBlobSlices);
    await page.goto(`${demo.base}/`);
    await page.waitForSelector("#samples a");
    // A File built in the page from the archive's bytes, dropped on the page as a browser drops one.
    await page.evaluate(async (url) => {
      const file = new File([await (await fetch(url)).blob()], "volume.ozx");
      const data = new DataTransfer();
      data.items.add(file);
      const drop = new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true });
      document.querySelector("main")!.dispatchEvent(drop);
    }, `${demo.base}/data/volume.ozx`);
    await openShardedMember(page);
    expect(new URL(page.url()).searchParams.get("source")).toBe("local:volume.ozx/sharded");
    const before = await blobReads(page);
    await withView(page);
    expect(await settled(page, String(Z))).toBe("ready");
    await expectSlicePixels(page, "local-ozx");
    // The view read its part of the archive by slices: four shards' indexes and the inner chunks at z = 40.
    const reads = await blobReads(page);
    expect(reads.slices - before.slices).toBeGreaterThan(0);
    expect(reads.bytes - before.bytes).toBeLessThan(archiveBytes / 4);
    // The inspector shows the shards the view read inside the archive.
    expect(await page.locator("#inspector").textContent()).toMatch(/c\/0\/0\/0/);

    await page.getByRole("button", { name: "Save for offline", exact: true }).click();
    const link = page.locator('#saved a[href*="source=idb%3A%2F%2F"]');
    await link.waitFor({ timeout: 30_000 });
    expect(await page.locator("#save-status").textContent()).toMatch(/^Saved local:volume\.ozx\/sharded/);
    const saved = new URL((await link.getAttribute("href"))!, page.url());
    for (const [name, value] of Object.entries(VIEW)) saved.searchParams.set(name, value);
    await page.goto(saved.href);
    expect(await settled(page)).toBe("ready");
    await expectSlicePixels(page, "local-ozx-saved");
    expect(errors).toEqual([]);

    // After a reload the page no longer has the file: it says so.
    await page.goto(sourceUrl(demo.base, "local:volume.ozx/sharded"));
    expect(await settled(page)).toBe("error");
    const alert = await page.getByRole("alert").textContent();
    expect(alert).toMatch(/volume\.ozx was opened from this computer.*pick it again/);
    await context.close();
  });

  it("shows a picked Zarr folder's group, then one of its arrays, from the folder's files", async () => {
    const { context, page, errors } = await newPage(demo);
    await page.addInitScript(countBlobSlices);
    await page.goto(`${demo.base}/`);
    await page.waitForSelector("#samples a");
    await page.locator("#folder-input").setInputFiles(join(demo.dataDir, "volume.zarr"));
    await openShardedMember(page);
    expect(new URL(page.url()).searchParams.get("source")).toBe("local:volume.zarr/sharded");
    const before = await blobReads(page);
    await withView(page);
    expect(await settled(page, String(Z))).toBe("ready");
    await expectSlicePixels(page, "local-folder");
    const reads = await blobReads(page);
    const shard = await stat(join(demo.dataDir, "volume.zarr", "sharded", "c", "0", "0", "0"));
    // Four shards touched, a fraction of each read.
    expect(reads.bytes - before.bytes).toBeLessThan(4 * shard.size);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows a folder picked through the File System Access API (a real handle, in the origin's storage)", async () => {
    const { context, page, errors } = await newPage(demo);
    await page.goto(`${demo.base}/`);
    await page.waitForSelector("#samples a");
    const root = join(demo.dataDir, "volume.zarr");
    const keys = (await readdir(root, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join("/"));
    // The sample folder copied into the origin private file system; the picker answers with its handle.
    await page.evaluate(
      async ({ base, keys }) => {
        const top = await (await navigator.storage.getDirectory()).getDirectoryHandle("volume.zarr", { create: true });
        for (const key of keys) {
          let dir = top;
          const segments = key.split("/");
          for (const segment of segments.slice(0, -1)) dir = await dir.getDirectoryHandle(segment, { create: true });
          const writable = await (await dir.getFileHandle(segments.at(-1)!, { create: true })).createWritable();
          await writable.write(await (await fetch(`${base}/data/volume.zarr/${key}`)).blob());
          await writable.close();
        }
        (window as unknown as { showDirectoryPicker: () => Promise<unknown> }).showDirectoryPicker = async () => top;
      },
      { base: demo.base, keys },
    );
    await page.getByRole("button", { name: "Open folder…" }).click();
    await openShardedMember(page);
    expect(new URL(page.url()).searchParams.get("source")).toBe("local:volume.zarr/sharded");
    await withView(page);
    expect(await settled(page, String(Z))).toBe("ready");
    await expectSlicePixels(page, "local-folder-handle");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("opens a remote .ozx by its URL and an array inside it (|zip:path), by ranged requests only", async () => {
    const { context, page, errors } = await newPage(demo);
    await page.goto(sourceUrl(demo.base, "/data/volume.ozx"));
    await openShardedMember(page);
    expect(new URL(page.url()).searchParams.get("source")).toBe("/data/volume.ozx|zip:sharded");
    const from = demo.requests.length;
    await page.goto(sourceUrl(demo.base, "/data/volume.ozx|zip:sharded", VIEW));
    expect(await settled(page)).toBe("ready");
    await expectSlicePixels(page, "remote-ozx");
    const archiveRequests = demo.requests.slice(from).filter((r) => r.path === "/data/volume.ozx");
    expect(archiveRequests.length).toBeGreaterThan(0);
    expect(archiveRequests.filter((r) => !r.range)).toEqual([]);
    expect(archiveRequests.reduce((sum, r) => sum + r.bytes, 0)).toBeLessThan(archiveBytes / 4);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows a picked OME-Zarr .ozx as a pyramid, level 0 at zoom 1", async () => {
    const { context, page, errors } = await newPage(demo);
    await page.goto(`${demo.base}/`);
    await page.waitForSelector("#samples a");
    await page.locator("#file-input").setInputFiles(join(demo.dataDir, "pyramid.ozx"));
    expect(await settled(page)).toBe("ready");
    const title = await page.locator("#volume-title").textContent();
    expect(title).toMatch(/^local:pyramid\.ozx — uint16 \[128, 256, 256\].*3 levels$/);
    await withView(page);
    expect(await settled(page, String(Z))).toBe("ready");
    await expectSlicePixels(page, "local-pyramid");
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const [name, message] of [
    ["not-a-zip.ozx", /Corrupt data.*not-a-zip\.ozx/],
    ["no-root.ozx", /no-root\.ozx.*zarr\.json/],
    ["no-root.zip", /Not found \(key zarr\.json\)/],
  ] as const) {
    it(`shows the typed error of a picked ${name}`, async () => {
      const { context, page } = await newPage(demo);
      await page.goto(`${demo.base}/`);
      await page.waitForSelector("#samples a");
      await page.locator("#file-input").setInputFiles(join(badDir, name));
      expect(await settled(page)).toBe("error");
      expect(await page.getByRole("alert").textContent()).toMatch(message);
      await context.close();
    });
  }
});
