import { describe, expect, it } from "vitest";
import {
  type ArrayMetadataV2,
  ChecksumError,
  consolidateMetadata,
  CorruptDataError,
  countRequests,
  createArray,
  createGroup,
  InvalidMetadataError,
  InvalidSelectionError,
  MemoryStore,
  NotFoundError,
  open,
  openArray,
  openGroup,
  type Store,
  StoreError,
  UnsupportedError,
  ZarrArray,
  ZarrGroup,
} from "../src/index.js";
import { encodeJson, parseFillValueV2, parseJson, parseNumpyDtype } from "../src/internal.js";
import { sequence } from "./helpers.js";

const NUMERIC: [string, string][] = [
  ["|b1", "bool"],
  ["|i1", "int8"],
  ["|u1", "uint8"],
  ["<i2", "int16"],
  [">i2", "int16"],
  ["<u2", "uint16"],
  [">u2", "uint16"],
  ["<i4", "int32"],
  [">i4", "int32"],
  ["<u4", "uint32"],
  ["<i8", "int64"],
  [">i8", "int64"],
  ["<u8", "uint64"],
  [">u8", "uint64"],
  ["<f2", "float16"],
  [">f2", "float16"],
  ["<f4", "float32"],
  [">f4", "float32"],
  ["<f8", "float64"],
  [">f8", "float64"],
  ["<c8", "complex64"],
  [">c8", "complex64"],
  ["<c16", "complex128"],
  [">c16", "complex128"],
];

function zarray(fields: Partial<ArrayMetadataV2> & Record<string, unknown> = {}): ArrayMetadataV2 {
  return {
    zarr_format: 2,
    shape: [4],
    chunks: [2],
    dtype: "<i2",
    compressor: null,
    fill_value: 0,
    order: "C",
    filters: null,
    ...fields,
  };
}

async function storedJson(store: Store, key: string): Promise<unknown> {
  const bytes = await store.get(key);
  return bytes && parseJson(bytes, key);
}

describe("Zarr v2 data types", () => {
  it.each(NUMERIC)("maps %s to %s", (dtype, name) => {
    const np = parseNumpyDtype(dtype);
    expect(np.type.name).toBe(name);
    expect(np.endian).toBe(np.type.storedSlotSize === 1 ? undefined : dtype[0] === "<" ? "little" : "big");
  });

  it("maps fixed-width and object strings", () => {
    expect(parseNumpyDtype("<U13").type.name).toBe("fixed_length_utf32:52");
    expect(parseNumpyDtype(">U13").endian).toBe("big");
    expect(parseNumpyDtype("|S7").type.name).toBe("null_terminated_bytes:7");
    expect(parseNumpyDtype("|O")).toMatchObject({ object: true, endian: undefined });
  });

  it.each([
    ["|V8", /void/],
    ["<M4", /no Zarr v3 data type/],
    ["<f16", /no Zarr v3 data type/],
    ["<i3", /no Zarr v3 data type/],
  ])("refuses %s with UnsupportedError naming it", (dtype, why) => {
    const fn = () => parseNumpyDtype(dtype);
    expect(fn).toThrow(UnsupportedError);
    expect(fn).toThrow(why);
    expect(fn).toThrow(dtype);
  });

  it("refuses structured dtypes in both byte orders when opening, naming the key and the field", async () => {
    const store = new MemoryStore();
    await store.set(
      "s/.zarray",
      encodeJson(
        zarray({
          dtype: [
            ["a", "<i4"],
            ["b", ">f8"],
          ] as unknown as string,
        }),
      ),
    );
    const error = await openArray(store, "s").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedError);
    expect(error).toMatchObject({ key: "s/.zarray", field: "dtype" });
    expect((error as Error).message).toMatch(/both byte orders/);
  });

  it.each(["int16", "<i", "i2", "|i2", "<U0"])(
    "refuses the malformed dtype %s as InvalidMetadataError",
    async (dtype) => {
      const store = new MemoryStore();
      await store.set("a/.zarray", encodeJson(zarray({ dtype })));
      await expect(openArray(store, "a")).rejects.toMatchObject({
        code: "INVALID_METADATA",
        key: "a/.zarray",
        field: "dtype",
      });
    },
  );
});

