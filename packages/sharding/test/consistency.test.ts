import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { openArray, type Store, slice } from "@zarrkit/core";
import { FileSystemStore } from "@zarrkit/store-fs";
import { afterEach, describe, expect, it } from "vitest";
import { BYTES, counted, createArray, MemoryStore } from "./helpers.js";

const writer = fileURLToPath(new URL("./fixtures/shard-writer.ts", import.meta.url));
const run = promisify(execFile);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function tempRoot(): Promise<string> {
  const path = await mkdtemp(join(tmpdir(), "zarrkit-sharding-"));
  cleanups.push(() => rm(path, { recursive: true, force: true }));
  return path;
}

/**
 * A 4x4 shard of 1x1 raw inner chunks: laid out in Morton order or C order, every chunk has the same size at another
 * offset.
 */
async function grid(store: Store, chunkOrder: "morton" | "c" = "morton") {
  const arr = await createArray(
    store,
    "a",
    { shape: [4, 4], dataType: "int32", chunkShape: [1, 1], shardShape: [4, 4], codecs: [BYTES] },
    { codecOptions: { sharding_indexed: { chunkOrder } } },
  );
  await arr.set(
    null,
    Int32Array.from({ length: 16 }, (_, i) => 100 + i),
  );
  return arr;
}

const at = (r: number, c: number) => [slice(r, r + 1), slice(c, c + 1)];
const values = async (
  arr: { get(selection?: ReturnType<typeof at>): Promise<{ data: unknown }> },
  selection?: ReturnType<typeof at>,
) => Array.from((await arr.get(selection)).data as Int32Array);

/** A store that reports no versions: a reader cannot prove a cached index still describes the shard. */
function unversioned(inner: Store): Store {
  return {
    get: (key, options) => inner.get(key, options),
    getRange: (key, range, options) => inner.getRange!(key, range, options),
    getRangeWithSize: async (key, range, options) => {
      const sized = await inner.getRangeWithSize!(key, range, options);
      return sized && { value: sized.value, size: sized.size };
    },
    set: (key, value, options) => inner.set!(key, value, options),
    delete: (key, options) => inner.delete!(key, options),
  };
}

describe("a cached shard index never outlives the shard", () => {
  it("two array objects: a shard rewritten by the other is read right, not from the old offsets", async () => {
    const c = counted();
    const reader = await grid(c.store);
    expect(await values(reader, at(1, 2))).toEqual([106]);
    c.reset();
    expect(await values(reader, at(1, 2))).toEqual([106]);
    expect(c.reads()).toBe(1); // the index is cached while the shard is unchanged

    // Same values, other layout: chunk (1, 2) now lies where another chunk was.
    const other = await openArray(c.store, "a", { codecOptions: { sharding_indexed: { chunkOrder: "c" } } });
    await other.set(null, (await other.get()).data);
    expect(await values(reader, at(1, 2))).toEqual([106]);
    expect(await values(reader)).toEqual(Array.from({ length: 16 }, (_, i) => 100 + i));

    await other.set(at(1, 2), -7);
    expect(await values(reader, at(1, 2))).toEqual([-7]);
    await other.set(null, 0); // every chunk the fill value: the shard is deleted
    expect(await values(reader, at(1, 2))).toEqual([0]);
  });

  it("a store without versions gets no cached index: every read re-reads it", async () => {
    const c = counted(unversioned(new MemoryStore()));
    const reader = await grid(c.store);
    c.reset();
    expect(await values(reader, at(3, 0))).toEqual([112]);
    expect(await values(reader, at(3, 0))).toEqual([112]);
    expect(c.reads()).toBe(4);
    const other = await openArray(c.store, "a", { codecOptions: { sharding_indexed: { chunkOrder: "c" } } });
    await other.set(null, (await other.get()).data);
    expect(await values(reader, at(3, 0))).toEqual([112]);
  });

  it("nested shards: the inner index cached through the outer shard goes stale with it", async () => {
    const store = new MemoryStore();
    const nested = (chunkOrder: string) => ({ codecOptions: { sharding_indexed: { chunkOrder } } });
    const codecs = [
      {
        name: "sharding_indexed",
        configuration: { chunk_shape: [1, 1], codecs: [BYTES], index_codecs: [BYTES, { name: "crc32c" }] },
      },
    ];
    const writerArr = await createArray(
      store,
      "a",
      { shape: [4, 4], dataType: "int32", chunkShape: [2, 2], shardShape: [4, 4], codecs },
      nested("morton"),
    );
    await writerArr.set(
      null,
      Int32Array.from({ length: 16 }, (_, i) => 100 + i),
    );
    const reader = await openArray(store, "a");
    expect(await values(reader, at(2, 3))).toEqual([111]);
    const other = await openArray(store, "a", nested("c"));
    await other.set(
      null,
      Int32Array.from({ length: 16 }, (_, i) => 200 + i),
    );
    expect(await values(reader, at(2, 3))).toEqual([211]);
  });

  it("two processes: a shard rewritten by another process is read right", async () => {
    const root = await tempRoot();
    const reader = await grid(new FileSystemStore(root));
    expect(await values(reader, at(1, 2))).toEqual([106]);
    await run(process.execPath, [...process.execArgv, writer, root, "rewrite", "rewrite-shard", "c"], {
      timeout: 30_000,
    });
    expect(await values(reader, at(1, 2))).toEqual([106]);
    expect(await values(reader)).toEqual(Array.from({ length: 16 }, (_, i) => 100 + i));
  });
});

/** The `ack <chunk> <value>` lines a writer printed. */
function acks(stdout: string): Map<number, number> {
  const acked = new Map<number, number>();
  for (const line of stdout.split("\n")) {
    const [word, chunk, value] = line.split(" ");
    if (word === "ack") acked.set(Number(chunk), Number(value));
  }
  return acked;
}

describe("several processes writing one shard lose no acknowledged write", () => {
  const processes = 4;
  const perProcess = 12;
  for (const strategy of ["rewrite", "append", "in-place"] as const) {
    it(`${strategy}: ${processes} processes x ${perProcess} inner chunks each`, async () => {
      const root = await tempRoot();
      const store = new FileSystemStore(root);
      const chunks = processes * perProcess;
      // In-place needs the inner chunks stored (fixed size, checksummed) before it can overwrite them.
      const arr = await createArray(store, "a", {
        shape: [2 * chunks],
        dataType: "int32",
        chunkShape: [2],
        shardShape: [2 * chunks],
        codecs: [BYTES, { name: "crc32c" }],
      });
      await arr.set(null, -1);
      const outputs = await Promise.all(
        Array.from({ length: processes }, (_, p) =>
          run(
            process.execPath,
            [...process.execArgv, writer, root, strategy, "chunks", String(p * perProcess), String(perProcess), "1000"],
            {
              timeout: 60_000,
            },
          ),
        ),
      );
      const acked = new Map<number, number>();
      for (const { stdout } of outputs) for (const [chunk, value] of acks(stdout)) acked.set(chunk, value);
      expect(acked.size).toBe(chunks);
      const data = (await (await openArray(store, "a")).get()).data as Int32Array;
      const lost = [...acked].filter(([chunk, value]) => data[2 * chunk] !== value || data[2 * chunk + 1] !== value);
      console.log(`${strategy}: ${processes} processes, ${acked.size} acknowledged writes, ${lost.length} lost`);
      expect(lost).toEqual([]);
    });
  }
});
