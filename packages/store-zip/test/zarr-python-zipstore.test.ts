// Archives written by zarr-python 2.13's own ZipStore (Zarr v2: blosc by
// default, STORED and DEFLATE zips, nested groups), read value for value.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import "@zarrkit/codecs";
import { openArray, openGroup, openStore } from "@zarrkit/core";
import "@zarrkit/store-fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../src/index.js";
import { python, tempDir } from "./helpers.js";

const WRITE = `
import json, sys, zipfile, zarr, numpy as np
expected = {}
for name, compression in (("stored.zip", zipfile.ZIP_STORED), ("deflated.zip", zipfile.ZIP_DEFLATED)):
    store = zarr.ZipStore(f"{sys.argv[1]}/{name}", mode="w", compression=compression)
    root = zarr.group(store=store)
    arrays = {
        "u2": np.arange(1000, dtype="<u2").reshape(25, 40),
        "f8": np.linspace(-1, 1, 77),
        "nested/deeper/i4": np.arange(-50, 50, dtype=">i4").reshape(10, 10),
    }
    root.array("u2", arrays["u2"], chunks=(10, 16))
    root.array("f8", arrays["f8"], chunks=(20,))
    deeper = root.create_group("nested").create_group("deeper")
    deeper.array("i4", arrays["nested/deeper/i4"], chunks=(3, 4), compressor=None)
    root.attrs["written_by"] = "zarr " + zarr.__version__
    store.close()
    expected = {path: {"shape": list(a.shape), "data": a.ravel().tolist()} for path, a in arrays.items()}
print(json.dumps(expected))
`;

describe("archives written by zarr-python 2.13's ZipStore", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let expected: Record<string, { shape: number[]; data: number[] }>;
  beforeAll(async () => {
    dir = await tempDir();
    expected = JSON.parse(python(WRITE, [dir.path]));
  });
  afterAll(() => dir?.remove());

  for (const name of ["stored.zip", "deflated.zip"]) {
    it(`reads ${name} value for value`, async () => {
      const store = await openStore(pathToFileURL(join(dir.path, name)).href);
      const root = await openGroup(store, "");
      expect(root.attributes.written_by).toMatch(/^zarr 2\.13/);
      for (const [path, want] of Object.entries(expected)) {
        const got = await (await openArray(store, path)).get();
        expect(got.shape, path).toEqual(want.shape);
        expect(Array.from(got.data as ArrayLike<number>), path).toEqual(want.data);
      }
    });
  }
});
