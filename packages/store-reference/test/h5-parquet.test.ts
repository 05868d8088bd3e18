import "@zarrkit/codecs";
import "@zarrkit/store-fs";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { MemoryStore, openArray, openStore, type Store, slice } from "@zarrkit/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "@zarrkit/store-fetch";
import { fileServer, startServer } from "../../store-fetch/test/http-server.js";
import "../src/index.js";
import { type H5Fixture, h5pyMissing, pyarrowPython, writeH5References, writeParquetReferences } from "./h5-fixture.js";

const missing = h5pyMissing();
const pyarrow = missing ? {} : pyarrowPython();
const reason = missing ?? pyarrow.missing;
if (reason) console.warn(`[zarrkit] skipping the Parquet reference tests: ${reason}`);

const text = (s: string) => new TextEncoder().encode(s);

/** The store, counting the record files read through it. */
function countingReads(store: Store): { store: Store; records: string[] } {
  const records: string[] = [];
  const note = (key: string) => {
    if (key.endsWith(".parq")) records.push(key);
  };
  return {
    records,
    store: {
      get: (key, options) => {
        note(key);
        return store.get(key, options);
      },
      getRange: (key, range, options) => {
        note(key);
        return store.getRange!(key, range, options);
      },
    },
  };
}

describe.skipIf(reason)("Parquet references (written by pyarrow) to an HDF5 file written by h5py", () => {
  let fixture: H5Fixture;
  beforeAll(() => {
    fixture = writeH5References();
    // Three chunks per record file: gzshuffle's 9 chunks span three records, sparse's 4 two.
    writeParquetReferences(pyarrow.python!, fixture.dir, "refs.parq", 3);
    for (const codec of ["zstd", "gzip", "none"])
      writeParquetReferences(pyarrow.python!, fixture.dir, `refs-${codec}.parq`, 4, codec);
  }, 900_000);
  afterAll(() => fixture?.cleanup());

  it("reads every dataset value for value: gzip+shuffle, gzip, contiguous, unwritten chunks, raw", async () => {
    expect(readdirSync(join(fixture.dir, "refs.parq", "gzshuffle")).sort()).toEqual([
      "refs.0.parq",
      "refs.1.parq",
      "refs.2.parq",
    ]);
    const store = await openStore(`${pathToFileURL(fixture.dir).href}/refs.parq|reference:`);
    for (const [name, expected] of Object.entries(fixture.expected)) {
      const arr = await openArray(store, name);
      const { data } = await arr.get(expected.shape.map(() => null));
      expect(Array.from(data as ArrayLike<number>), name).toEqual(expected.values);
    }
  });

  it("reads record files compressed with zstd (fsspec's choice), gzip, or not at all", async () => {
    for (const codec of ["zstd", "gzip", "none"]) {
      const store = await openStore(`${pathToFileURL(fixture.dir).href}/refs-${codec}.parq|reference:`);
      for (const [name, expected] of Object.entries(fixture.expected)) {
        const { data } = await (await openArray(store, name)).get(expected.shape.map(() => null));
        expect(Array.from(data as ArrayLike<number>), `${codec}: ${name}`).toEqual(expected.values);
      }
    }
  });

  it("refuses malformed layouts and record files with typed errors naming the file", async () => {
    const { openReferenceStore } = await import("../src/index.js");
    const home = new MemoryStore();
    await home.set("a.parq/.zmetadata", text("{"));
    await expect(openReferenceStore(home, "a.parq")).rejects.toMatchObject({
      code: "INVALID_METADATA",
      key: "a.parq/.zmetadata",
    });
    await home.set("a.parq/.zmetadata", text(JSON.stringify({ metadata: {}, record_size: 0 })));
    await expect(openReferenceStore(home, "a.parq")).rejects.toMatchObject({
      key: "a.parq/.zmetadata",
      field: "record_size",
    });
    const zarray = {
      zarr_format: 2,
      shape: [8],
      chunks: [2],
      dtype: "<i2",
      fill_value: 0,
      order: "C",
      compressor: null,
      filters: null,
    };
    await home.set("a.parq/.zmetadata", text(JSON.stringify({ metadata: { "v/.zarray": zarray }, record_size: 2 })));
    await home.set("a.parq/v/refs.0.parq", text("PAR1 this is no parquet file PAR1"));
    const store = await openReferenceStore(home, "a.parq");
    await expect(store.get("v/1")).rejects.toMatchObject({ code: "CORRUPT_DATA", key: "a.parq/v/refs.0.parq" });
    // A record file that is missing holds no chunks; keys outside the grid are no chunks either.
    expect(await store.get("v/2")).toBeUndefined();
    expect(await store.get("v/0.0")).toBeUndefined();
    // A real record file whose target (data.h5, beside the layout) is not in this store: NotFoundError naming the key.
    await home.set("a.parq/v/refs.1.parq", readFileSync(join(fixture.dir, "refs.parq", "gzshuffle", "refs.0.parq")));
    await expect((await openReferenceStore(home, "a.parq")).get("v/3")).rejects.toMatchObject({
      code: "NOT_FOUND",
      key: "v/3",
    });
  });

  it("refuses a page decoding past the cap before allocating it (1 MiB inline in a small zstd file)", async () => {
    const script = `
import json, os, sys, pyarrow as pa, pyarrow.parquet as pq
out = sys.argv[1]
os.makedirs(out + "/v", exist_ok=True)
zarray = {"zarr_format": 2, "shape": [1048576], "chunks": [1048576], "dtype": "|u1", "fill_value": 0,
          "order": "C", "compressor": None, "filters": None}
json.dump({"metadata": {"v/.zarray": zarray}, "record_size": 10}, open(out + "/.zmetadata", "w"))
table = pa.table({"path": pa.array([None], pa.string()), "offset": pa.array([0], pa.int64()),
                  "size": pa.array([0], pa.int64()), "raw": pa.array([bytes(1048576)], pa.binary())})
pq.write_table(table, out + "/v/refs.0.parq", compression="zstd")
`;
    execFileSync(pyarrow.python!, ["-c", script, join(fixture.dir, "bomb.parq")]);
    const file = readFileSync(join(fixture.dir, "bomb.parq", "v", "refs.0.parq"));
    expect(file.length).toBeLessThan(64 * 1024);
    const { openReferenceStore } = await import("../src/index.js");
    const files = await openStore(pathToFileURL(fixture.dir).href);
    expect((await (await openReferenceStore(files, "bomb.parq")).get("v/0"))?.length).toBe(1048576);
    const capped = await openReferenceStore(files, "bomb.parq", { maxFileBytes: 64 * 1024 });
    await expect(capped.get("v/0")).rejects.toMatchObject({ code: "CORRUPT_DATA", key: "bomb.parq/v/refs.0.parq" });
  });

  it("loads record files lazily, one per record touched, kept in a bounded cache", async () => {
    const { openReferenceStore } = await import("../src/index.js");
    const files = await openStore(pathToFileURL(fixture.dir).href);
    const counted = countingReads(files);
    const store = await openReferenceStore(counted.store, "refs.parq");
    const arr = await openArray(store, "gzshuffle");
    expect(counted.records).toEqual([]);
    // Chunk (2, 1) is chunk number 7: row 1 of record 2.
    const { data } = await arr.get([16, 12]);
    expect(data).toEqual(Int32Array.of(fixture.expected.gzshuffle!.values[16 * 31 + 12]!));
    expect(counted.records).toEqual(["refs.parq/gzshuffle/refs.2.parq"]);
    await arr.get([17, 13]);
    expect(counted.records).toHaveLength(1);

    // A cache too small to keep any record reads each record file again, and still reads right.
    const uncached = countingReads(files);
    const small = await openArray(
      await openReferenceStore(uncached.store, "refs.parq", { recordCacheBytes: 0 }),
      "gzshuffle",
    );
    await small.get([16, 12]);
    await small.get([17, 13]);
    expect(uncached.records).toEqual(["refs.parq/gzshuffle/refs.2.parq", "refs.parq/gzshuffle/refs.2.parq"]);
  });

  it("reads the layout and its target over HTTP, fetching only the record files of the chunks read", async () => {
    const files = fileServer();
    const walk = (dir: string, prefix: string) => {
      for (const entry of readdirSync(join(fixture.dir, dir), { withFileTypes: true })) {
        const path = `${dir}/${entry.name}`;
        if (entry.isDirectory()) walk(path, `${prefix}${entry.name}/`);
        else files.put(`${prefix}${entry.name}`, readFileSync(join(fixture.dir, path)));
      }
    };
    walk("refs.parq", "refs.parq/");
    files.put("data.h5", readFileSync(join(fixture.dir, "data.h5")));
    const server = await startServer(files.handler);
    try {
      const store = await openStore(`${server.url}refs.parq|reference:`);
      const arr = await openArray(store, "gzshuffle");
      const { data } = await arr.get([slice(0, 8), null]);
      expect(Array.from(data as Int32Array)).toEqual(fixture.expected.gzshuffle!.values.slice(0, 8 * 31));
      // Chunks (0, 0..2) are chunk numbers 0..2: record 0 only.
      const records = server.requests.map((r) => r.url).filter((url) => url.endsWith(".parq"));
      expect(records).toEqual(["/store/refs.parq/gzshuffle/refs.0.parq"]);
      expect(server.requests.filter((r) => r.url.endsWith("/data.h5")).every((r) => r.headers.range)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("lists the metadata and the chunks that have references", async () => {
    const store = await openStore(`${pathToFileURL(fixture.dir).href}/refs.parq|reference:`);
    const keys: string[] = [];
    for await (const key of store.list!("sparse/")) keys.push(key);
    // sparse: chunks (0, 1) and (1, 0) were written, (0, 0) and (1, 1) never were.
    expect(keys.sort()).toEqual(["sparse/.zarray", "sparse/.zattrs", "sparse/0.1", "sparse/1.0"]);
    expect((await store.listDir!("")).prefixes.sort()).toEqual([
      "contiguous/",
      "gzfloat/",
      "gzshuffle/",
      "small/",
      "sparse/",
    ]);
  });
});
