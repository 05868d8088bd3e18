// Inner chunks compressed with zstd are decoded into the zstd decoder's wasm
// memory and copied from there straight into the result: the values are the
// same as ever, and reading allocates no decoded buffer per inner chunk.
import { MemoryStore, openArray, slice } from "@zarrkit/core";
import "@zarrkit/codecs";
import "@zarrkit/crc32c";
import { describe, expect, it } from "vitest";
import { BYTES, CRC, createArray } from "./helpers.js";

const ZSTD = { name: "zstd", configuration: { level: 1, checksum: false } };

function content(n: number): Uint16Array {
  // Smooth enough to compress, varied enough to catch misplaced elements.
  return Uint16Array.from({ length: n }, (_, i) => (i * 7 + (i >> 9)) % 65521);
}

async function sharded(shape: number[], shardShape: number[], innerShape: number[], innerCodecs: unknown[]) {
  const store = new MemoryStore();
  const arr = await createArray(store, "a", {
    shape,
    dataType: "uint16",
    chunkShape: shardShape,
    fillValue: 0,
    codecs: [
      {
        name: "sharding_indexed",
        configuration: { chunk_shape: innerShape, codecs: innerCodecs, index_codecs: [BYTES, CRC] },
      },
    ] as never,
  });
  const data = content(shape.reduce((a, b) => a * b, 1));
  await arr.set(null, data);
  return { store, data };
}

describe("zstd inner chunks decoded straight into the result", () => {
  it("read the same values on every path: whole, partial, edge chunks, steps, fill-valued inner chunks", async () => {
    const { store, data } = await sharded([70, 50, 37], [32, 32, 32], [16, 16, 8], [BYTES, ZSTD]);
    // Inner chunk [0, 0, 0] of shard [0, 0, 0] all fill value: not stored.
    const arr = await openArray(store, "a", { workers: false });
    await arr.set([slice(0, 16), slice(0, 16), slice(0, 8)], 0);
    const expected = data.slice();
    for (let i = 0; i < 16; i++)
      for (let j = 0; j < 16; j++) expected.fill(0, (i * 50 + j) * 37, (i * 50 + j) * 37 + 8);
    expect((await arr.get()).data).toEqual(expected);
    const at = (i: number, j: number, k: number) => expected[(i * 50 + j) * 37 + k]!;
    for (const [sel, shape] of [
      [
        [slice(5, 69), slice(3, 48), slice(1, 36)],
        [64, 45, 35],
      ],
      [
        [slice(0, 70, 3), slice(49, 50), slice(0, 37, 5)],
        [24, 1, 8],
      ],
      [
        [slice(64, 70), slice(32, 50), slice(32, 37)],
        [6, 18, 5],
      ],
    ] as const) {
      const got = await arr.get(sel as never);
      expect(got.shape).toEqual(shape);
      const [a, b, c] = sel as unknown as { start: number; stop: number; step: number | null }[];
      const want: number[] = [];
      for (let i = a!.start; i < a!.stop; i += a!.step ?? 1)
        for (let j = b!.start; j < b!.stop; j += b!.step ?? 1)
          for (let k = c!.start; k < c!.stop; k += c!.step ?? 1) want.push(at(i, j, k));
      expect(Array.from(got.data as Uint16Array)).toEqual(want);
    }
  });

  it("a corrupt inner chunk fails the read with CorruptDataError naming it", async () => {
    // With zstd's content checksum: flipped literal bytes would otherwise decode to other values unnoticed.
    const { store } = await sharded(
      [32, 32, 32],
      [32, 32, 32],
      [16, 16, 16],
      [BYTES, { name: "zstd", configuration: { level: 1, checksum: true } }],
    );
    const shard = (await store.get("a/c/0/0/0"))!.slice();
    // Flip bytes in the middle of the first stored inner chunk's frame.
    for (let i = 100; i < 140; i++) shard[i] = shard[i]! ^ 0xff;
    await store.set("a/c/0/0/0", shard);
    const arr = await openArray(store, "a", { workers: false });
    const error = await arr.get([slice(0, 16), slice(0, 16), slice(0, 16)]).catch((e: unknown) => e);
    expect((error as Error).name).toBe("CorruptDataError");
    expect((error as Error).message).toMatch(/a\/c\/0\/0\/0/);
  });

  it("reading inner chunks allocates their results, not a decoded buffer per inner chunk as well", async () => {
    // 64^3 uint16 inner chunks: 512 KiB each decoded.
    const { store } = await sharded([64, 64, 512], [64, 64, 512], [64, 64, 64], [BYTES, ZSTD]);
    const arr = await openArray(store, "a", { workers: false });
    await arr.get([slice(0, 64), slice(0, 64), slice(448, 512)]); // index cached, wasm loaded and grown
    const inner = 64 * 64 * 64 * 2;
    const results = [];
    const before = process.memoryUsage().arrayBuffers;
    for (let z = 0; z < 8; z++) results.push(await arr.get([slice(0, 64), slice(0, 64), slice(z * 64, z * 64 + 64)]));
    const growth = process.memoryUsage().arrayBuffers - before;
    expect(results.every((r) => r.data.length === inner / 2)).toBe(true);
    // The 8 results (4 MiB) and the stored inner chunks the store copies out (at most the shard); a decoded
    // buffer per inner chunk would add another 4 MiB.
    const stored = (await store.get("a/c/0/0/0"))!.length;
    expect(growth).toBeLessThan(8 * inner + stored + 256 * 1024);
  });
});
