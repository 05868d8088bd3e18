// Whole chunks read through a store that reads into caller memory go into a
// small pool of reused buffers: these tests count the distinct buffers a read
// hands the store, and check the values, which would show any view of a
// buffer kept after it went on to the next read.
import { concatBytes } from "@zarrkit/util";
import { describe, expect, it } from "vitest";
import { CorruptDataError, createArray, MemoryStore, openArray, type Store, slice } from "../src/index.js";

/** A memory store that records every buffer `getRangeInto` was asked to fill, and whether `get` was called. */
function recording(): { store: MemoryStore; buffers: Set<ArrayBufferLike>; gets: string[] } {
  const store = new MemoryStore();
  const buffers = new Set<ArrayBufferLike>();
  const gets: string[] = [];
  const into = store.getRangeInto.bind(store);
  const get = store.get.bind(store);
  store.getRangeInto = async (key, range, target, options) => {
    buffers.add(target.buffer);
    // A turn's wait lets reads overlap as they would on a real store.
    await new Promise((resolve) => setTimeout(resolve, 0));
    return into(key, range, target, options);
  };
  store.get = async (key) => {
    gets.push(key);
    return get(key);
  };
  return { store, buffers, gets };
}

const iota = (n: number) => Int32Array.from({ length: n }, (_, i) => i * 7 - 1000);

describe("pooled read buffers", () => {
  for (const [what, codecs, order] of [
    ["bytes", [{ name: "bytes", configuration: { endian: "little" } }], "C"],
    ["big-endian bytes", [{ name: "bytes", configuration: { endian: "big" } }], "C"],
    [
      "transpose then bytes (F order)",
      [
        { name: "transpose", configuration: { order: [1, 0] } },
        { name: "bytes", configuration: { endian: "little" } },
      ],
      "F",
    ],
  ] as const) {
    it(
      `a whole read of ${what} uses no more buffers than reads in flight, with edge and missing ` + `chunks right`,
      async () => {
        const { store, buffers, gets } = recording();
        const shape = [60, 44];
        const array = await createArray(store, "a", {
          shape,
          chunkShape: [8, 8],
          dataType: "int32",
          codecs: [...codecs],
          fillValue: -5,
        });
        const data = iota(60 * 44);
        await array.set(null, data);
        await store.delete("a/c/0/1");
        await store.delete("a/c/7/5");
        const expected = Int32Array.from(data);
        for (let r = 0; r < 60; r++) {
          for (let c = 0; c < 44; c++)
            if ((r < 8 && c >= 8 && c < 16) || (r >= 56 && c >= 40)) expected[r * 44 + c] = -5;
        }
        const fresh = await openArray(store, "a", { concurrency: 3 });
        buffers.clear();
        gets.length = 0;
        const got = await fresh.get();
        expect(Array.from(got.data as Int32Array)).toEqual(Array.from(expected));
        expect(buffers.size, `distinct buffers for 48 chunks (${order} order)`).toBeGreaterThan(0);
        expect(buffers.size).toBeLessThanOrEqual(3);
        expect(gets).toEqual([]);
        // A partial selection across chunks, stepped: the same values as slicing the whole.
        const part = await fresh.get([slice(3, 59, 5), slice(1, 43, 3)]);
        const want: number[] = [];
        for (let r = 3; r < 59; r += 5) for (let c = 1; c < 43; c += 3) want.push(expected[r * 44 + c]!);
        expect(Array.from(part.data as Int32Array)).toEqual(want);
      },
    );
  }

  it(
    "a stored chunk longer than any encoding of a chunk is read again whole and reported as corrupt, " +
      "naming the key",
    async () => {
      const { store, gets } = recording();
      const array = await createArray(store, "a", { shape: [8], chunkShape: [4], dataType: "int32" });
      await array.set(null, iota(8));
      const stored = (await store.get("a/c/1"))!;
      await store.set("a/c/1", Uint8Array.from([...stored, 0]));
      gets.length = 0;
      const error = await array.get().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CorruptDataError);
      expect((error as CorruptDataError).key).toBe("a/c/1");
      expect(gets).toEqual(["a/c/1"]);
    },
  );

  it("a store that cannot read into caller memory is read with get, as before", async () => {
    const inner = new MemoryStore();
    const gets: string[] = [];
    const get = (key: string) => {
      gets.push(key);
      return inner.get(key);
    };
    const store: Store = { get, set: (key, value) => inner.set(key, value), delete: (key) => inner.delete(key) };
    const array = await createArray(store, "a", { shape: [8], chunkShape: [4], dataType: "int32" });
    await array.set(null, iota(8));
    gets.length = 0;
    expect(Array.from((await array.get()).data as Int32Array)).toEqual(Array.from(iota(8)));
    expect(gets.sort()).toEqual(["a/c/0", "a/c/1"]);
  });

  it("reads one after another reuse a kept buffer; a whole read's buffers are kept only while reads go on", async () => {
    const { store, buffers } = recording();
    const array = await createArray(store, "a", {
      shape: [64, 64],
      chunkShape: [8, 8],
      dataType: "int32",
      codecs: [{ name: "bytes" }],
    });
    await array.set(null, iota(64 * 64));
    const fresh = await openArray(store, "a");
    buffers.clear();
    for (let i = 0; i < 20; i++) {
      const r = (i * 5) % 8;
      const got = await fresh.get([slice(r * 8, r * 8 + 8), slice(8, 16)]);
      expect((got.data as Int32Array)[0]).toBe(iota(64 * 64)[r * 8 * 64 + 8]);
    }
    expect(buffers.size, "distinct buffers for 20 chunks read one after another").toBe(1);
    const big = await createArray(store, "big", {
      shape: [1024, 1024],
      chunkShape: [1024, 1024],
      dataType: "int32",
      codecs: [{ name: "bytes" }],
    });
    await big.set(null, new Int32Array(1024 * 1024).fill(3));
    const whole = await openArray(store, "big");
    buffers.clear();
    await whole.get();
    await whole.get();
    expect(buffers.size, "the 4 MiB buffer of one read serves the next read soon after").toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await whole.get();
    expect(buffers.size, "... but not once the pool has been idle for a second").toBe(2);
  });
});

