// Into a result over shared memory, a shard's inner chunks go to the codec
// workers in batches (a handful of tasks per shard, not a round trip per
// inner chunk) and the workers write them into the result themselves.
import "@zarrkit/codecs";
import "@zarrkit/crc32c";
import { ChecksumError, closeCodecWorkers, codecWorkerStats, openArray, slice } from "@zarrkit/core";
import { registerCodecWorkerModule } from "@zarrkit/registry";
import { afterAll, describe, expect, it } from "vitest";
import { describeShard } from "../src/index.js";
import { BYTES, CRC, createArray, iota, MemoryStore, piecewise } from "./helpers.js";

/** 1, 2, ... in shared memory (`map` would return an ordinary array). */
function sharedIota(n: number): Int32Array {
  const data = new Int32Array(new SharedArrayBuffer(4 * n));
  data.set(iota(n));
  return data;
}

const ZSTD = { name: "zstd", configuration: { level: 1, checksum: false } };
afterAll(() => closeCodecWorkers());
// The workers learn the codecs from these modules (the zarrkit package registers its own entry).
for (const entry of ["../../codecs/src/index.ts", "../../crc32c/src/index.ts"])
  registerCodecWorkerModule(new URL(entry, import.meta.url).href);

/** Work counters moved by `run`. */
async function moved(run: () => Promise<unknown>): Promise<{ dispatched: number; written: number; ranHere: number }> {
  const before = codecWorkerStats();
  await run();
  const after = codecWorkerStats();
  return {
    dispatched: after.dispatched - before.dispatched,
    written: after.written - before.written,
    ranHere: after.ranHere - before.ranHere,
  };
}

// 4 shards of 16 x 16 inner chunks of 8 x 8 int32 (256 bytes decoded each): 1024 inner chunks.
const SHAPE = [256, 256];
const DEFINITION = { shape: SHAPE, dataType: "int32" as const, chunkShape: [8, 8], shardShape: [128, 128] };
const WORKERS = { workers: { threshold: 0, size: 2 } };

describe("a shard's inner chunks encoded by the workers in batches", () => {
  for (const [what, values] of [
    ["from an ordinary array (copied into shared memory once per shard)", (n: number) => iota(n)],
    ["from an array over shared memory (read by the workers as it is)", (n: number) => sharedIota(n)],
  ] as const) {
    it(`${what}: a few tasks per shard; inner chunks all fill value are left out`, async () => {
      const store = new MemoryStore();
      const array = await createArray(store, "a", { ...DEFINITION, codecs: [BYTES, ZSTD, CRC] });
      const writer = await openArray(store, "a", WORKERS);
      const data = values(256 * 256);
      for (let y = 8; y < 16; y++) data.fill(0, y * 256, y * 256 + 8); // inner chunk [1, 0] of shard [0, 0]: all fill value
      const counts = await moved(() => writer.set(null, data));
      // One task per inner chunk would be 1024; batches of half a shard's inner chunks make 2 per shard, and
      // threshold 0 sends each shard's index (its own small pipeline) too: at most 12.
      expect(counts.dispatched + counts.ranHere).toBeLessThanOrEqual(12);
      expect(counts.dispatched).toBeGreaterThan(0);
      expect((await array.get()).data).toEqual(data);
      const { chunks } = await describeShard(array, [0, 0]);
      expect(chunks[16]).toEqual({ coords: [1, 0], empty: true }); // left out
      expect(chunks.filter((c) => !("empty" in c))).toHaveLength(255);
    });
  }
});

