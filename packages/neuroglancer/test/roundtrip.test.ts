import { prng } from "@zarrkit/test-utils/noise";
import {
  decodeMinishardIndex,
  decodeShardIndex,
  disassembleShard,
  parseShardingSpec,
  ShardReader,
  type ShardingSpec,
  shardIndexSize,
  shardLocation,
  synthesizeShards,
} from "@zarrkit/neuroglancer";
import fc from "fast-check";
import { gunzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { memoryStore } from "./helpers.js";
import { scrambledShards } from "./layouts.js";

const specArb = fc
  .record({
    hash: fc.constantFrom("identity", "murmurhash3_x86_128"),
    preshift_bits: fc.integer({ min: 0, max: 3 }),
    minishard_bits: fc.integer({ min: 0, max: 4 }),
    shard_bits: fc.integer({ min: 0, max: 3 }),
    minishard_index_encoding: fc.constantFrom("raw", "gzip"),
    data_encoding: fc.constantFrom("raw", "gzip"),
  })
  .map((json) => parseShardingSpec({ "@type": "neuroglancer_uint64_sharded_v1", ...json }));

const idArb = fc.oneof(fc.bigInt({ min: 0n, max: 300n }), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }));
const chunksArb = fc
  .uniqueArray(fc.tuple(idArb, fc.uint8Array({ maxLength: 40 })), { selector: ([id]) => id, maxLength: 40 })
  .map((entries) => new Map(entries));

const ascending = (ids: Iterable<bigint>) => [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** The chunks of `chunks` that belong in shard file `name`. */
const inFile = (spec: ShardingSpec, chunks: Map<bigint, Uint8Array>, name: string) =>
  new Map([...chunks].filter(([id]) => shardLocation(spec, id).key === name));

describe("round trips through synthesizeShards / scrambled layouts and ShardReader", () => {
  it("reads back every chunk, for every hash and encoding, any layout, with and without ranged reads", async () => {
    await fc.assert(
      fc.asyncProperty(
        specArb,
        chunksArb,
        fc.constantFrom("canonical", "scrambled", "zlib"),
        fc.boolean(),
        fc.integer(),
        async (spec, chunks, layout, ranges, seed) => {
          const files =
            layout === "canonical"
              ? synthesizeShards(spec, chunks)
              : scrambledShards(spec, chunks, prng(seed), { zlib: layout === "zlib" });
          const reader = new ShardReader(
            memoryStore(
              [...files].map(([n, b]) => [`d/${n}`, b]),
              { ranges },
            ),
            spec,
            {
              prefix: "d",
            },
          );
          let absent = 0n;
          while (chunks.has(absent)) absent++;
          expect(await reader.getMany([...chunks.keys(), absent])).toEqual(chunks);
          expect(await reader.get(absent)).toBeUndefined();
          for (const [id, data] of [...chunks].slice(0, 3)) expect(await reader.get(id)).toEqual(data);
          for (const [name, bytes] of files) {
            const expected = inFile(spec, chunks, name);
            expect(await reader.listIds(name)).toEqual(ascending(expected.keys()));
            expect(disassembleShard(spec, bytes, name)).toEqual(expected);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("writes ascending minishards, each with ascending ids and contiguous data followed by its index", () => {
    fc.assert(
      fc.property(specArb, chunksArb, (spec, chunks) => {
        const indexEnd = shardIndexSize(spec);
        for (const [name, file] of synthesizeShards(spec, chunks)) {
          expect(inFile(spec, chunks, name).size).toBeGreaterThan(0);
          let position = indexEnd;
          decodeShardIndex(file.subarray(0, indexEnd), name).forEach((range, minishard) => {
            if (!range) return;
            const stored = file.subarray(range.offset, range.offset + range.length);
            const raw = spec.minishard_index_encoding === "gzip" ? gunzipSync(stored) : stored;
            const entries = [...decodeMinishardIndex(raw, indexEnd, name)];
            expect(entries.map(([id]) => id)).toEqual(ascending(entries.map(([id]) => id)));
            for (const [id, chunk] of entries) {
              expect(shardLocation(spec, id).minishard).toBe(BigInt(minishard));
              expect(chunk.offset).toBe(position);
              position += chunk.length;
            }
            expect(range.offset).toBe(position);
            position += range.length;
          });
          expect(position).toBe(file.length);
        }
      }),
      { numRuns: 150 },
    );
  });
});
