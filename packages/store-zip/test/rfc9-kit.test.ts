// The cases of the RFC-9 compatibility kit, written by Python's zipfile (and
// Info-ZIP's zip for the multi-part one) from the hierarchy zarr-python 3.1
// wrote (the shared fixture), read back value for value or refused with
// typed errors naming the archive and the entry.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import "@zarrkit/codecs";
import { openArray, openGroup, openStore, StoreError, UnsupportedError } from "@zarrkit/core";
import "@zarrkit/crc32c";
import "@zarrkit/sharding";
import "@zarrkit/store-fs";
import { fixturePath } from "@zarrkit/test-utils/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZipStore } from "../src/index.js";
import { asExpected, pythonFile, tempDir } from "./helpers.js";

const root = fixturePath("zarr-python-v3.zarr");
const expectedPath = fixturePath("zarr-python-v3.expected.json");
type Expected = { shape: number[]; data_type: string; data: unknown[] };

describe.skipIf(!root || !expectedPath)("RFC-9 kit cases written by Python's zipfile", () => {
  const expected = expectedPath
    ? (JSON.parse(readFileSync(expectedPath, "utf8")).arrays as Record<string, Expected>)
    : {};
  let dir: Awaited<ReturnType<typeof tempDir>>;
  const url = (name: string) => pathToFileURL(join(dir.path, name)).href;

  beforeAll(async () => {
    dir = await tempDir();
    pythonFile("rfc9_kit.py", [root!, dir.path, "0.5"]);
  });
  afterAll(() => dir?.remove());

  const readable = [
    "valid.ozx",
    "no-comment.ozx",
    "unsorted.ozx",
    "deflated.ozx",
    "not-zip64.ozx",
    "named.zip",
    "misleading-sort.ozx",
  ];
  for (const name of readable) {
    it(`reads every array of ${name} value for value`, async () => {
      const store = await openStore(url(name));
      expect(store).toBeInstanceOf(ZipStore);
      for (const [path, want] of Object.entries(expected)) {
        const array = await openArray(store, path);
        const got = await array.get();
        expect(got.shape, path).toEqual(want.shape);
        expect(asExpected(got.data, want.data_type), path).toEqual(want.data);
      }
      const group = await openGroup(store, "");
      expect(await group.childNames()).toContain("my group with spaces");
    });
  }

  it("reports how each case measures against RFC-9's recommended variant, the lying comment as an error", async () => {
    const layout = async (name: string) => ((await openStore(url(name))) as ZipStore).rfc9Layout();
    const valid = await layout("valid.ozx");
    expect(valid).toMatchObject({ recommended: true, stored: true, zip64: true, metadataFirst: true, problems: [] });
    const problems = async (name: string) => (await layout(name)).problems.map((p) => `${p.level}: ${p.message}`);
    expect(await problems("no-comment.ozx")).toEqual(["warning: no RFC-9 archive comment"]);
    expect(await problems("unsorted.ozx")).toEqual(["warning: the zarr.json entries do not come first, breadth first"]);
    expect(await problems("deflated.ozx")).toEqual([expect.stringMatching(/^warning: \d+ entries are compressed/)]);
    expect(await problems("not-zip64.ozx")).toEqual([expect.stringMatching(/^warning: \d+ entries are not ZIP64/)]);
    expect(await problems("named.zip")).toEqual(["warning: the name does not end in .ozx"]);
    expect(await problems("misleading-sort.ozx")).toEqual([
      "error: the comment says jsonFirst, but the zarr.json entries do not come first, breadth first",
    ]);
  });

  it("reports the RFC-9 comment, and none where the archive has none", async () => {
    const valid = (await openStore(url("valid.ozx"))) as ZipStore;
    expect(await valid.ome()).toEqual({ version: "0.5", zipFile: { centralDirectory: { jsonFirst: true } } });
    expect(await ((await openStore(url("no-comment.ozx"))) as ZipStore).ome()).toBe(undefined);
  });

  it("refuses an .ozx whose root is not a Zarr hierarchy, and opens it at the path that is", async () => {
    await expect(openStore(url("root-not-zarr.ozx"))).rejects.toThrow(StoreError);
    await expect(openStore(url("root-not-zarr.ozx"))).rejects.toThrow(
      /"root-not-zarr\.ozx": its root is not a Zarr hierarchy/,
    );
    const store = await openStore(`${url("root-not-zarr.ozx")}|zip:somedirectory`);
    const array = await openArray(store, "1d.contiguous.i4");
    expect(asExpected((await array.get()).data, "int32")).toEqual(expected["1d.contiguous.i4"]!.data);
  });

  it("refuses an archive holding an archive, naming both, and opens the inner one through a pipeline", async () => {
    const store = await openStore(url("ozx-in-ozx.ozx"));
    const refused = store.get("zarr.json");
    await expect(refused).rejects.toThrow(StoreError);
    await expect(store.get("zarr.json")).rejects.toThrow(
      /"ozx-in-ozx\.ozx", entry "inner\.ozx": a zip archive holds another archive/,
    );
    const inner = await openStore(`${url("ozx-in-ozx.ozx")}|zip:inner.ozx|zip:`);
    expect(JSON.parse(new TextDecoder().decode(await inner.get("zarr.json")))).toMatchObject({
      attributes: { ome: { version: "0.5" } },
    });
  });

  it("refuses a multi-part archive with an UnsupportedError naming it", async () => {
    const opened = openStore(url("multipart/multipart.zip"));
    await expect(opened).rejects.toThrow(UnsupportedError);
    await expect(openStore(url("multipart/multipart.zip"))).rejects.toThrow(/"multipart\.zip": multi-part/);
  });
});