/**
 * A memory store that also takes values in pieces, keeping copies (as the contract asks) and recording the buffers the
 * pieces lay in; a turn's wait lets writes overlap as they would on a real store.
 */
function piecewise(): { store: Store; plain: MemoryStore; buffers: ArrayBufferLike[] } {
  const plain = new MemoryStore();
  const buffers: ArrayBufferLike[] = [];
  const store: Store = Object.assign(Object.create(plain) as MemoryStore, {
    async setParts(key: string, parts: readonly Uint8Array[]) {
      buffers.push(...parts.map((part) => part.buffer));
      await new Promise((resolve) => setTimeout(resolve, 0));
      await plain.set(key, concatBytes(parts));
    },
  });
  return { store, plain, buffers };
}

describe("whole chunks of the bytes codec alone, written to a store that takes pieces", () => {
  const definition = { shape: [64, 64], dataType: "int32", chunkShape: [16, 16], fillValue: 0 };

  it("are laid out in pooled buffers, reused from chunk to chunk; the stored bytes are a plain write's", async () => {
    const data = iota(64 * 64);
    data.fill(0, 0, 16 * 64); // the first row of chunks: all fill value, not stored
    const expected = new MemoryStore();
    await (await createArray(expected, "a", definition)).set(null, { data, shape: [64, 64] });
    const { store, plain, buffers } = piecewise();
    await createArray(store, "a", definition);
    const array = await openArray(store, "a", { concurrency: 4 });
    await array.set(null, { data, shape: [64, 64] });
    // 12 chunks written through no more buffers than writes in flight.
    expect(buffers).toHaveLength(12);
    expect(new Set(buffers).size).toBeLessThanOrEqual(4);
    for (const key of [...(await keysOf(expected))]) expect(await plain.get(key), key).toEqual(await expected.get(key));
    expect(await plain.get("a/c/0/0")).toBeUndefined();
    expect((await array.get()).data).toEqual(data);
  });

  it("keep a chunk all fill value with writeEmptyChunks", async () => {
    const { store, plain } = piecewise();
    await createArray(store, "a", definition);
    const array = await openArray(store, "a", { writeEmptyChunks: true });
    await array.set(null, 0);
    await array.set([slice(0, 16), slice(0, 16)], { data: new Int32Array(256), shape: [16, 16] });
    expect(await plain.get("a/c/0/0")).toEqual(new Uint8Array(1024));
  });
});

async function keysOf(store: MemoryStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list("")) keys.push(key);
  return keys;
}
