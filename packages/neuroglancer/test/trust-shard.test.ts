import {
  disassembleShard,
  encodeMinishardIndex,
  encodeShardIndex,
  parseShardingSpec,
  ShardReader,
  type ShardReaderOptions,
  type ShardingEncoding,
  type ShardingSpec,
} from "@zarrkit/neuroglancer";
import { ChecksumError, CorruptDataError, type RangeQuery, type Store, UnsupportedError } from "@zarrkit/registry";
import { coalesceRanges } from "@zarrkit/util";
import { gzipSync, zlibSync } from "fflate";
import { describe, expect, it } from "vitest";
import { memoryStore, oneMinishardShard, xorByte } from "./helpers.js";

// Findings 1 and 2 of the security probe: gzip trailers unchecked, inflation
// uncapped, and byte ranges from a corrupt index read without a size check.

const specOf = (data_encoding: ShardingEncoding, minishard_index_encoding: ShardingEncoding): ShardingSpec =>
  parseShardingSpec({
    "@type": "neuroglancer_uint64_sharded_v1",
    hash: "identity",
    preshift_bits: 0,
    minishard_bits: 0,
    shard_bits: 0,
    data_encoding,
    minishard_index_encoding,
  });

const payload = (n: number, seed = 1) =>
  Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed * 17 + (i >> 3)) & 0xff);

/** A store that records every range requested and answers from `files`. */
function spyStore(
  files: [string, Uint8Array][],
): Store & { requests: { key: string; offset: number; length: number }[] } {
  const inner = memoryStore(files);
  const requests: { key: string; offset: number; length: number }[] = [];
  return {
    requests,
    get: inner.get,
    getRange: async (key: string, range: RangeQuery) => {
      if ("offset" in range) requests.push({ key, offset: range.offset, length: range.length });
      return inner.getRange?.(key, range);
    },
  };
}

async function readAll(file: Uint8Array, spec: ShardingSpec, id: bigint, options: ShardReaderOptions = {}) {
  const reader = new ShardReader(memoryStore([["0.shard", file]]), spec, options);
  return reader.get(id);
}

describe("gzip trailers are checked (finding 1)", () => {
  const data = payload(300);

  it(
    "a flipped byte inside a stored gzip block of a chunk raises ChecksumError naming the key, not " + "changed data",
    async () => {
      const stored = gzipSync(data, { level: 0 }); // a stored block: the byte flips straight into the output
      xorByte(stored, 10 + 5 + 7, 0x40);
      const file = oneMinishardShard([[5n, stored]]);
      const spec = specOf("gzip", "raw");
      await expect(readAll(file, spec, 5n)).rejects.toThrow(ChecksumError);
      await expect(readAll(file, spec, 5n)).rejects.toMatchObject({
        key: "0.shard",
        message: expect.stringMatching(/chunk 5 in 0\.shard: gzip CRC-32 mismatch/),
      });
      expect(() => disassembleShard(spec, file, "0.shard")).toThrow(ChecksumError);
    },
  );

  it("a gzip chunk whose ISIZE disagrees with its data raises CorruptDataError", async () => {
    const stored = gzipSync(data, { level: 9 });
    xorByte(stored, stored.length - 4, 1); // ISIZE 301: more than 300, but the data ends first
    await expect(readAll(oneMinishardShard([[5n, stored]]), specOf("gzip", "raw"), 5n)).rejects.toThrow(
      CorruptDataError,
    );
    const smaller = gzipSync(data, { level: 9 });
    smaller[smaller.length - 4]! -= 1; // ISIZE 299: the data inflates past it
    await expect(readAll(oneMinishardShard([[5n, smaller]]), specOf("gzip", "raw"), 5n)).rejects.toThrow(
      /inflates to more than 299 bytes, the size its gzip trailer declares/,
    );
  });

  it(
    "a gzip minishard index with a bad CRC raises ChecksumError from get, exists, listIds and " + "disassembleShard",
    async () => {
      const file = oneMinishardShard(
        [
          [5n, data],
          [9n, data],
        ],
        (raw) => gzipSync(raw, { level: 0 }),
      );
      const spec = specOf("raw", "gzip");
      expect(await readAll(file, spec, 9n)).toEqual(data);
      // Byte 8 of the index's stored block: the id delta of the second entry (4) becomes 5, so id 10 would appear
      // instead.
      const indexStart = 16 + 2 * data.length;
      xorByte(file, indexStart + 10 + 5 + 8, 1);
      const reader = new ShardReader(memoryStore([["0.shard", file]]), spec);
      await expect(reader.get(9n)).rejects.toThrow(ChecksumError);
      await expect(reader.exists(9n)).rejects.toMatchObject({
        key: "0.shard",
        message: expect.stringContaining("minishard 0 index"),
      });
      await expect(reader.listIds("0.shard")).rejects.toThrow(ChecksumError);
      expect(() => disassembleShard(spec, file, "0.shard")).toThrow(ChecksumError);
    },
  );

  it("zlib-wrapped data (neuroglancer-scripts' gzip) has its Adler-32 checked", async () => {
    const good = zlibSync(data, { level: 0 });
    expect(await readAll(oneMinishardShard([[5n, good]]), specOf("gzip", "raw"), 5n)).toEqual(data);
    const bad = good.slice();
    xorByte(bad, 2 + 5 + 11, 2);
    await expect(readAll(oneMinishardShard([[5n, bad]]), specOf("gzip", "raw"), 5n)).rejects.toThrow(
      /zlib Adler-32 mismatch/,
    );
  });

  it("a truncated gzip member is CorruptDataError, not a short chunk", async () => {
    const stored = gzipSync(data, { level: 9 });
    await expect(readAll(oneMinishardShard([[5n, stored.subarray(0, 12)]]), specOf("gzip", "raw"), 5n)).rejects.toThrow(
      CorruptDataError,
    );
  });
});

