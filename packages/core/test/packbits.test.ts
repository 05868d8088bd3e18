// The zarr-extensions packbits codec through real arrays: full-width types pack to exactly the bytes codec's
// little-endian bytes (as the registry page says), narrow types to the bit sequence a reference in the test builds
// (element i's bits first_bit..last_bit at sequence bits i*k.., least significant bit first, as zarrs packs),
// with each padding encoding; typed errors for bad configurations and damaged chunks.
import { describe, expect, it } from "vitest";
import {
  type ArrayData,
  CorruptDataError,
  createArray,
  InvalidMetadataError,
  MemoryStore,
  openArray,
  UnsupportedError,
} from "../src/index.js";

type Config = Record<string, unknown>;

async function stored(dataType: string, data: ArrayData, configuration: Config) {
  const store = new MemoryStore();
  const codecs = [{ name: "packbits", configuration }];
  const shape = [data.length / (dataType.startsWith("complex") ? 2 : 1)];
  const arr = await createArray(store, "a", { shape, dataType, chunkShape: shape, codecs });
  await arr.set(null, data);
  const bytes = (await store.get("a/c/0"))!;
  const back = (await (await openArray(store, "a")).get()).data;
  return { bytes, back, store };
}

/** The reference packing: the given bit values of each element, LSB first, then the padding byte where asked. */
function reference(values: number[], firstBit: number, lastBit: number, padding: string): number[] {
  const bits: number[] = [];
  for (const v of values) for (let b = firstBit; b <= lastBit; b++) bits.push(Math.floor(v / 2 ** b) % 2);
  const pad = (8 - (bits.length % 8)) % 8;
  const bytes = Array.from({ length: Math.ceil(bits.length / 8) }, (_, i) =>
    bits.slice(8 * i, 8 * i + 8).reduce((a, bit, j) => a + bit * 2 ** j, 0),
  );
  return padding === "first_byte" ? [pad, ...bytes] : padding === "last_byte" ? [...bytes, pad] : bytes;
}

const PADDINGS = ["none", "first_byte", "last_byte"];

describe("packbits", () => {
  it.each([
    ["int16", Int16Array.from([1, -2, 300, -32768, 32767])],
    ["float32", Float32Array.from([1.5, -0, Number.NaN, 3.4e38])],
    ["uint64", BigUint64Array.from([0n, 2n ** 64n - 1n, 12345678901234n])],
    ["complex64", Float32Array.from([1, -1, 0.5, 2])],
  ] as const)("packs %s at full width to exactly the bytes codec's little-endian bytes", async (dataType, data) => {
    const plain = new MemoryStore();
    const arr = await createArray(plain, "a", {
      shape: [data.length / (dataType === "complex64" ? 2 : 1)],
      dataType,
      chunkShape: [data.length / (dataType === "complex64" ? 2 : 1)],
      codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    });
    await arr.set(null, data);
    const { bytes, back } = await stored(dataType, data, {});
    expect(Array.from(bytes)).toEqual(Array.from((await plain.get("a/c/0"))!));
    expect(back).toEqual(data);
  });

  it.each([
    ["int2", Int8Array.from([-2, -1, 0, 1, 1, -2, 0]), 2],
    ["uint2", Uint8Array.from([0, 1, 2, 3, 3, 2, 1]), 2],
    ["int4", Int8Array.from([-8, -1, 0, 7, 3, -5, 1, 2, -3]), 4],
    ["uint4", Uint8Array.from([0, 15, 9, 1, 7]), 4],
    ["float4_e2m1fn", Float32Array.from([0.5, -6, 1.5, 0, -0.5]), 4],
    ["float6_e3m2fn", Float32Array.from([28, -0.0625, 1.25, 3]), 6],
    ["bool", Uint8Array.from([1, 0, 0, 1, 1, 1, 0, 1, 0, 1, 1]), 1],
  ] as const)(
    "packs %s into %i-bit fields as the reference does, with each padding encoding",
    async (dataType, data, bits) => {
      // The stored bit patterns, as the bytes codec writes them (low bits of a byte).
      const plain = new MemoryStore();
      const arr = await createArray(plain, "a", { shape: [data.length], dataType, chunkShape: [data.length] });
      await arr.set(null, data);
      const patterns = Array.from((await plain.get("a/c/0"))!);
      for (const padding_encoding of PADDINGS) {
        const { bytes, back } = await stored(dataType, data, { padding_encoding });
        expect(Array.from(bytes), padding_encoding).toEqual(reference(patterns, 0, bits - 1, padding_encoding));
        expect(back).toEqual(data);
      }
    },
  );

  it("packs bits first_bit..last_bit of int16 and sign-extends them when reading", async () => {
    for (const [firstBit, lastBit] of [
      [0, 11],
      [3, 14],
      [2, 12],
    ] as const) {
      const values = Array.from({ length: 40 }, (_, i) => (i - 20) * 2 ** firstBit);
      const data = Int16Array.from(values);
      const { bytes, back } = await stored("int16", data, {
        first_bit: firstBit,
        last_bit: lastBit,
        padding_encoding: "last_byte",
      });
      const unsigned = values.map((v) => (v + 65536) % 65536);
      expect(Array.from(bytes)).toEqual(reference(unsigned, firstBit, lastBit, "last_byte"));
      expect(Array.from(back as Int16Array)).toEqual(values);
    }
  });

  it("refuses bad configurations with a typed error naming the field", async () => {
    const bad = (dataType: string, configuration: Config) => stored(dataType, Uint8Array.from([1]), configuration);
    await expect(bad("uint8", { padding_encoding: "start" })).rejects.toThrow(
      expect.objectContaining({ field: "codecs[0].configuration.padding_encoding" }),
    );
    await expect(bad("uint2", { last_bit: 2 })).rejects.toThrow(
      expect.objectContaining({ field: "codecs[0].configuration.last_bit" }),
    );
    await expect(bad("uint8", { first_bit: 5, last_bit: 4 })).rejects.toThrow(
      /last_bit \(4\) is less than first_bit \(5\)/,
    );
    await expect(bad("uint8", { first_bit: 1.5 })).rejects.toThrow(InvalidMetadataError);
    await expect(bad("uint8", { level: 1 })).rejects.toThrow(
      expect.objectContaining({ field: "codecs[0].configuration.level" }),
    );
    await expect(stored("string", ["x"], {})).rejects.toThrow(UnsupportedError);
  });

  it("refuses a chunk of the wrong length or padding byte as corrupt, naming the key", async () => {
    const { store } = await stored("int4", Int8Array.from([1, 2, 3]), { padding_encoding: "first_byte" });
    const arr = await openArray(store, "a");
    expect(Array.from((await store.get("a/c/0"))!)).toEqual([4, 0x21, 0x03]); // 12 bits and 4 of padding
    await store.set("a/c/0", Uint8Array.from([3, 0x21, 0x03]));
    await expect(arr.get()).rejects.toThrow(CorruptDataError);
    await expect(arr.get()).rejects.toThrow(/a\/c\/0: its padding byte says 3 bits where the chunk leaves 4/);
    await store.set("a/c/0", Uint8Array.from([4, 0x21, 0x03, 0]));
    await expect(arr.get()).rejects.toThrow(expect.objectContaining({ key: "a/c/0" }));
  });
});
