// What writeZip writes, read by Python's zipfile (entries STORED, ZIP64,
// metadata first and breadth first, the RFC-9 comment, CRCs) and by
// zarr-python 2.13's ZipStore (Zarr v2); atomic replacement of the target.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import "@zarrkit/codecs";
import { MemoryStore, openArray, openStore, type Store, StoreError } from "@zarrkit/core";
import "@zarrkit/crc32c";
import "@zarrkit/sharding";
import { FileSystemStore } from "@zarrkit/store-fs";
import { fixturePath } from "@zarrkit/test-utils/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlobStore, ZipStore, zipBlob } from "../src/index.js";
import { writeZip } from "../src/node.js";
import { asExpected, python, tempDir } from "./helpers.js";

const v3 = fixturePath("zarr-python-v3.zarr");
const v3Expected = fixturePath("zarr-python-v3.expected.json");

// Python's view of an archive: entry order, methods, ZIP64 local headers, the comment, CRCs, and each entry
// against the file it came from.
const INSPECT = `
import json, struct, sys, zipfile
from pathlib import Path
archive, root = sys.argv[1], Path(sys.argv[2])
with zipfile.ZipFile(archive) as z:
    infos = z.infolist()
    raw = open(archive, "rb").read()
    def local_zip64(info):
        name_len, extra_len = struct.unpack("<HH", raw[info.header_offset + 26:info.header_offset + 30])
        extra = raw[info.header_offset + 30 + name_len:info.header_offset + 30 + name_len + extra_len]
        return struct.unpack("<H", extra[:2])[0] == 1 if len(extra) >= 4 else False
    same = all(z.read(i.filename) == (root / i.filename).read_bytes() for i in infos)
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    print(json.dumps({
        "names": [i.filename for i in infos],
        "methods": sorted({i.compress_type for i in infos}),
        "zip64": all(local_zip64(i) for i in infos),
        "comment": z.comment.decode(),
        "badCrc": z.testzip(),
        "sameBytes": same,
        "allFiles": sorted(i.filename for i in infos) == files,
    }))
`;

// A Zarr v2 hierarchy written by zarr-python 2.13 (default compressor, a group, chunks, a fill value).
const WRITE_V2 = `
import sys, zarr, numpy as np
root = zarr.open_group(sys.argv[1], mode="w")
root.array("u2", np.arange(1000, dtype="<u2").reshape(25, 40), chunks=(10, 16))
root.array("f8", np.linspace(-1, 1, 77), chunks=(20,))
group = root.create_group("grp")
group.array("i4", np.arange(-50, 50, dtype=">i4"), chunks=(30,), compressor=None)
group.full("u1", 7, shape=(5, 5), chunks=(2, 2), dtype="u1")
`;

const COMPARE_V2 = `
import sys, zarr, numpy as np
zipped = zarr.open_group(zarr.ZipStore(sys.argv[1], mode="r"), mode="r")
plain = zarr.open_group(sys.argv[2], mode="r")
names = []
def visit(name, node):
    if isinstance(node, zarr.Array):
        a, b = node[...], plain[name][...]
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b), name
        names.append(name)
zipped.visititems(visit)
print(" ".join(names))
`;

describe.skipIf(!v3 || !v3Expected)("writeZip, read by Python", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir();
  });
  afterAll(() => dir?.remove());

  it("writes an .ozx that Python's zipfile reads as RFC-9's recommended variant, read back exactly", async () => {
    const target = join(dir.path, "image.ozx");
    const written = await writeZip(new FileSystemStore(v3!), target, { ome: "0.5" });
    expect(written.bytes).toBe((await readFile(target)).length);
    const seen = JSON.parse(python(INSPECT, [target, v3!]));
    expect(seen.methods, "STORED only").toEqual([0]);
    expect(seen.zip64, "every local header has a ZIP64 extra field").toBe(true);
    expect(seen.badCrc).toBe(null);
    expect(seen.sameBytes && seen.allFiles).toBe(true);
    expect(JSON.parse(seen.comment)).toEqual({
      ome: { version: "0.5", zipFile: { centralDirectory: { jsonFirst: true } } },
    });
    const names: string[] = seen.names;
    expect(names[0]).toBe("zarr.json");
    const metadata = names.filter((n) => n.endsWith("zarr.json"));
    expect(names.slice(0, metadata.length), "every zarr.json before any other entry").toEqual(metadata);
    const depths = metadata.map((n) => n.split("/").length);
    expect(depths, "breadth first").toEqual([...depths].sort((a, b) => a - b));

    const expected = JSON.parse(await readFile(v3Expected!, "utf8")).arrays as Record<
      string,
      { data_type: string; data: unknown[] }
    >;
    const store = await openStore(pathToFileURL(target).href);
    expect((await (store as ZipStore).rfc9Layout()).problems).toEqual([]);
    for (const [path, want] of Object.entries(expected)) {
      expect(asExpected((await (await openArray(store, path)).get()).data, want.data_type), path).toEqual(want.data);
    }
  });

  it("writes a Zarr v2 hierarchy (by zarr-python 2.13) that its ZipStore reads value for value", async () => {
    const source = join(dir.path, "v2.zarr");
    python(WRITE_V2, [source]);
    const target = join(dir.path, "v2.zip");
    await writeZip(new FileSystemStore(source), target);
    const compared = python(COMPARE_V2, [target, source]);
    expect(compared.trim().split(" ").sort()).toEqual(["f8", "grp/i4", "grp/u1", "u2"]);
  });

  it("replaces the target atomically: a failed write leaves the old archive whole and no temporary file", async () => {
    const target = join(dir.path, "atomic.zip");
    await writeFile(target, "the old archive");
    const failing: Store = {
      get: async (key) => {
        if (key.endsWith("c/0")) throw new Error("disk gone");
        return new TextEncoder().encode('{"zarr_format":3,"node_type":"group"}');
      },
      async *list() {
        yield* ["zarr.json", "a/zarr.json", "a/c/0"];
      },
    };
    await expect(writeZip(failing, target)).rejects.toThrow("disk gone");
    expect(await readFile(target, "utf8")).toBe("the old archive");
    expect((await readdir(dir.path)).filter((name) => name.includes("zarrkit-tmp"))).toEqual([]);
  });

  it("refuses a key longer than a zip name can be, naming it", async () => {
    const source = new MemoryStore();
    const long = `${"x".repeat(70_000)}/c/0`;
    await source.set(long, new Uint8Array(1));
    await expect(zipBlob(source)).rejects.toThrow(StoreError);
    await expect(zipBlob(source)).rejects.toThrow(/a zip entry name has at most 65535 bytes/);
  });

  it("builds a Blob that a ZipStore over a BlobStore reads lazily", async () => {
    const blob = await zipBlob(new FileSystemStore(v3!), { ome: "0.5" });
    const store = await ZipStore.open(new BlobStore(blob, "image.ozx"), "image.ozx");
    expect(await store.ome()).toMatchObject({ version: "0.5" });
    const array = await openArray(store, "3d.chunked.compressed.sharded.i2");
    const expected = JSON.parse(await readFile(v3Expected!, "utf8")).arrays["3d.chunked.compressed.sharded.i2"];
    expect(asExpected((await array.get()).data, "int16")).toEqual(expected.data);
  });
});
