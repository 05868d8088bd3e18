// Shards in files: the codec workers read each shard's range themselves
// (FileSystemStore.lendRange) and decode it into the shared result, so the
// bytes never pass through the calling thread.
import "@zarrkit/codecs";
import "@zarrkit/crc32c";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  closeCodecWorkers,
  type CountedStore,
  codecWorkerStats,
  countRequests,
  openArray,
  PreconditionFailedError,
  StoreError,
} from "@zarrkit/core";
import { registerCodecWorkerModule } from "@zarrkit/registry";
import { FileSystemStore } from "@zarrkit/store-fs";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BYTES, CRC, createArray, iota } from "./helpers.js";

const ZSTD = { name: "zstd", configuration: { level: 1, checksum: false } };
afterAll(() => closeCodecWorkers());
for (const entry of ["../../codecs/src/index.ts", "../../crc32c/src/index.ts", "./fixtures/short-reader.ts"])
  registerCodecWorkerModule(new URL(entry, import.meta.url).href);

// 4 shards of 8 x 8 inner chunks of 16 x 16 int32.
const SHAPE = [256, 256];
const DATA = iota(256 * 256);
const WORKERS = { workers: { threshold: 0, size: 2 } };

let dir: string;
let files: FileSystemStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "zarrkit-lent-reads-"));
  files = new FileSystemStore(dir);
  const definition = { shape: SHAPE, dataType: "int32" as const, chunkShape: [16, 16], shardShape: [128, 128] };
  await createArray(files, "a", { ...definition, codecs: [BYTES, ZSTD, CRC] });
  await (await openArray(files, "a", { workers: false })).set(null, DATA);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** The file store, its requests counted, its lent sources named `reader` instead (when given). */
function lending(reader?: string): CountedStore {
  const store = countRequests(files);
  if (reader === undefined) return store;
  const lend = store.lendRange!.bind(store);
  store.lendRange = (key, range, options, use) =>
    lend(key, range, options, (lent) => use(lent && { ...lent, source: { ...lent.source, reader } }));
  return store;
}

/** What the workers did during `run`. */
async function moved(run: () => Promise<unknown>): Promise<{ written: number; ranHere: number }> {
  const before = codecWorkerStats();
  await run();
  const after = codecWorkerStats();
  return { written: after.written - before.written, ranHere: after.ranHere - before.ranHere };
}

describe("shard ranges read by the codec workers", () => {
  it("a whole read lends each shard's range and reads none of their bytes here", async () => {
    const store = lending();
    const array = await openArray(store, "a", WORKERS);
    store.reset();
    let data: unknown;
    const counts = await moved(async () => {
      data = (await array.get()).data;
    });
    expect(data).toEqual(DATA);
    expect(store.reads("lendRange")).toBe(4);
    expect(store.reads("getRangeInto") + store.reads("getRange")).toBe(0);
    // Each shard's chunk bytes lent once (the log is in completion order, so by shard key here).
    const lent = store.log.filter((r) => r.method === "lendRange");
    expect(lent.map((r) => r.key).sort()).toEqual(["a/c/0/0", "a/c/0/1", "a/c/1/0", "a/c/1/1"]);
    expect(await Promise.all(lent.map(async (r) => (await files.size(r.key))! - 8 * 8 * 16 - 4 - r.bytes))).toEqual([
      0, 0, 0, 0,
    ]);
    // Two batches per shard (of 32 inner chunks each), read and written by the workers.
    expect(counts.written).toBeGreaterThanOrEqual(8);
  });

  it("a worker without the source's reader: its bytes are read here, with one warning, and from then on", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const store = lending("test:nowhere");
      const array = await openArray(store, "a", WORKERS);
      store.reset();
      expect((await array.get()).data).toEqual(DATA);
      // Shards lent before the first refusal came back are read here span by span, later ones whole.
      expect(store.reads("lendRange")).toBeGreaterThanOrEqual(1);
      expect(store.reads("getRangeInto")).toBeGreaterThanOrEqual(4);
      store.reset();
      // Lending stops; the workers still decode what this thread reads for them.
      const counts = await moved(async () => expect((await array.get()).data).toEqual(DATA));
      expect(store.reads("lendRange")).toBe(0);
      expect(store.reads("getRangeInto")).toBe(4);
      expect(counts.written).toBeGreaterThanOrEqual(4);
      expect(warn.mock.calls.flat().join(" ")).toMatch(/range reader "test:nowhere"/);
    } finally {
      warn.mockRestore();
    }
  });

  it("a worker that reads fewer bytes than were lent: the shard changed, read again, then a StoreError", async () => {
    const store = lending("test:short");
    const array = await openArray(store, "a", WORKERS);
    store.reset();
    const error = (await array.get().then(
      () => undefined,
      (error: unknown) => error,
    )) as StoreError;
    expect(error).toBeInstanceOf(StoreError);
    expect(error.message).toMatch(/^Shard a\/c\/[01]\/[01] kept changing while it was read \(8 attempts\)$/);
    expect(error.cause).toBeInstanceOf(PreconditionFailedError);
    expect((error.cause as PreconditionFailedError).key).toBe(error.key);
    expect((error.cause as Error).message).toMatch(/changed while it was being read: it ended at byte \d+/);
    // Each attempt lent the shard again, from a fresh index.
    expect(store.reads("lendRange")).toBeGreaterThanOrEqual(8);
  });

  it("a reader that claims more bytes than it was asked for: a StoreError naming the shard and the reader", async () => {
    const array = await openArray(lending("test:overcount"), "a", WORKERS);
    const error = (await array.get().then(
      () => undefined,
      (error: unknown) => error,
    )) as StoreError;
    expect(error).toBeInstanceOf(StoreError);
    expect(error.key).toMatch(/^a\/c\/[01]\/[01]$/);
    expect(error.message).toMatch(/The range reader "test:overcount" read \d+ bytes of "a\/c\/[01]\/[01]" into \d+/);
  });
});