describe("inflation is capped (finding 1, decompression bombs)", () => {
  // 32 MiB of zeros deflates to about 32 KiB.
  const bombSize = 32 * 2 ** 20;
  const bomb = gzipSync(new Uint8Array(bombSize), { level: 1 });
  const lying = bomb.slice();
  lying.set([100, 0, 0, 0], lying.length - 4); // ISIZE claims 100 bytes

  it("a chunk whose gzip trailer declares more than maxChunkBytes is refused before inflating", async () => {
    const file = oneMinishardShard([[5n, bomb]]);
    await expect(readAll(file, specOf("gzip", "raw"), 5n, { maxChunkBytes: 2 ** 20 })).rejects.toThrow(
      /declares 33554432 bytes, more than 1048576 bytes, the limit/,
    );
    expect(() => disassembleShard(specOf("gzip", "raw"), file, "0.shard", { maxChunkBytes: 2 ** 20 })).toThrow(
      CorruptDataError,
    );
  });

  it("a chunk whose trailer lies stops inflating at the declared size with CorruptDataError", async () => {
    const started = performance.now();
    await expect(readAll(oneMinishardShard([[5n, lying]]), specOf("gzip", "raw"), 5n)).rejects.toThrow(
      /chunk 5 in 0\.shard failed to decompress: inflates to more than 100 bytes, the size its gzip trailer declares/,
    );
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("a zlib bomb (no size trailer) stops at maxChunkBytes", async () => {
    const zbomb = zlibSync(new Uint8Array(8 * 2 ** 20), { level: 1 });
    await expect(
      readAll(oneMinishardShard([[5n, zbomb]]), specOf("gzip", "raw"), 5n, { maxChunkBytes: 2 ** 20 }),
    ).rejects.toThrow(/inflates to more than 1048576 bytes, the limit/);
  });

  it("getMany's maxDecodedBytes caps one call below maxChunkBytes", async () => {
    const stored = gzipSync(payload(4096), { level: 9 });
    const reader = new ShardReader(
      memoryStore([["0.shard", oneMinishardShard([[5n, stored]])]]),
      specOf("gzip", "raw"),
    );
    await expect(reader.getMany([5n], { maxDecodedBytes: 4095 })).rejects.toThrow(CorruptDataError);
    expect((await reader.getMany([5n], { maxDecodedBytes: 4096 })).get(5n)).toEqual(payload(4096));
  });

  it("a gzip minishard index inflating past maxMinishardIndexEntries * 24 bytes is refused", async () => {
    const file = oneMinishardShard([[5n, payload(10)]], () => lying);
    // 4000 entries: 96000 bytes decoded, and the ~32 KiB bomb passes the stored-size check.
    const reader = new ShardReader(memoryStore([["0.shard", file]]), specOf("raw", "gzip"), {
      maxMinishardIndexEntries: 4000,
    });
    await expect(reader.get(5n)).rejects.toThrow(
      /minishard 0 index in 0\.shard failed to decompress: inflates to more than 100 bytes/,
    );
    const honest = oneMinishardShard([[5n, payload(10)]], () => bomb);
    await expect(
      new ShardReader(memoryStore([["0.shard", honest]]), specOf("raw", "gzip"), {
        maxMinishardIndexEntries: 4000,
      }).get(5n),
    ).rejects.toThrow(/declares 33554432 bytes, more than 96000 bytes, the limit/);
    // With a bound of 1000 entries (24000 bytes) the stored bomb is refused before it is read.
    await expect(
      new ShardReader(memoryStore([["0.shard", honest]]), specOf("raw", "gzip"), {
        maxMinishardIndexEntries: 1000,
      }).get(5n),
    ).rejects.toThrow(/minishard 0 index at bytes \[26, \d+\) of 0\.shard is \d+ bytes, more than the limit of 24088/);
  });
});

describe("byte ranges from the index are bounded before reading (finding 2)", () => {
  const GiB = 2 ** 30;

  it(
    "a shard index claiming a 3 GiB chunk is CorruptDataError naming key and range, and nothing that large is " +
      "requested",
    async () => {
      // The minishard index (before the data, as tensorstore allows) says chunk 5 is 3 GiB long; the file is 40 bytes.
      const index = encodeMinishardIndex([{ id: 5n, start: 24, end: 24 + 3 * GiB }]);
      const file = new Uint8Array(16 + index.length);
      file.set(encodeShardIndex([[0, index.length]]));
      file.set(index, 16);
      const store = spyStore([["0.shard", file]]);
      const reader = new ShardReader(store, specOf("raw", "raw"));
      await expect(reader.get(5n)).rejects.toThrow(
        new RegExp(
          `chunk 5 at bytes \\[40, ${40 + 3 * GiB}\\) of 0\\.shard is ${3 * GiB} bytes, more than the limit of ` +
            `268435456 \\(maxChunkBytes\\)`,
        ),
      );
      await expect(reader.get(5n)).rejects.toMatchObject({ key: "0.shard" });
      expect(Math.max(...store.requests.map((r) => r.length))).toBeLessThanOrEqual(24);
      expect(() => disassembleShard(specOf("raw", "raw"), file, "0.shard")).toThrow(/more than the limit/);
    },
  );

  it("a shard index entry claiming a 3 GiB minishard index is refused before it is read", async () => {
    const file = encodeShardIndex([[0, 3 * GiB]]);
    const store = spyStore([["0.shard", file]]);
    const reader = new ShardReader(store, specOf("raw", "gzip"));
    await expect(reader.get(5n)).rejects.toThrow(
      new RegExp(
        `minishard 0 index at bytes \\[16, ${16 + 3 * GiB}\\) of 0\\.shard is ${3 * GiB} bytes, more than the limit ` +
          `of \\d+ \\(maxMinishardIndexEntries\\)`,
      ),
    );
    await expect(reader.listIds("0.shard")).rejects.toThrow(CorruptDataError);
    expect(store.requests.every((r) => r.length <= 16)).toBe(true);
  });

  it("a raw minishard index is bounded by exactly 24 * maxMinishardIndexEntries bytes", async () => {
    const file = oneMinishardShard([
      [1n, payload(1)],
      [2n, payload(1)],
      [3n, payload(1)],
    ]);
    const spec = specOf("raw", "raw");
    await expect(readAll(file, spec, 2n, { maxMinishardIndexEntries: 2 })).rejects.toThrow(
      /72 bytes, more than the limit of 48/,
    );
    expect(await readAll(file, spec, 2n, { maxMinishardIndexEntries: 3 })).toEqual(payload(1));
  });

  it("coalesced reads stay within maxChunkBytes: adjacent large chunks are fetched separately", async () => {
    const big = [payload(6000, 1), payload(6000, 2), payload(6000, 3)];
    const file = oneMinishardShard(big.map((b, i) => [BigInt(i + 1), b]));
    const store = spyStore([["0.shard", file]]);
    const reader = new ShardReader(store, specOf("raw", "raw"), { maxChunkBytes: 10000, coalesceGapBytes: 2 ** 20 });
    const got = await reader.getMany([1n, 2n, 3n]);
    expect([1n, 2n, 3n].map((id) => got.get(id))).toEqual(big);
    expect(Math.max(...store.requests.map((r) => r.length))).toBeLessThanOrEqual(10000);
    expect(store.requests.filter((r) => r.length === 6000)).toHaveLength(3);
    // Without the cap they would be one request.
    expect(
      coalesceRanges(
        [
          { offset: 0, length: 10 },
          { offset: 10, length: 10 },
        ],
        0,
        15,
      ).length,
    ).toBe(2);
    expect(
      coalesceRanges(
        [
          { offset: 0, length: 10 },
          { offset: 2, length: 5 },
        ],
        0,
        5,
      ).length,
    ).toBe(1);
  });

  it("listIds refuses a shard index larger than maxChunkBytes instead of reading it", async () => {
    const spec = parseShardingSpec({
      "@type": "neuroglancer_uint64_sharded_v1",
      hash: "identity",
      preshift_bits: 0,
      minishard_bits: 30,
      shard_bits: 0,
    });
    const store = spyStore([["0.shard", new Uint8Array(16)]]);
    await expect(new ShardReader(store, spec).listIds("0.shard")).rejects.toThrow(UnsupportedError);
    expect(store.requests).toEqual([]);
  });

  it("maxChunkBytes and maxMinishardIndexEntries must be positive integers", () => {
    expect(() => new ShardReader(memoryStore(), specOf("raw", "raw"), { maxChunkBytes: 0 })).toThrow(/maxChunkBytes/);
    expect(() => new ShardReader(memoryStore(), specOf("raw", "raw"), { maxMinishardIndexEntries: 1.5 })).toThrow(
      /maxMinishardIndexEntries/,
    );
  });
});