describe("Zarr v2 arrays", () => {
  it.each(NUMERIC)("writes and reads %s (%s) with the dtype's byte order", async (dtype, name) => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", { format: 2, shape: [5], chunkShape: [3], dataType: dtype });
    expect(arr.dataType).toBe(name);
    expect(arr.metadata).toMatchObject({
      zarr_format: 2,
      dtype,
      chunks: [3],
      order: "C",
      compressor: null,
      filters: null,
    });
    const data = sequence(name, 5);
    await arr.set(null, data);
    const back = await (await openArray(store, "a")).get();
    expect(Array.from(back.data as ArrayLike<unknown>)).toEqual(Array.from(data as ArrayLike<unknown>));
  });

  it("stores big-endian values big-endian and uses '.' chunk keys", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", { format: 2, shape: [2, 2], chunkShape: [1, 2], dataType: ">i2" });
    await arr.set(null, Int16Array.from([1, 2, 3, 4]));
    expect(Array.from((await store.get("a/1.0"))!)).toEqual([0, 3, 0, 4]);
    const slashed = await createArray(store, "b", {
      format: 2,
      shape: [2, 2],
      chunkShape: [1, 2],
      dataType: "<i2",
      dimensionSeparator: "/",
    });
    await slashed.set(null, 1);
    expect(await store.get("b/1/0")).toBeDefined();
    expect(await store.get("b/1.0")).toBeUndefined();
  });

  it("stores order F chunks in Fortran order and reads them back in C order", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "f", {
      format: 2,
      shape: [2, 3],
      chunkShape: [2, 3],
      dataType: "|u1",
      order: "F",
    });
    await arr.set(null, Uint8Array.from([0, 1, 2, 3, 4, 5]));
    expect(Array.from((await store.get("f/0.0"))!)).toEqual([0, 3, 1, 4, 2, 5]);
    const back = await (await openArray(store, "f")).get([1, null]);
    expect(Array.from(back.data as Uint8Array)).toEqual([3, 4, 5]);
  });

  it(
    "reads and writes fixed-width strings: UTF-32 both byte orders, |S as Latin-1, trailing " + "NULs removed",
    async () => {
      const store = new MemoryStore();
      for (const dtype of ["<U3", ">U3", "|S3"]) {
        const arr = await createArray(store, dtype, { format: 2, shape: [4], chunkShape: [4], dataType: dtype });
        const values = dtype === "|S3" ? ["a", "bé", "", "xyz"] : ["a", "😀é", "", "xyz"];
        await arr.set(null, values);
        expect((await (await openArray(store, dtype)).get()).data).toEqual(values);
        await expect(arr.set([0], dtype === "|S3" ? "Ā" : "abcd")).rejects.toThrow(InvalidSelectionError);
      }
      expect(Array.from((await store.get(">U3/0"))!.subarray(0, 8))).toEqual([0, 0, 0, 0x61, 0, 0, 0, 0]);
      expect(Array.from((await store.get("|S3/0"))!)).toEqual([0x61, 0, 0, 0x62, 0xe9, 0, 0, 0, 0, 0x78, 0x79, 0x7a]);
    },
  );

  it("reads fill values: null, NaN, Infinity, base64 bytes and strings", async () => {
    const store = new MemoryStore();
    const cases: [Partial<ArrayMetadataV2>, unknown[]][] = [
      [{ dtype: "<f4", fill_value: null }, [0, 0]],
      [{ dtype: "<f8", fill_value: "NaN" }, [Number.NaN, Number.NaN]],
      [{ dtype: ">f4", fill_value: "-Infinity" }, [-Infinity, -Infinity]],
      [{ dtype: "<i8", fill_value: null }, [0n, 0n]],
      [{ dtype: "|b1", fill_value: true }, [1, 1]],
      [{ dtype: "<c8", fill_value: [1, "NaN"] }, [1, Number.NaN, 1, Number.NaN]],
      [{ dtype: "|S4", fill_value: btoa("ab") }, ["ab", "ab"]],
      [{ dtype: "<U4", fill_value: "héj" }, ["héj", "héj"]],
    ];
    for (const [i, [fields, want]] of cases.entries()) {
      await store.set(`x${i}/.zarray`, encodeJson(zarray({ shape: [2], chunks: [2], ...fields })));
      const arr = await openArray(store, `x${i}`);
      expect(arr.metadata).toEqual(zarray({ shape: [2], chunks: [2], ...fields }));
      expect(Array.from((await arr.get()).data as ArrayLike<unknown>), fields.dtype as string).toEqual(want);
    }
    // zarr-python writes 0 as the fill value of object arrays: read as "".
    expect(parseFillValueV2(0, parseNumpyDtype("|O"))).toBe("");
    expect(parseFillValueV2("x", parseNumpyDtype("|O"))).toBe("x");
    await store.set("bad/.zarray", encodeJson(zarray({ dtype: "|S4", fill_value: "not base64!" })));
    await expect(openArray(store, "bad")).rejects.toMatchObject({
      code: "INVALID_METADATA",
      key: "bad/.zarray",
      field: "fill_value",
    });
  });

  it("writes NaN and base64 fill values as zarr-python does", async () => {
    const store = new MemoryStore();
    await createArray(store, "n", { format: 2, shape: [1], chunkShape: [1], dataType: "<f8", fillValue: "NaN" });
    await createArray(store, "s", { format: 2, shape: [1], chunkShape: [1], dataType: "|S3", fillValue: "ab" });
    expect(await storedJson(store, "n/.zarray")).toMatchObject({ fill_value: "NaN", dtype: "<f8" });
    expect(await storedJson(store, "s/.zarray")).toMatchObject({ fill_value: btoa("ab"), dtype: "|S3" });
  });

  it("writes .zarray, .zattrs and .zgroup parents; metadata is the document as stored", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "g/a", {
      format: 2,
      shape: [3],
      chunkShape: [2],
      dataType: "int16",
      attributes: { unit: "m" },
    });
    expect(await storedJson(store, "g/a/.zarray")).toEqual(arr.metadata);
    expect(arr.metadata).toEqual(zarray({ shape: [3], chunks: [2], dtype: "<i2", fill_value: 0 }));
    expect(await storedJson(store, "g/a/.zattrs")).toEqual({ unit: "m" });
    expect(await storedJson(store, "g/.zgroup")).toEqual({ zarr_format: 2 });
    expect(await storedJson(store, ".zgroup")).toEqual({ zarr_format: 2 });
    expect(await store.get("zarr.json")).toBeUndefined();
    const doc = await createArray(store, "g/b", { ...zarray({ dtype: ">f8" }), attributes: { x: 1 } });
    expect(doc.metadata).toEqual(zarray({ dtype: ">f8" }));
    expect(await storedJson(store, "g/b/.zattrs")).toEqual({ x: 1 });
    await expect(
      createArray(store, "g/a", { format: 2, shape: [1], chunkShape: [1], dataType: "|u1" }),
    ).rejects.toThrow(/already exists/);
    await expect(
      createArray(store, "g/a/c", { format: 2, shape: [1], chunkShape: [1], dataType: "|u1" }),
    ).rejects.toThrow(/inside array/);
    const group = await createGroup(store, "h", { format: 2, attributes: { t: 1 } });
    expect(group.format).toBe(2);
    expect(await storedJson(store, "h/.zgroup")).toEqual({ zarr_format: 2 });
    expect(await storedJson(store, "h/.zattrs")).toEqual({ t: 1 });
    const g = await openGroup(store, "g");
    expect(await g.childNames()).toEqual(["a", "b"]);
    const a = await open(store, "g/a");
    expect(a).toBeInstanceOf(ZarrArray);
    expect((a as ZarrArray).attributes).toEqual({ unit: "m" });
    expect(await openGroup(store, "h")).toMatchObject({ attributes: { t: 1 } });
  });

  it("resizes, writing the new shape to .zarray", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", { format: 2, shape: [4], chunkShape: [2], dataType: "|u1" });
    await arr.set(null, Uint8Array.from([1, 2, 3, 4]));
    await arr.resize([2]);
    expect(await storedJson(store, "a/.zarray")).toEqual(zarray({ shape: [2], dtype: "|u1" }));
    expect(await store.get("a/1")).toBeUndefined();
    expect(Array.from((await (await openArray(store, "a")).get()).data as Uint8Array)).toEqual([1, 2]);
  });

  it("opens v3 where both formats are present, and probes no further than asked", async () => {
    const inner = new MemoryStore();
    await createArray(inner, "a", { shape: [2], dataType: "uint8", chunkShape: [2] });
    await inner.set("a/.zarray", encodeJson(zarray()));
    expect((await openArray(inner, "a")).format).toBe(3);
    expect((await openArray(inner, "a", { format: 2 })).format).toBe(2);
    const store = countRequests(inner);
    await openArray(store, "a", { format: 2 });
    expect(store.log.map((r) => r.key).sort()).toEqual(["a/.zarray", "a/.zattrs"]);
    await inner.delete("a/zarr.json");
    await expect(openArray(inner, "a", { format: 3 })).rejects.toThrow(NotFoundError);
    await expect(open(inner, "nothing")).rejects.toThrow(NotFoundError);
  });

  it("names the .zarray key and field of lying documents", async () => {
    const store = new MemoryStore();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ chunks: [2, 2] }, "chunks", "INVALID_METADATA"],
      [{ chunks: [0] }, "chunks", "INVALID_METADATA"],
      [{ shape: [-1] }, "shape", "INVALID_METADATA"],
      [{ order: "K" }, "order", "INVALID_METADATA"],
      [{ compressor: { id: "no-such-codec" } }, "compressor", "UNSUPPORTED"],
      [{ compressor: { level: 1 } }, "compressor", "INVALID_METADATA"],
      [{ filters: [{ id: "nope" }] }, "filters[0]", "UNSUPPORTED"],
      [{ dtype: "|O", filters: null }, "filters", "INVALID_METADATA"],
      [{ dimension_separator: "-" }, "dimension_separator", "INVALID_METADATA"],
      [{ fill_value: "zero" }, "fill_value", "INVALID_METADATA"],
      [{ zarr_format: 3 }, "zarr_format", "UNSUPPORTED"],
    ];
    for (const [i, [fields, field, code]] of cases.entries()) {
      await store.set(`l${i}/.zarray`, encodeJson(zarray(fields)));
      const error = await openArray(store, `l${i}`).catch((e: unknown) => e);
      expect(error, JSON.stringify(fields)).toMatchObject({ code, key: `l${i}/.zarray`, field });
    }
    const missing = { ...zarray() } as Record<string, unknown>;
    delete missing.filters;
    await store.set("m/.zarray", encodeJson(missing));
    await expect(openArray(store, "m")).rejects.toMatchObject({ key: "m/.zarray", field: "filters" });
  });

  it("reports corrupt chunks with their key", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", { format: 2, shape: [4], chunkShape: [2], dataType: "<i4" });
    await store.set("a/1", new Uint8Array(5));
    const error = await arr.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptDataError);
    expect(error).toMatchObject({ key: "a/1" });
    expect(error).not.toBeInstanceOf(ChecksumError);
  });
});

