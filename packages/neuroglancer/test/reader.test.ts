import { prng } from "@zarrkit/test-utils/noise";
import {
  parseShardingSpec,
  ShardReader,
  type ShardingSpec,
  shardLocation,
  synthesizeShards,
  writeShards,
} from "@zarrkit/neuroglancer";
import { CorruptDataError, NotFoundError, UnsupportedError } from "@zarrkit/registry";
import { countRequests as countingStore } from "@zarrkit/core";
import { describe, expect, it } from "vitest";
import { describeVectors, hex, itemAt, memoryStore, nonEmpty, vectors } from "./helpers.js";
import { scrambledShards } from "./layouts.js";

const sharding = (json: object): ShardingSpec =>
  parseShardingSpec({ "@type": "neuroglancer_uint64_sharded_v1", hash: "identity", preshift_bits: 0, ...json });

/** Chunks with distinct contents: id i holds `size` bytes of (i * 7 + j) & 0xff. */
const chunksFor = (ids: Iterable<bigint>, size = 10) =>
  new Map([...ids].map((id) => [id, Uint8Array.from({ length: size }, (_, j) => (Number(id % 251n) * 7 + j) & 0xff)]));

const ranges = (store: ReturnType<typeof countingStore>) =>
  store.log.map((r) => (r.range && "offset" in r.range ? [r.range.offset, r.range.offset + r.range.length] : r.method));

describeVectors("tensorstore read trace (UnderlyingKeyValueStoreTest.Read)", () => {
  const trace = vectors?.shard_files.read_trace as NonNullable<typeof vectors>["shard_files"]["read_trace"];

  it(
    "issues the same first two requests; the trace's 24-byte answer to a 26-byte request is a " + "short read",
    async () => {
      const spec = parseShardingSpec(trace.spec);
      // Answer each request as the mock did, whatever the file would hold.
      const answers = new Map(trace.requests.map((r) => [r.byte_range.join(), hex(r.returns_hex)]));
      const store = countingStore({
        get: async () => undefined,
        getRange: async (_key, range) =>
          "offset" in range ? answers.get(`${range.offset},${range.offset + range.length}`) : undefined,
      });
      const reader = new ShardReader(store, spec, { prefix: "prefix" });
      await expect(reader.get(BigInt(trace.chunk_id))).rejects.toThrow(CorruptDataError);
      expect(store.log.map((r) => r.key)).toEqual(["prefix/0.shard", "prefix/0.shard"]);
      expect(ranges(store)).toEqual(trace.requests.slice(0, 2).map((r) => r.byte_range));
    },
  );

  it("reads a consistent version of the traced file in the traced three requests", async () => {
    const spec = parseShardingSpec(trace.spec);
    const file = new Uint8Array(61);
    new DataView(file.buffer).setBigUint64(0, 5n, true);
    new DataView(file.buffer).setBigUint64(8, 29n, true);
    file.set(hex("0506070809"), 32);
    file.set(hex("500000000000000000000000000000000500000000000000"), 37);
    const store = countingStore(memoryStore([["prefix/0.shard", file]]));
    const reader = new ShardReader(store, spec, { prefix: "prefix" });
    const third = itemAt(trace.requests, 2);
    expect(await reader.get(0x50n)).toEqual(hex(third.returns_hex));
    expect(ranges(store)).toEqual([[0, 16], [37, 61], third.byte_range]);
  });
});

