// The bar of issue 22: a sharded array served by Python's http.server (no
// Range support, Last-Modified, no ETag), what many people serve data with.
// A warm inner-chunk read costs at most one request, and a shard replaced on
// the server is never read through the old copy.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createArray, openArray, slice, type ZarrArray } from "@zarrkit/core";
import "@zarrkit/sharding";
import { FileSystemStore } from "@zarrkit/store-fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FetchStore } from "../src/index.js";

const PYTHON = "/usr/bin/python3";

/** Every file below `dir`. */
async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/**
 * Start `python3 -m http.server` on an ephemeral port of 127.0.0.1 serving `dir`; its PID is the ChildProcess's, which
 * stops it.
 */
async function pythonServer(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(PYTHON, ["-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", dir, "0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const port = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /port (\d+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.stderr!.resume();
    child.on("exit", (code) => reject(new Error(`python3 -m http.server exited with ${code}: ${out}`)));
  });
  return { child, url: `http://127.0.0.1:${port}/` };
}

describe.skipIf(!existsSync(PYTHON))("a sharded array served by Python's http.server", () => {
  let dir: string;
  let server: { child: ChildProcess; url: string };
  let writer: ZarrArray;
  const values = (base: number) => Int32Array.from({ length: 256 }, (_, i) => base + i);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "zarrkit-python-http-"));
    writer = await createArray(new FileSystemStore(dir), "", {
      shape: [16, 16],
      dataType: "int32",
      chunkShape: [4, 4],
      shardShape: [8, 8],
    });
    await writer.set(null, { data: values(0), shape: [16, 16] });
    // Data served is usually older than the second it is read in; Last-Modified is a strong validator only then.
    const past = new Date(Date.now() - 60_000);
    for (const file of await files(dir)) await utimes(file, past, past);
    server = await pythonServer(dir);
  });

  afterAll(async () => {
    server?.child.kill();
    await rm(dir, { recursive: true, force: true });
  });

  /** An array read over HTTP through a FetchStore whose requests are counted. */
  async function remote(): Promise<{ array: ZarrArray; requests: string[] }> {
    const requests: string[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      requests.push(String(input));
      return globalThis.fetch(input, init);
    };
    return { array: await openArray(new FetchStore(server.url, { fetch }), ""), requests };
  }

  const inner = (array: ZarrArray, row: number, column: number) =>
    array.get([slice(row * 4, row * 4 + 4), slice(column * 4, column * 4 + 4)]);
  const expected = (base: number, row: number, column: number) =>
    Array.from({ length: 16 }, (_, i) => base + (row * 4 + Math.floor(i / 4)) * 16 + column * 4 + (i % 4));

  it("costs at most one request for a warm inner-chunk read", async () => {
    const { array, requests } = await remote();
    expect(Array.from((await inner(array, 0, 0)).data as Int32Array)).toEqual(expected(0, 0, 0));
    for (const [row, column] of [
      [0, 1],
      [1, 0],
      [1, 1],
      [0, 0],
    ] as const) {
      requests.length = 0;
      expect(Array.from((await inner(array, row, column)).data as Int32Array)).toEqual(expected(0, row, column));
      expect(requests.length, `inner chunk ${row},${column} of a shard read before`).toBeLessThanOrEqual(1);
    }
  });

  it("never reads a shard replaced on the server through the old copy", async () => {
    const { array } = await remote();
    expect(Array.from((await inner(array, 0, 0)).data as Int32Array)).toEqual(expected(0, 0, 0));
    expect(Array.from((await inner(array, 0, 1)).data as Int32Array)).toEqual(expected(0, 0, 1));
    // The same bytes' length each time: only Last-Modified tells the shards apart.
    for (const base of [1000, 2000, 3000]) {
      await writer.set([slice(0, 8), slice(0, 8)], { data: values(base).subarray(0, 64), shape: [8, 8] });
      const seen = Array.from((await inner(array, 0, 1)).data as Int32Array);
      const want = Array.from({ length: 16 }, (_, i) => base + Math.floor(i / 4) * 8 + 4 + (i % 4));
      expect(seen, `after the shard was replaced with values from ${base}`).toEqual(want);
    }
    // A shard read when its Last-Modified is a strong validator (and so cached on it), then replaced by a
    // copy that keeps an older time (rsync -t, cp -p): If-Modified-Since would answer 304; the HEAD's
    // Last-Modified is not the one cached.
    const shard = join(dir, "c", "0", "0");
    const earlier = new Date(Date.now() - 20_000);
    await utimes(shard, earlier, earlier);
    const cachedFrom = Array.from((await inner(array, 1, 0)).data as Int32Array);
    expect(cachedFrom).toEqual(Array.from({ length: 16 }, (_, i) => 3000 + (4 + Math.floor(i / 4)) * 8 + (i % 4)));
    await writer.set([slice(0, 8), slice(0, 8)], { data: values(4000).subarray(0, 64), shape: [8, 8] });
    const older = new Date(Date.now() - 40_000);
    await utimes(shard, older, older);
    expect(Array.from((await inner(array, 1, 1)).data as Int32Array)).toEqual(
      Array.from({ length: 16 }, (_, i) => 4000 + (4 + Math.floor(i / 4)) * 8 + 4 + (i % 4)),
    );
  });
});
