// An .ozx written by Python's zipfile (RFC-9's recommended variant), served
// over HTTP with ranges and ETags: the first inner chunk of a sharded array
// costs at most 5 requests (archive tail, metadata, shard header, shard
// index, chunk), a warm read 1; a replaced archive is read afresh.
import { join } from "node:path";
import { createArray, openArray, openStore, slice } from "@zarrkit/core";
import "@zarrkit/sharding";
import "@zarrkit/store-fetch";
import { FileSystemStore } from "@zarrkit/store-fs";
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileServer, startServer, type TestServer } from "../../store-fetch/test/http-server.js";
import "../src/index.js";
import { python, tempDir } from "./helpers.js";

const ZIP_METADATA_FIRST = `
import sys, zipfile, json
from pathlib import Path
root, out = Path(sys.argv[1]), sys.argv[2]
files = sorted((p for p in root.rglob("*") if p.is_file()), key=lambda p: (p.name != "zarr.json", len(p.parts), str(p)))
with zipfile.ZipFile(out, "x") as z:
    for f in files:
        with z.open(f.relative_to(root).as_posix(), "w", force_zip64=True) as dest:
            dest.write(f.read_bytes())
    z.comment = json.dumps({"ome": {"version": "0.5", "zipFile": {"centralDirectory": {"jsonFirst": True}}}}).encode()
`;

const SHAPE = [512, 512];
const valueAt = (i: number, j: number) => (i * 512 + j) % 65521;

describe("an .ozx over HTTP", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let server: TestServer;
  const files = fileServer();
  let archive: Uint8Array;

  beforeAll(async () => {
    dir = await tempDir();
    const hierarchy = new FileSystemStore(join(dir.path, "image.zarr"));
    await hierarchy.set(
      "zarr.json",
      new TextEncoder().encode('{"zarr_format":3,"node_type":"group","attributes":{"ome":{"version":"0.5"}}}'),
    );
    const array = await createArray(hierarchy, "0", {
      shape: SHAPE,
      dataType: "uint16",
      chunkShape: [64, 64],
      shardShape: [256, 256],
    });
    const values = new Uint16Array(512 * 512);
    for (let i = 0; i < 512; i++) for (let j = 0; j < 512; j++) values[i * 512 + j] = valueAt(i, j);
    await array.set([null, null], { data: values, shape: SHAPE });
    python(ZIP_METADATA_FIRST, [join(dir.path, "image.zarr"), join(dir.path, "image.ozx")]);
    archive = new Uint8Array(await readFile(join(dir.path, "image.ozx")));
    files.put("image.ozx", archive);
    server = await startServer(files.handler);
  });
  afterAll(async () => {
    await server?.close();
    await dir?.remove();
  });

  it("reads the first inner chunk of a sharded array in at most 5 requests, and a warm one in 1", async () => {
    expect(archive.length, "the archive is larger than the first suffix read").toBeGreaterThan(256 * 1024);
    server.requests.length = 0;
    const store = await openStore(`${server.url}image.ozx`);
    const array = await openArray(store, "0");
    const first = await array.get([slice(0, 64), slice(0, 64)]);
    expect(first.data[0]).toBe(valueAt(0, 0));
    expect(first.data[63 * 64 + 63]).toBe(valueAt(63, 63));
    const cold = server.requests.length;
    expect(cold, JSON.stringify(server.requests.map((r) => r.headers.range))).toBeLessThanOrEqual(5);
    server.requests.length = 0;
    const warm = await array.get([slice(64, 128), slice(128, 192)]);
    expect(warm.data[0]).toBe(valueAt(64, 128));
    expect(server.requests.length, "a warm read of another inner chunk of the same shard").toBe(1);
    expect(server.requests[0]!.headers["if-match"], "reads carry the archive's ETag").toBeDefined();
  });

  it("reads a replaced archive afresh, never mixing it with the old one", async () => {
    const store = await openStore(`${server.url}image.ozx`);
    const array = await openArray(store, "0");
    expect((await array.get([slice(0, 1), slice(0, 1)])).data[0]).toBe(valueAt(0, 0));
    // The same archive with the array's values changed: the bytes of chunk (0, 0) now hold other values.
    const replaced = new FileSystemStore(join(dir.path, "image.zarr"));
    const rewritten = await openArray(replaced, "0");
    await rewritten.set([slice(0, 64), slice(0, 64)], 7);
    // An entry placed before the shards moves them: bytes at the old offsets are now other bytes.
    await replaced.set("0/padding", new Uint8Array(100_000).fill(0xee));
    python(ZIP_METADATA_FIRST, [join(dir.path, "image.zarr"), join(dir.path, "replaced.ozx")]);
    files.put("image.ozx", new Uint8Array(await readFile(join(dir.path, "replaced.ozx"))));
    expect((await array.get([slice(0, 1), slice(0, 1)])).data[0]).toBe(7);
    expect((await array.get([slice(300, 301), slice(300, 301)])).data[0]).toBe(valueAt(300, 300));
  });
});