describe("consolidated metadata", () => {
  async function hierarchy(format: 2 | 3): Promise<MemoryStore> {
    const store = new MemoryStore();
    await createGroup(store, "", { format, attributes: { root: true } });
    await createArray(
      store,
      "a",
      format === 2
        ? { format: 2, shape: [2], chunkShape: [2], dataType: "|u1" }
        : { shape: [2], chunkShape: [2], dataType: "uint8" },
    );
    await createGroup(store, "g", { format, attributes: { g: 1 } });
    await createArray(
      store,
      "g/my array",
      format === 2
        ? { format: 2, shape: [3], chunkShape: [3], dataType: "<i2", attributes: { u: 1 } }
        : { shape: [3], chunkShape: [3], dataType: "int16", attributes: { u: 1 } },
    );
    await createGroup(store, "g/empty", { format });
    return store;
  }

  it.each([2, 3] as const)(
    "v%i: consolidateMetadata writes it and a store that cannot list opens the tree with one request",
    async (format) => {
      const inner = await hierarchy(format);
      expect(await consolidateMetadata(inner)).toBe(4);
      if (format === 2)
        expect(await storedJson(inner, ".zmetadata")).toMatchObject({
          zarr_consolidated_format: 1,
          metadata: { ".zgroup": { zarr_format: 2 }, "g/my array/.zattrs": { u: 1 } },
        });
      else
        expect(await storedJson(inner, "zarr.json")).toMatchObject({
          consolidated_metadata: {
            kind: "inline",
            must_understand: false,
            metadata: { "g/my array": { attributes: { u: 1 } } },
          },
        });
      const store = countRequests({ get: (key: string) => inner.get(key) });
      const root = await openGroup(store, "", { format });
      expect(root.attributes).toEqual({ root: true });
      const seen: string[] = [];
      const walk = async (group: ZarrGroup<unknown>): Promise<void> => {
        for await (const child of group.children()) {
          seen.push(`${(child as ZarrGroup | ZarrArray).path}:${(child as ZarrGroup | ZarrArray).format}`);
          if (child instanceof ZarrGroup) await walk(child);
        }
      };
      await walk(root);
      expect(seen).toEqual(["a", "g", "g/empty", "g/my array"].map((p) => `${p}:${format}`));
      expect((await root.open("g/my array")) as ZarrArray).toMatchObject({ attributes: { u: 1 }, shape: [3] });
      expect(store.log.map((r) => r.key)).toEqual([format === 2 ? ".zmetadata" : "zarr.json"]);
    },
  );

  it.each([2, 3] as const)(
    "v%i: reads the documents of a large hierarchy several at a time, and writes them in key order",
    async (format) => {
      const inner = await hierarchy(format);
      for (let i = 0; i < 40; i++)
        await createGroup(inner, `many/${String(i).padStart(2, "0")}`, { format, attributes: { i } });
      let inFlight = 0;
      let most = 0;
      const store = Object.assign(Object.create(inner) as MemoryStore, {
        get: async (key: string) => {
          most = Math.max(most, ++inFlight);
          await new Promise((resolve) => setImmediate(resolve));
          inFlight--;
          return inner.get(key);
        },
      });
      expect(await consolidateMetadata(store)).toBe(45);
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(16);
      const doc = (await storedJson(inner, format === 2 ? ".zmetadata" : "zarr.json")) as {
        metadata: object;
        consolidated_metadata: { metadata: object };
      };
      // In the order of the documents' keys, whatever order the reads finished in.
      const keys =
        format === 2
          ? Object.keys(doc.metadata)
          : Object.keys(doc.consolidated_metadata.metadata).map((path) => `${path}/zarr.json`);
      expect(keys).toEqual([...keys].sort());
    },
  );

  it("v2: open() of the root with no format probes zarr.json and the v2 documents at once", async () => {
    const inner = await hierarchy(2);
    await consolidateMetadata(inner);
    const store = countRequests(inner);
    const root = (await open(store, "")) as ZarrGroup<unknown>;
    expect(root.consolidated?.format).toBe(2);
    expect(await root.childNames()).toEqual(["a", "g"]);
    expect(store.log.map((r) => r.key).sort()).toEqual([".zarray", ".zattrs", ".zgroup", ".zmetadata", "zarr.json"]);
  });

  it(
    "is a snapshot: writes do not update it until consolidateMetadata runs again; consolidated: false reads " +
      "the store",
    async () => {
      const store = await hierarchy(3);
      await consolidateMetadata(store, "g");
      await createArray(store, "g/late", { shape: [1], chunkShape: [1], dataType: "uint8" });
      const readOnly = { get: (key: string) => store.get(key) };
      expect(await (await openGroup(readOnly, "g")).childNames()).toEqual(["empty", "my array"]);
      expect(await (await openGroup(store, "g", { consolidated: false })).childNames()).toEqual([
        "empty",
        "late",
        "my array",
      ]);
      await consolidateMetadata(store, "g");
      expect(await (await openGroup(readOnly, "g")).childNames()).toEqual(["empty", "late", "my array"]);
    },
  );

  it("consolidateMetadata refuses what is not a group, and a store that cannot write, naming the key", async () => {
    const store = await hierarchy(3);
    await expect(consolidateMetadata(store, "missing")).rejects.toThrow(NotFoundError);
    await expect(consolidateMetadata(store, "missing")).rejects.toMatchObject({ key: "missing/zarr.json" });
    await expect(consolidateMetadata(store, "a")).rejects.toThrow(InvalidMetadataError);
    await expect(consolidateMetadata(store, "a")).rejects.toMatchObject({
      key: "a/zarr.json",
      field: "node_type",
      message: "a/zarr.json describes an array, not a group",
    });
    const v2 = await hierarchy(2);
    await expect(consolidateMetadata(v2, "a")).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: 'No Zarr node at "a": zarr.json, .zgroup missing',
    });
    await v2.set("g/.zgroup", encodeJson({ zarr_format: 3 }));
    await expect(consolidateMetadata(v2, "g")).rejects.toMatchObject({
      code: "UNSUPPORTED",
      key: "g/.zgroup",
      field: "zarr_format",
    });
    const readOnly = { get: (key: string) => store.get(key), list: (prefix: string) => store.list(prefix) };
    await expect(consolidateMetadata(readOnly, "g")).rejects.toThrow(StoreError);
    await expect(consolidateMetadata(readOnly, "g")).rejects.toThrow(
      'Cannot consolidate the metadata of "g": the store is read-only',
    );
    expect(await storedJson(store, "g/zarr.json")).not.toHaveProperty("consolidated_metadata");
  });

  it("refuses malformed consolidated documents naming key and field", async () => {
    const store = new MemoryStore();
    await store.set(".zmetadata", encodeJson({ zarr_consolidated_format: 2, metadata: {} }));
    await expect(openGroup(store, "", { format: 2 })).rejects.toMatchObject({
      code: "UNSUPPORTED",
      key: ".zmetadata",
      field: "zarr_consolidated_format",
    });
    await store.set(
      ".zmetadata",
      encodeJson({ zarr_consolidated_format: 1, metadata: { ".zgroup": { zarr_format: 2 }, "../x/.zarray": {} } }),
    );
    await expect(openGroup(store, "", { format: 2 })).rejects.toMatchObject({
      code: "INVALID_METADATA",
      key: ".zmetadata",
    });
    await store.set(
      "zarr.json",
      encodeJson({
        zarr_format: 3,
        node_type: "group",
        attributes: {},
        consolidated_metadata: { kind: "remote", metadata: {} },
      }),
    );
    await expect(openGroup(store, "")).rejects.toMatchObject({
      code: "UNSUPPORTED",
      key: "zarr.json",
      field: "consolidated_metadata.kind",
    });
    await expect(openGroup(store, "", { consolidated: false })).resolves.toBeInstanceOf(ZarrGroup);
    const entry = new MemoryStore();
    await entry.set(
      "zarr.json",
      encodeJson({
        zarr_format: 3,
        node_type: "group",
        attributes: {},
        consolidated_metadata: { metadata: { a: { zarr_format: 3, node_type: "array" } } },
      }),
    );
    await expect((await openGroup(entry, "")).open("a")).rejects.toBeInstanceOf(InvalidMetadataError);
  });
});