describe("ShardReader request counts", () => {
  const spec = sharding({
    hash: "murmurhash3_x86_128",
    minishard_bits: 2,
    shard_bits: 1,
    minishard_index_encoding: "gzip",
  });
  const chunks = chunksFor(Array.from({ length: 64 }, (_, i) => BigInt(i) * 1000n));
  const files = [...synthesizeShards(spec, chunks)].map(([name, bytes]) => [`mesh/${name}`, bytes] as const);

  it("costs 3 ranged reads cold, 2 with the shard index entry cached, 1 in a cached minishard", async () => {
    const store = countingStore(memoryStore(files));
    const reader = new ShardReader(store, spec, { prefix: "mesh" });
    const ids = [...chunks.keys()];
    const [first, ...rest] = nonEmpty(ids);
    expect(await reader.get(first)).toEqual(chunks.get(first));
    expect(store.reads("getRange")).toBe(3);
    expect(store.reads("get")).toBe(0);

    store.reset();
    expect(await reader.get(first)).toEqual(chunks.get(first));
    expect(store.reads()).toBe(1);

    const sameMinishard = rest.find((id) => place(spec, id) === place(spec, first)) as bigint;
    store.reset();
    expect(await reader.get(sameMinishard)).toEqual(chunks.get(sameMinishard));
    expect(store.reads()).toBe(1);

    store.reset();
    expect(await reader.exists(sameMinishard)).toBeDefined();
    expect(store.reads()).toBe(0);
  });

  it("getMany coalesces each shard's index entries, minishard indexes and data into one read each", async () => {
    const store = countingStore(memoryStore(files));
    const reader = new ShardReader(store, spec, { prefix: "mesh" });
    expect(await reader.getMany(chunks.keys())).toEqual(chunks);
    expect(store.reads()).toBe(3 * files.length);
    store.reset();
    expect(await reader.getMany(chunks.keys())).toEqual(chunks);
    expect(store.reads()).toBe(files.length);
  });

  it("takes its default gap from the store's coalesceGapBytes hint; an explicit coalesceGapBytes wins", async () => {
    const readsWith = async (hint: number | undefined, options: { coalesceGapBytes?: number } = {}) => {
      const store = countingStore(
        Object.assign(memoryStore(files), hint === undefined ? {} : { coalesceGapBytes: hint }),
      );
      expect(await new ShardReader(store, spec, { prefix: "mesh", ...options }).getMany(chunks.keys())).toEqual(chunks);
      return store.reads();
    };
    const separate = await readsWith(undefined, { coalesceGapBytes: 0 });
    // A 1-byte gap splits ranges that are not adjacent; the default 32 KiB merges them.
    expect(await readsWith(1)).toBe(await readsWith(undefined, { coalesceGapBytes: 1 }));
    expect(await readsWith(1)).toBeGreaterThan(await readsWith(undefined));
    expect(await readsWith(1, { coalesceGapBytes: 32 * 1024 })).toBe(await readsWith(undefined));
    expect(await readsWith(1)).toBeLessThanOrEqual(separate);
    expect(() => new ShardReader(Object.assign(memoryStore(files), { coalesceGapBytes: -3 }), spec)).toThrow(
      /coalesceGapBytes hint must be a non-negative integer, got -3/,
    );
  });

  it("reads the deprecated coalesceGap (-1 too); a bad gap or both names are an InvalidOptionError", async () => {
    const reads = async (options: Record<string, unknown>) => {
      const store = countingStore(memoryStore(files));
      expect(await new ShardReader(store, spec, { prefix: "mesh", ...options }).getMany(chunks.keys())).toEqual(chunks);
      return store.reads();
    };
    expect(await reads({ coalesceGap: 1 })).toBe(await reads({ coalesceGapBytes: 1 }));
    // -1 merges nothing: 8 minishards in 2 shards, all non-empty: 8 entries + 8 indexes + 64 chunks.
    expect(await reads({ coalesceGap: -1 })).toBe(8 + 8 + 64);
    expect(() => new ShardReader(memoryStore(files), spec, { coalesceGapBytes: 1, coalesceGap: 1 })).toThrow(
      /coalesceGapBytes and coalesceGap/,
    );
    for (const options of [{ coalesceGapBytes: -1 }, { coalesceGapBytes: 1.5 }, { coalesceGap: -2 }]) {
      expect(() => new ShardReader(memoryStore(files), spec, options)).toThrow(
        expect.objectContaining({ name: "InvalidOptionError", field: Object.keys(options)[0] }),
      );
    }
  });

  it("reads each shard file whole, once per call, from stores without getRange", async () => {
    const store = countingStore(memoryStore(files, { ranges: false }));
    const reader = new ShardReader(store, spec, { prefix: "mesh" });
    expect(await reader.getMany(chunks.keys())).toEqual(chunks);
    expect(store.reads("get")).toBe(files.length);
    store.reset();
    const [id] = nonEmpty(chunks.keys());
    expect(await reader.get(id)).toEqual(chunks.get(id));
    expect(store.reads()).toBe(1);
  });

  it("bounds its caches", async () => {
    const store = countingStore(memoryStore(files));
    const reader = new ShardReader(store, spec, { prefix: "mesh", shardIndexCacheSize: 0, minishardIndexCacheSize: 0 });
    const [id] = nonEmpty(chunks.keys());
    await reader.get(id);
    store.reset();
    await reader.get(id);
    expect(store.reads()).toBe(3);

    // One cached minishard index: alternating between two minishards re-reads each index.
    const small = new ShardReader(store, spec, { prefix: "mesh", minishardIndexCacheSize: 1 });
    const [a, ...others] = nonEmpty(chunks.keys());
    const b = others.find(
      (x) => shardLocation(spec, x).key === shardLocation(spec, a).key && place(spec, x) !== place(spec, a),
    ) as bigint;
    await small.get(a);
    await small.get(b);
    store.reset();
    await small.get(a);
    expect(store.reads()).toBe(2);
  });

  it("answers for missing shard files without errors and remembers them", async () => {
    const store = countingStore(memoryStore());
    const reader = new ShardReader(store, spec, { prefix: "mesh" });
    expect(await reader.get(5n)).toBeUndefined();
    expect(await reader.exists(5n)).toBeUndefined();
    expect(await reader.getMany([5n, 6n])).toEqual(new Map());
    expect(await reader.listIds("0.shard")).toEqual([]);
    store.reset();
    expect(await reader.get(5n)).toBeUndefined();
    expect(store.reads()).toBe(0);
  });
});

