// Narrowing what get() returns: is(name) and openArray's dataType (checked at
// run time with a typed error). The assignments are checked by tsc too.
import { describe, expect, it } from "vitest";
import { createArray, InvalidMetadataError, MemoryStore, openArray } from "../src/index.js";

async function uint16Store(): Promise<MemoryStore> {
  const store = new MemoryStore();
  const arr = await createArray(store, "raw", { shape: [4, 4], dataType: "uint16", chunkShape: [2, 2] });
  await arr.set([null, null], 513);
  return store;
}

describe("data type narrowing", () => {
  it("is(name) narrows get() to the data type's array", async () => {
    const arr = await openArray(await uint16Store(), "raw");
    const { data: wide } = await arr.get();
    // @ts-expect-error the union ArrayData is not a Uint16Array until narrowed
    const notYet: Uint16Array = wide;
    expect(notYet).toBeInstanceOf(Uint16Array);
    expect(arr.is("float32")).toBe(false);
    if (!arr.is("uint16")) throw new Error("expected uint16");
    const { data } = await arr.get([0, null]);
    const u: Uint16Array = data;
    expect(Array.from(u)).toEqual([513, 513, 513, 513]);
  });

  it(
    "openArray with dataType types get() and refuses another data type with a typed error " + "naming the key",
    async () => {
      const store = await uint16Store();
      const arr = await openArray(store, "raw", { dataType: "uint16" });
      const u: Uint16Array = (await arr.get([1, 1])).data;
      expect(Array.from(u)).toEqual([513]);
      const wrong = openArray(store, "raw", { dataType: "int64" });
      await expect(wrong).rejects.toThrow(InvalidMetadataError);
      await expect(wrong).rejects.toMatchObject({
        key: "raw/zarr.json",
        field: "data_type",
        message: 'raw/zarr.json: the array\'s data type is "uint16", not the "int64" asked for',
      });
    },
  );
});

describe("createArray's convenience form", () => {
  it("makes a bytes codec given without an endian little endian", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", {
      shape: [2],
      dataType: "uint16",
      chunkShape: [2],
      codecs: [{ name: "bytes" }],
    });
    await arr.set([null], { data: Uint16Array.of(1, 258), shape: [2] });
    const doc = JSON.parse(new TextDecoder().decode(await store.get("a/zarr.json")));
    expect(doc.codecs).toEqual([{ name: "bytes", configuration: { endian: "little" } }]);
    expect(Array.from((await store.get("a/c/0"))!)).toEqual([1, 0, 2, 1]);
    // One-byte types need no byte order: their codec is kept as given.
    await createArray(store, "b", { shape: [2], dataType: "uint8", chunkShape: [2], codecs: [{ name: "bytes" }] });
    expect(JSON.parse(new TextDecoder().decode(await store.get("b/zarr.json"))).codecs).toEqual([{ name: "bytes" }]);
  });
});
