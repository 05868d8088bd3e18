import { describe, expect, it } from "vitest";
import * as zk from "../src/node.js";

const b = (...values: number[]) => Uint8Array.from(values);
const lists = (data: zk.ArrayData) => (data as Uint8Array[]).map((item) => Array.from(item));
const VALUES = [b(1, 2, 3), b(), b(0), b(255, 0, 255), new Uint8Array(5000).fill(9), b(42)];

describe("variable-length byte strings through zarrkit's codecs", () => {
  it("Zarr v2: a |O array with the vlen-bytes object codec (and a compressor) written and read back", async () => {
    const store = new zk.MemoryStore();
    const arr = await zk.createArray(store, "v2", {
      format: 2,
      shape: [2, 3],
      chunkShape: [1, 2],
      dataType: "|O",
      filters: [{ id: "vlen-bytes" }],
      compressor: { id: "zlib", level: 1 },
      order: "F",
    });
    expect(arr.dataType).toBe("variable_length_bytes");
    await arr.set(null, VALUES);
    const doc = JSON.parse(new TextDecoder().decode(await store.get("v2/.zarray")));
    expect(doc).toMatchObject({
      dtype: "|O",
      filters: [{ id: "vlen-bytes" }],
      fill_value: "",
      compressor: { id: "zlib", level: 1 },
    });
    const again = await zk.open(store, "v2");
    expect(again).toBeInstanceOf(zk.ZarrArray);
    const read = again as zk.ZarrArray;
    expect(read.dataType).toBe("variable_length_bytes");
    expect(lists((await read.get()).data)).toEqual(VALUES.map((v) => Array.from(v)));
    expect(lists((await read.get([1, zk.slice(0, 3, 2)])).data)).toEqual([[255, 0, 255], [42]]);
  });

  it(
    "Zarr v3 as zarr-python 3 writes it: variable_length_bytes with vlen-bytes (and " + "numcodecs.vlen-bytes)",
    async () => {
      const store = new zk.MemoryStore();
      for (const codec of ["vlen-bytes", "numcodecs.vlen-bytes"]) {
        const arr = await zk.createArray(store, codec, {
          shape: [6],
          chunkShape: [4],
          dataType: "variable_length_bytes",
          fillValue: "AQ==",
          codecs: [{ name: codec }, { name: "zstd", configuration: { level: 1, checksum: false } }],
        });
        await arr.set([zk.slice(0, 3)], VALUES.slice(0, 3));
        const again = await zk.openArray(store, codec);
        expect(again.metadata).toMatchObject({ data_type: "variable_length_bytes", fill_value: "AQ==" });
        expect(lists((await again.get()).data)).toEqual([[1, 2, 3], [], [0], [1], [1], [1]]);
      }
      // The zarr-extensions name "bytes" reads as the same type.
      await store.set(
        "ext/zarr.json",
        new TextEncoder().encode(
          JSON.stringify({
            zarr_format: 3,
            node_type: "array",
            shape: [2],
            data_type: "bytes",
            chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
            chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
            fill_value: "",
            codecs: [{ name: "vlen-bytes" }],
          }),
        ),
      );
      expect(lists((await (await zk.openArray(store, "ext")).get()).data)).toEqual([[], []]);
    },
  );

  it(
    "a corrupt chunk is CorruptDataError naming its key; a chunk decoding past maxDecodedChunkBytes " + "is refused",
    async () => {
      const store = new zk.MemoryStore();
      const arr = await zk.createArray(store, "c", {
        format: 2,
        shape: [2],
        chunkShape: [2],
        dataType: "variable_length_bytes",
      });
      await arr.set(null, [new Uint8Array(3000), new Uint8Array(3000)]);
      const small = await zk.openArray(store, "c", { maxDecodedChunkBytes: 4096 });
      // Uncompressed: the stored chunk is read as it is, the cap applies to what compressors inflate.
      expect(lists((await small.get()).data).map((x) => x.length)).toEqual([3000, 3000]);
      const zipped = await zk.createArray(store, "z", {
        format: 2,
        shape: [2],
        chunkShape: [2],
        dataType: "variable_length_bytes",
        compressor: { id: "zlib", level: 1 },
      });
      await zipped.set(null, [new Uint8Array(3000), new Uint8Array(3000)]);
      await expect((await zk.openArray(store, "z", { maxDecodedChunkBytes: 4096 })).get()).rejects.toBeInstanceOf(
        zk.CorruptDataError,
      );
      await store.set("c/0", b(2, 0, 0, 0, 9, 0, 0, 0, 1, 0, 0, 0, 0));
      const error = await arr.get().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(zk.CorruptDataError);
      expect(error).toMatchObject({ key: "c/0" });
      expect((error as Error).message).toMatch(
        /numcodecs\.vlen-bytes: cannot decode c\/0: item 0 declares 9 bytes but only 5 remain/,
      );
    },
  );
});