describe("a shard's inner chunks encoded by the workers into pooled shared memory, for a store that takes pieces", () => {
  const sharedBuffer = (buffer: ArrayBufferLike) => buffer instanceof SharedArrayBuffer;
  it("lie in one shared buffer per shard, reused by the next write, the bytes of a write without workers", async () => {
    const plain = new MemoryStore();
    await createArray(plain, "a", { ...DEFINITION, codecs: [BYTES, ZSTD, CRC] });
    await (await openArray(plain, "a", { workers: false })).set(null, iota(256 * 256));
    const { store, inner, buffers } = piecewise();
    await createArray(store, "a", { ...DEFINITION, codecs: [BYTES, ZSTD, CRC] });
    const writer = await openArray(store, "a", WORKERS);
    const counts = await moved(() => writer.set(null, iota(256 * 256)));
    expect(counts.dispatched).toBeGreaterThan(0);
    // Each shard's inner chunks (all pieces but the index, last) lie in one shared buffer, a shard's own.
    const rooms = buffers.map((pieces) => new Set(pieces.slice(0, -1)));
    expect(rooms.map((room) => [...room].map(sharedBuffer))).toEqual([[true], [true], [true], [true]]);
    expect(new Set(rooms.flatMap((room) => [...room])).size).toBe(4);
    for (const key of ["a/c/0/0", "a/c/0/1", "a/c/1/0", "a/c/1/1"]) {
      expect(await inner.get(key), key).toEqual(await plain.get(key));
    }
    // Written again: the same buffers serve it.
    await writer.set(null, iota(256 * 256, 2));
    const again = new Set(buffers.slice(4).flatMap((pieces) => pieces.slice(0, -1)));
    expect(again).toEqual(new Set(rooms.flatMap((room) => [...room])));
    expect((await (await openArray(inner, "a")).get()).data).toEqual(iota(256 * 256, 2));
  });

  it("an output larger than its chunk (random bytes, no checksum to strip) comes back in a buffer of its own", async () => {
    const random = Int32Array.from({ length: 256 * 256 }, (_, i) => Math.imul(i + 1, 0x9e3779b1) ^ (i >>> 3));
    const plain = new MemoryStore();
    await createArray(plain, "a", { ...DEFINITION, codecs: [BYTES, ZSTD] });
    await (await openArray(plain, "a", { workers: false })).set(null, random);
    const { store, inner, buffers } = piecewise();
    await createArray(store, "a", { ...DEFINITION, codecs: [BYTES, ZSTD] });
    await (await openArray(store, "a", WORKERS)).set(null, random);
    const pieces = buffers.flatMap((shard) => shard.slice(0, -1));
    // zstd stores incompressible bytes raw, in a frame a few bytes longer than the 256-byte chunk.
    expect(pieces.some((buffer) => !sharedBuffer(buffer))).toBe(true);
    for (const key of ["a/c/0/0", "a/c/0/1", "a/c/1/0", "a/c/1/1"]) {
      expect(await inner.get(key), key).toEqual(await plain.get(key));
    }
  });
});

describe("a shard's inner chunks of bare bytes, encoded by one copy each", () => {
  it("are encoded here from an ordinary array (copying it into shared memory costs more)", async () => {
    const store = new MemoryStore();
    const array = await createArray(store, "a", { ...DEFINITION, codecs: [BYTES] });
    // A threshold above a shard index's 4 KiB keeps the indexes here too, below a shard's 64 KiB of inner chunks.
    const writer = await openArray(store, "a", { workers: { threshold: 8192, size: 2 } });
    const data = iota(256 * 256);
    expect(await moved(() => writer.set(null, data))).toEqual({ dispatched: 0, written: 0, ranHere: 0 });
    expect((await array.get()).data).toEqual(data);
  });

  it("are encoded here from an array over shared memory too (a worker would make a fresh chunk of each)", async () => {
    const store = new MemoryStore();
    const array = await createArray(store, "a", { ...DEFINITION, codecs: [BYTES] });
    const writer = await openArray(store, "a", { workers: { threshold: 8192, size: 2 } });
    const data = sharedIota(256 * 256);
    expect(await moved(() => writer.set(null, data))).toEqual({ dispatched: 0, written: 0, ranHere: 0 });
    expect((await array.get()).data).toEqual(data);
  });
});

