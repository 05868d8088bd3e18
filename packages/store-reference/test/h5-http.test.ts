import "@zarrkit/codecs";
import "@zarrkit/store-fetch";
import "@zarrkit/store-fs";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { openArray, openStore, PreconditionFailedError } from "@zarrkit/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileServer, startServer, type TestServer } from "../../store-fetch/test/http-server.js";
import "../src/index.js";
import { type H5Fixture, h5pyMissing, writeH5References } from "./h5-fixture.js";

const missing = h5pyMissing();
if (missing) console.warn(`[zarrkit] skipping the HTTP reference tests: ${missing}`);

describe.skipIf(missing)("references and HDF5 targets served over HTTP with ranges and ETags", () => {
  let fixture: H5Fixture;
  let files: ReturnType<typeof fileServer>;
  let server: TestServer;
  beforeAll(async () => {
    fixture = writeH5References();
    files = fileServer();
    for (const name of ["data.h5", "refs.json"]) files.put(name, readFileSync(join(fixture.dir, name)));
    server = await startServer(files.handler);
  });
  afterAll(async () => {
    await server?.close();
    fixture?.cleanup();
  });

  const targetRequests = () => server.requests.filter((r) => r.url.endsWith("/data.h5"));

  it("reads a reference file over HTTP, its relative target beside it, with coalesced ranged reads", async () => {
    const store = await openStore(`${server.url}refs.json|reference:`);
    const arr = await openArray(store, "gzshuffle");
    const before = targetRequests().length;
    const { data } = await arr.get([null, null]);
    expect(Array.from(data as Int32Array)).toEqual(fixture.expected.gzshuffle!.values);
    const reads = targetRequests().slice(before);
    // 9 chunks, read together: fewer requests than chunks, each one a Range request.
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.length).toBeLessThan(9);
    for (const read of reads) expect(read.headers.range).toMatch(/^bytes=\d+-\d+$/);
  });

  it("reads a local reference file whose template points at the server (templates option)", async () => {
    const store = await openStore(`${pathToFileURL(fixture.dir).href}/refs.json|reference:`, {
      reference: { templates: { h5: `${server.url}data.h5` } },
    });
    const before = targetRequests().length;
    for (const [name, expected] of Object.entries(fixture.expected)) {
      const { data } = await (await openArray(store, name)).get(expected.shape.map(() => null));
      expect(Array.from(data as ArrayLike<number>), name).toEqual(expected.values);
    }
    // Read from the server, not from the data.h5 beside the local refs.json that the file's own template names.
    expect(targetRequests().length).toBeGreaterThan(before);
  });

  it("refuses a target replaced since its first read (its ETag changed): offsets of the old file", async () => {
    const store = await openStore(`${server.url}refs.json|reference:`);
    const arr = await openArray(store, "gzfloat");
    await arr.get([0, 0]);
    const first = targetRequests().at(-1)!;
    expect(first.headers["if-match"]).toBeUndefined();
    files.put("data.h5", readFileSync(join(fixture.dir, "data.h5")));
    const error = await arr.get([4, 7]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PreconditionFailedError);
    expect((error as PreconditionFailedError).key).toBe("gzfloat/2.2");
    expect(targetRequests().at(-1)!.headers["if-match"]).toBeDefined();
  });
});
