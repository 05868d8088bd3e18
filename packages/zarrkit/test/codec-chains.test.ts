import { describe, expect, it } from "vitest";
import * as zk from "../src/node.js";

/** Values of every data type's in-memory class, varied enough to catch misplaced elements. */
function values(type: string, n: number): zk.ArrayData {
  const i = (k: number) => k * 7 + 3;
  switch (type) {
    case "bool":
      return Uint8Array.from({ length: n }, (_, k) => (k % 3 === 0 ? 1 : 0));
    case "int8":
      return Int8Array.from({ length: n }, (_, k) => (i(k) % 256) - 128);
    case "uint8":
    case "r16":
      return Uint8Array.from({ length: type === "r16" ? 2 * n : n }, (_, k) => i(k) % 256);
    case "int16":
      return Int16Array.from({ length: n }, (_, k) => i(k) - 500);
    case "uint16":
      return Uint16Array.from({ length: n }, (_, k) => i(k) * 11);
    case "int32":
      return Int32Array.from({ length: n }, (_, k) => i(k) * 1_000_003 - 2 ** 30);
    case "uint32":
      return Uint32Array.from({ length: n }, (_, k) => i(k) * 2_654_435);
    case "int64":
      return BigInt64Array.from({ length: n }, (_, k) => BigInt(i(k)) * 10n ** 15n - 2n ** 62n);
    case "uint64":
      return BigUint64Array.from({ length: n }, (_, k) => 2n ** 64n - 1n - BigInt(k));
    case "float16":
      return Float32Array.from({ length: n }, (_, k) => k * 0.25 - 3);
    case "float32":
      return Float32Array.from({ length: n }, (_, k) => Math.sin(k) * 1000);
    case "float64":
      return Float64Array.from({ length: n }, (_, k) => Math.cos(k) * 1e12);
    case "complex64":
      return Float32Array.from({ length: 2 * n }, (_, k) => k * 0.5 - 4);
    case "complex128":
      return Float64Array.from({ length: 2 * n }, (_, k) => k / 3);
    case "string":
      return Array.from({ length: n }, (_, k) => (k % 5 === 0 ? "" : `é${k}✓`.repeat(k % 3)));
    default:
      throw new Error(type);
  }
}

const NUMERIC = [
  "bool",
  "int8",
  "uint8",
  "int16",
  "uint16",
  "int32",
  "uint32",
  "int64",
  "uint64",
  "float16",
  "float32",
  "float64",
  "complex64",
  "complex128",
  "r16",
];
const BYTES = { name: "bytes", configuration: { endian: "little" } };

const CHAINS: Record<string, (type: string) => zk.CodecMetadata[]> = {
  gzip: () => [BYTES, { name: "gzip", configuration: { level: 1 } }],
  zlib: () => [BYTES, { name: "zlib", configuration: { level: 1 } }],
  zstd: () => [BYTES, { name: "zstd", configuration: { level: 0, checksum: false } }],
  "blosc lz4 shuffle": () => [
    BYTES,
    { name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", blocksize: 0 } },
  ],
  "blosc zstd bitshuffle": () => [
    BYTES,
    { name: "blosc", configuration: { cname: "zstd", clevel: 3, shuffle: "bitshuffle", blocksize: 0 } },
  ],
  "transpose + big-endian bytes + crc32c": () => [
    { name: "transpose", configuration: { order: [1, 0] } },
    { name: "bytes", configuration: { endian: "big" } },
    { name: "crc32c" },
  ],
};

const LAYOUTS = [
  { name: "ragged chunks", shape: { chunkShape: [3, 4] } },
  { name: "shards of ragged inner chunks", shape: { chunkShape: [2, 2], shardShape: [4, 6] } },
];

describe("round trips: data type x codec chain x chunk layout", () => {
  for (const type of NUMERIC) {
    for (const [chainName, chain] of Object.entries(CHAINS)) {
      for (const layout of LAYOUTS) {
        it(`${type}, ${chainName}, ${layout.name}`, async () => {
          const store = new zk.MemoryStore();
          const arr = await zk.createArray(store, "a", {
            shape: [7, 9],
            dataType: type,
            ...layout.shape,
            codecs: chain(type),
          });
          const data = values(type, 63);
          await arr.set(null, data);
          expect((await zk.openArray(store, "a").then((a) => a.get())).data).toEqual(data);
          await arr.set([zk.slice(1, 3), zk.slice(2, 9, 3)], (await arr.get([zk.slice(4, 6), zk.slice(0, 3)])).data);
          const expected = await arr.get();
          const reopened = await zk.openArray(store, "a", { workers: false });
          expect((await reopened.get()).data).toEqual(expected.data);
          expect((await reopened.get([6, zk.slice(0, 9, 4)])).data).toEqual(
            (await arr.get([6, zk.slice(0, 9, 4)])).data,
          );
        });
      }
    }
  }

  for (const [chainName, codecs] of Object.entries({
    "vlen-utf8": [{ name: "vlen-utf8" }],
    "vlen-utf8 + zstd": [{ name: "vlen-utf8" }, { name: "zstd", configuration: { level: 3, checksum: false } }],
  })) {
    for (const layout of LAYOUTS) {
      it(`string, ${chainName}, ${layout.name}`, async () => {
        const store = new zk.MemoryStore();
        const arr = await zk.createArray(store, "s", { shape: [7, 9], dataType: "string", ...layout.shape, codecs });
        const data = values("string", 63) as string[];
        await arr.set(null, data);
        expect((await (await zk.openArray(store, "s")).get()).data).toEqual(data);
        await arr.set([3], "x");
        expect((await arr.get([3, 8])).data).toEqual(["x"]);
      });
    }
  }
});
