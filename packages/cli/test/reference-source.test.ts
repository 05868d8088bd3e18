// The command on virtual references (kerchunk JSON over an HDF5 file written by h5py): info, tree and get read
// through "<url>|reference:<path>" pipelines, convert copies them into shards whose values match h5py's.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openArray, openStore } from "zarrkit";
import { type H5Fixture, h5pyMissing, writeH5References } from "../../store-reference/test/h5-fixture.js";
import { run, type StaticServer, serveFolder } from "./helpers.js";

const missing = h5pyMissing();
if (missing) console.warn(`[cli] skipping the reference source tests: ${missing}`);

describe.skipIf(missing)("reference sources (kerchunk JSON to an h5py file)", () => {
  let fixture: H5Fixture;
  let out: string;
  let server: StaticServer;
  beforeAll(async () => {
    fixture = writeH5References();
    out = await mkdtemp(join(tmpdir(), "zarrkit-cli-reference-"));
    server = await serveFolder(fixture.dir);
  });
  afterAll(async () => {
    await server?.close();
    fixture?.cleanup();
    if (out) await rm(out, { recursive: true, force: true });
  });

  it("info and tree read through a plain path pipeline and a path inside the references", async () => {
    const refs = join(fixture.dir, "refs.json");
    const info = await run(["info", `${refs}|reference:gzshuffle`, "--json"]);
    expect(info.stderr).toBe("");
    expect(info.code).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ shape: [23, 31], format: "zarr-v2" });
    const tree = await run(["tree", `${refs}|reference:`]);
    expect(tree.code).toBe(0);
    for (const name of Object.keys(fixture.expected)) expect(tree.stdout).toContain(name);
  });

  it("get reads values from a pipeline over HTTP", async () => {
    const got = await run(["get", `${server.url}refs.json|reference:gzfloat`, "--select", "4,5:8"]);
    expect(got.stderr).toBe("");
    expect(JSON.parse(got.stdout)).toEqual(fixture.expected.gzfloat!.values.slice(4 * 8 + 5, 4 * 8 + 8));
  });

  it("convert copies the whole hierarchy into shards with h5py's values", async () => {
    const dst = join(out, "converted.zarr");
    const converted = await run([
      "convert",
      `${pathToFileURL(fixture.dir).href}/refs.json|reference:`,
      dst,
      "--progress",
      "none",
    ]);
    expect(converted.code).toBe(0);
    expect(converted.stderr).toContain("5 arrays, 1 group");
    const store = await openStore(pathToFileURL(dst).href);
    for (const [name, expected] of Object.entries(fixture.expected)) {
      const arr = await openArray(store, name);
      expect(arr.metadata.zarr_format, name).toBe(3);
      const { data } = await arr.get(expected.shape.map(() => null));
      expect(Array.from(data as ArrayLike<number>), name).toEqual(expected.values);
    }
  });
});