/** Shard file and minishard of an id, as one comparable string. */
const place = (spec: ShardingSpec, id: bigint) => {
  const { key, minishard } = shardLocation(spec, id);
  return `${key}#${minishard}`;
};

describe("ShardReader results", () => {
  const spec = sharding({ minishard_bits: 1, shard_bits: 1, data_encoding: "gzip", minishard_index_encoding: "gzip" });
  const chunks = chunksFor([1n, 2n, 3n, 6n, 9n], 300);

  it("exists() gives the store key and byte range of the stored (encoded) bytes", async () => {
    const store = memoryStore();
    await writeShards(store, spec, chunks, { prefix: "skeletons/" });
    const reader = new ShardReader(store, spec, { prefix: "skeletons/" });
    const where = await reader.exists(9n);
    expect(where).toMatchObject({ key: "skeletons/0.shard" });
    const file = store.files.get("skeletons/0.shard") as Uint8Array;
    const stored = file.subarray(where?.offset, (where?.offset ?? 0) + (where?.length ?? 0));
    expect(stored.subarray(0, 2)).toEqual(Uint8Array.of(0x1f, 0x8b));
    expect(await reader.get(9n)).toEqual(chunks.get(9n));
  });

  it("reads 'gzip' data and indexes that are really zlib-wrapped", async () => {
    const store = memoryStore(scrambledShards(spec, chunks, prng(1), { zlib: true }));
    const reader = new ShardReader(store, spec);
    expect(await reader.getMany(chunks.keys())).toEqual(chunks);
    for (const id of chunks.keys()) {
      const where = await reader.exists(id);
      expect(store.files.get(where?.key ?? "")?.[where?.offset ?? 0]).toBe(0x78);
    }
  });

  it("rejects data that is neither gzip nor zlib, or fails to inflate", async () => {
    const raw = sharding({ minishard_bits: 1, shard_bits: 1 });
    const files = synthesizeShards(
      raw,
      new Map([
        [2n, Uint8Array.of(1, 2, 3)],
        [4n, Uint8Array.of(0x1f, 0x8b, 8, 0)],
      ]),
    );
    const reader = new ShardReader(memoryStore(files), { ...raw, data_encoding: "gzip" });
    await expect(reader.get(2n)).rejects.toThrow(/neither gzip nor zlib/);
    await expect(reader.get(4n)).rejects.toThrow(CorruptDataError);
  });

  it("sees rewritten shards after clearCache(), and a vanished file is NotFoundError", async () => {
    const store = memoryStore();
    await writeShards(store, spec, chunks);
    const reader = new ShardReader(store, spec);
    expect(await reader.get(2n)).toEqual(chunks.get(2n));
    await writeShards(store, spec, new Map([[2n, Uint8Array.of(42)]]));
    reader.clearCache();
    expect(await reader.get(2n)).toEqual(Uint8Array.of(42));
    store.files.clear();
    await expect(reader.get(2n)).rejects.toThrow(NotFoundError);
  });

  it("returns chunks that do not alias the store's or each other's memory", async () => {
    const raw = sharding({ minishard_bits: 0, shard_bits: 0 });
    const reader = new ShardReader(memoryStore(synthesizeShards(raw, chunks)), raw);
    const result = await reader.getMany(chunks.keys());
    for (const data of result.values()) expect(data.byteLength).toBe(data.buffer.byteLength);
  });

  it("writeShards needs a writable store", async () => {
    await expect(writeShards({ get: async () => undefined }, spec, chunks)).rejects.toThrow(UnsupportedError);
  });
});