describe("a shard's inner chunks decoded by the workers in batches", () => {
  for (const [what, codecs] of [
    ["bare bytes (the workers copy them)", [BYTES]],
    ["zstd", [BYTES, ZSTD]],
    ["zstd + crc32c", [BYTES, ZSTD, CRC]],
  ] as const) {
    it(`${what}: a few tasks per shard, each written into the shared result by a worker`, async () => {
      const store = new MemoryStore();
      const array = await createArray(store, "a", { ...DEFINITION, codecs: [...codecs] });
      await array.set(null, iota(256 * 256));
      await array.set([slice(8, 16), slice(0, 8)], 0); // one inner chunk all fill value: not stored
      const expected = (await openArray(store, "a", { workers: false }).then((a) => a.get())).data;
      const fresh = await openArray(store, "a", WORKERS);
      let got: unknown;
      const counts = await moved(async () => (got = (await fresh.get()).data));
      expect(got).toEqual(expected);
      expect((got as Int32Array).buffer).toBeInstanceOf(SharedArrayBuffer);
      // One task per inner chunk would be 1023; batches of at most half a shard's chunks (2 workers) make 2 per shard,
      // and threshold 0 sends each shard's index (its own small pipeline) too: at most 12.
      expect(counts.dispatched + counts.ranHere).toBeLessThanOrEqual(12);
      // The batches the workers took were written into the result (the indexes come back as buffers).
      expect(counts.written).toBeGreaterThan(0);
      expect(counts.written).toBeLessThanOrEqual(8);
      // A partial selection across shards too, into an ordinary result (copied out of shared memory at the end).
      const selection = [slice(5, 250, 3), slice(100, 200)] as const;
      const part = await fresh.get(selection as never, { shared: false });
      expect((part.data as Int32Array).buffer).toBeInstanceOf(ArrayBuffer);
      expect(part.data).toEqual(
        (await openArray(store, "a", { workers: false }).then((a) => a.get(selection as never))).data,
      );
    });
  }

  it(
    "from a store that returns its own buffers (HTTP, S3: no getRangeInto), a shard's range is copied into shared " +
      "memory once and batched",
    async () => {
      const store = new MemoryStore();
      const array = await createArray(store, "a", { ...DEFINITION, codecs: [BYTES, ZSTD] });
      await array.set(null, iota(256 * 256));
      const remote = {
        get: store.get.bind(store),
        getRange: store.getRange.bind(store),
        getRangeWithSize: store.getRangeWithSize.bind(store),
      };
      const fresh = await openArray(remote, "a", WORKERS);
      let got: unknown;
      const counts = await moved(async () => (got = (await fresh.get()).data));
      expect(got).toEqual(iota(256 * 256));
      expect(counts.dispatched + counts.ranHere).toBeLessThanOrEqual(12);
      expect(counts.written).toBeGreaterThan(0);
    },
  );

  it(
    "one inner chunk read on its own is decoded on the calling thread: a round trip to a worker would " + "cost more",
    async () => {
      const store = new MemoryStore();
      const array = await createArray(store, "a", { ...DEFINITION, codecs: [BYTES, ZSTD] });
      await array.set(null, iota(256 * 256));
      const fresh = await openArray(store, "a", WORKERS);
      const one = [slice(8, 16), slice(16, 24)] as const;
      await fresh.get(one as never); // the shard's index, now cached
      let got: unknown;
      const counts = await moved(async () => (got = (await fresh.get(one as never)).data));
      expect(got).toEqual((await openArray(store, "a", { workers: false }).then((a) => a.get(one as never))).data);
      expect(counts).toEqual({ dispatched: 0, written: 0, ranHere: 1 });
    },
  );

  it("an inner chunk that fails its checksum in a batch rejects the read with a ChecksumError naming it", async () => {
    const store = new MemoryStore();
    const array = await createArray(store, "a", { ...DEFINITION, codecs: [BYTES, ZSTD, CRC] });
    await array.set(null, iota(256 * 256));
    const shard = (await store.get("a/c/1/0"))!;
    shard[100] = shard[100]! ^ 0xff; // inside an early inner chunk of shard [1, 0]
    await store.set("a/c/1/0", shard);
    const fresh = await openArray(store, "a", WORKERS);
    let failure: unknown;
    const counts = await moved(
      async () =>
        (failure = await fresh.get().then(
          () => undefined,
          (error: unknown) => error,
        )),
    );
    expect(counts.dispatched).toBeGreaterThan(0);
    expect(failure).toBeInstanceOf(ChecksumError);
    expect((failure as ChecksumError).key).toMatch(/^a\/c\/1\/0\[\d+,\d+\]$/);
  });
});
