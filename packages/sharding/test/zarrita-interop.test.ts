import { type CodecMetadata, MemoryStore, slice, type Store } from "@zarrkit/core";
import "@zarrkit/codecs";
import "@zarrkit/crc32c";
import { describe, expect, it } from "vitest";
import * as zarrita from "zarrita";
import { BYTES, CRC, createArray } from "./helpers.js";

/** zarrita.js addresses keys with a leading slash. */
function asZarritaStore(store: Store) {
  return {
    get: (key: string) => store.get(key.replace(/^\//, "")),
    getRange: (key: string, range: { offset: number; length: number } | { suffixLength: number }) =>
      store.getRange!(key.replace(/^\//, ""), range),
  };
}

async function readWithZarrita(store: Store, path: string) {
  const arr = await zarrita.open(zarrita.root(asZarritaStore(store) as never).resolve(path), { kind: "array" });
  return (await zarrita.get(arr)) as { data: ArrayLike<number>; shape: number[] };
}

describe("zarrita.js reads what zarrkit writes", () => {
  const innerCodecs: Record<string, CodecMetadata[]> = {
    bytes: [BYTES],
    "bytes + gzip": [BYTES, { name: "gzip", configuration: { level: 5 } }],
    "bytes + zstd": [BYTES, { name: "zstd", configuration: { level: 0, checksum: false } }],
  };
  for (const strategy of ["rewrite", "append", "in-place"] as const) {
    for (const [codecName, codecs] of Object.entries(innerCodecs)) {
      it(`${strategy} writes, ${codecName} inner chunks, bytes + crc32c index at the end`, async () => {
        const store = new MemoryStore();
        const arr = await createArray(
          store,
          "g/arr",
          {
            shape: [10, 12],
            dataType: "uint16",
            chunkShape: [2, 3],
            shardShape: [4, 6],
            codecs,
            indexCodecs: [BYTES, CRC],
          },
          { codecOptions: { sharding_indexed: { writeStrategy: strategy } } },
        );
        const model = Uint16Array.from({ length: 120 }, (_, i) => (i * 37) % 1000);
        await arr.set(null, model);
        await arr.set([slice(1, 7), slice(2, 9)], 7);
        await arr.set([3, slice(0, 12, 5)], Uint16Array.of(1, 2, 3));
        await arr.set([slice(8, 10), slice(6, 12)], 0);
        const mine = (await arr.get()).data as Uint16Array;
        const theirs = await readWithZarrita(store, "g/arr");
        expect(theirs.shape).toEqual([10, 12]);
        expect(Array.from(theirs.data)).toEqual(Array.from(mine));
        expect(mine[3 * 12 + 5]).toBe(2);
      });
    }
  }
});
