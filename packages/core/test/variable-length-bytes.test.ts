import { describe, expect, it } from "vitest";
import { type Chunk, type CodecFactory, registerCodec } from "@zarrkit/registry";
import {
  createArray,
  dataType,
  InvalidMetadataError,
  InvalidSelectionError,
  MemoryStore,
  numpyDtypeOf,
  openArray,
  parseScalar,
  serializeScalar,
  slice,
  UnsupportedError,
} from "../src/index.js";
import {
  copySelection,
  fillSelection,
  isAllFill,
  objectDataType,
  parseFillValueV2,
  parseNumpyDtype,
} from "../src/internal.js";

// Core ships no codec for byte strings (@zarrkit/codecs does): a test stand-in in the vlen-bytes layout.
const testVlenBytes =
  (name: string): CodecFactory =>
  () => ({
    kind: "array_to_bytes" as const,
    name,
    encode: (chunk: Chunk) => {
      const items = chunk.data as Uint8Array[];
      const out = new Uint8Array(4 + items.reduce((n, item) => n + 4 + item.length, 0));
      const view = new DataView(out.buffer);
      view.setUint32(0, items.length, true);
      let at = 4;
      for (const item of items) {
        view.setUint32(at, item.length, true);
        out.set(item, at + 4);
        at += 4 + item.length;
      }
      return out;
    },
    decode: (bytes: Uint8Array, spec: { shape: readonly number[] }) => {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const items: Uint8Array[] = [];
      let at = 4;
      for (let i = 0; i < view.getUint32(0, true); i++) {
        const length = view.getUint32(at, true);
        items.push(bytes.slice(at + 4, at + 4 + length));
        at += 4 + length;
      }
      return { data: items, shape: [...spec.shape] };
    },
    toJSON: () => ({ name, configuration: {} }),
  });
registerCodec("vlen-bytes", () => testVlenBytes("vlen-bytes"));
registerCodec("numcodecs.vlen-bytes", () => testVlenBytes("numcodecs.vlen-bytes"));

const TYPE = dataType("variable_length_bytes");
const b = (...values: number[]) => Uint8Array.from(values);
const lists = (data: unknown) => (data as Uint8Array[]).map((item) => Array.from(item));

describe("the variable_length_bytes data type", () => {
  it(
    "is zarr-python 3's VariableLengthBytes: kind bytes, no fixed size, one lane, Uint8Array[] of empty " +
      "byte strings",
    () => {
      expect(TYPE).toMatchObject({
        name: "variable_length_bytes",
        kind: "bytes",
        byteSize: undefined,
        lanes: 1,
        objectCodecId: "vlen-bytes",
      });
      expect(dataType("bytes")).toBe(TYPE);
      expect(dataType({ name: "variable_length_bytes" })).toBe(TYPE);
      const data = TYPE.allocate(3) as Uint8Array[];
      expect(data).toHaveLength(3);
      expect(data.every((item) => item instanceof Uint8Array && item.length === 0)).toBe(true);
    },
  );

  it(
    "fill values: base64 text (as zarr-python writes them), lists of byte values, Uint8Array; written " + "as base64",
    () => {
      expect(Array.from(parseScalar("", TYPE) as Uint8Array)).toEqual([]);
      expect(Array.from(parseScalar("AAH/", TYPE) as Uint8Array)).toEqual([0, 1, 255]);
      expect(Array.from(parseScalar([104, 105], TYPE) as Uint8Array)).toEqual([104, 105]);
      expect(Array.from(parseScalar(b(7), TYPE) as Uint8Array)).toEqual([7]);
      expect(serializeScalar(b(0, 1, 255), TYPE)).toBe("AAH/");
      expect(serializeScalar(new Uint8Array(0), TYPE)).toBe("");
      expect(serializeScalar(new Uint8Array(100_000).fill(65), TYPE)).toBe("QUFB".repeat(33_333) + "QQ==");
      for (const bad of ["not base64!", "QQ=", [256], [1.5], 3, null, { a: 1 }]) {
        expect(() => parseScalar(bad, TYPE, "fill_value")).toThrow(InvalidMetadataError);
      }
      expect(() => parseScalar("QQ=", TYPE, "fill_value")).toThrow(
        /fill_value: expected base64 text for data type variable_length_bytes/,
      );
    },
  );

  it("fillSelection gives each element a copy of a non-empty fill; isAllFill compares bytes", () => {
    const chunk: Chunk = { data: TYPE.allocate(6), shape: [2, 3] };
    const fill = b(1, 2);
    fillSelection(
      chunk,
      [
        { start: 0, stop: 2, step: 1 },
        { start: 0, stop: 3, step: 2 },
      ],
      fill,
      TYPE,
    );
    expect(lists(chunk.data)).toEqual([[1, 2], [], [1, 2], [1, 2], [], [1, 2]]);
    const items = chunk.data as Uint8Array[];
    expect(items[0]).not.toBe(fill);
    expect(items[0]).not.toBe(items[2]);
    items[0]![0] = 9;
    expect(Array.from(fill)).toEqual([1, 2]);
    expect(isAllFill(chunk.data, fill, TYPE)).toBe(false);
    expect(isAllFill([b(1, 2), b(1, 2)], b(1, 2), TYPE)).toBe(true);
    expect(isAllFill([b(1, 2), b(1)], b(1, 2), TYPE)).toBe(false);
    expect(isAllFill(TYPE.allocate(4), new Uint8Array(0), TYPE)).toBe(true);
  });

  it("copySelection moves elements of strided selections", () => {
    const src: Chunk = { data: Array.from({ length: 12 }, (_, i) => b(i, i)), shape: [3, 4] };
    const out: Chunk = { data: TYPE.allocate(4), shape: [2, 2] };
    copySelection(
      src,
      [
        { start: 0, stop: 3, step: 2 },
        { start: 1, stop: 4, step: 2 },
      ],
      { chunk: out, offset: [0, 0] },
      TYPE,
    );
    expect(lists(out.data)).toEqual([
      [1, 1],
      [3, 3],
      [9, 9],
      [11, 11],
    ]);
  });
});

describe("variable_length_bytes arrays", () => {
  it("v3: set and get round trip whole arrays, selections across chunks and broadcast scalars", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "v", { shape: [5, 4], chunkShape: [2, 3], dataType: "variable_length_bytes" });
    expect(arr.metadata).toMatchObject({
      data_type: "variable_length_bytes",
      fill_value: "",
      codecs: [{ name: "vlen-bytes" }],
    });
    expect(lists((await arr.get()).data)).toEqual(Array.from({ length: 20 }, () => []));
    const values = Array.from({ length: 20 }, (_, i) => new Uint8Array(i).fill(i));
    await arr.set(null, values);
    const again = await openArray(store, "v");
    expect(again.dataType).toBe("variable_length_bytes");
    expect(lists((await again.get()).data)).toEqual(values.map((v) => Array.from(v)));
    const part = await again.get([slice(1, 5, 2), 2]);
    expect(part.shape).toEqual([2]);
    expect(lists(part.data)).toEqual([Array(6).fill(6), Array(14).fill(14)]);
    await again.set([slice(0, 5), slice(3, 4)], b(0xff, 0));
    await again.set([4, slice(0, 2)], { data: [b(1), b()], shape: [2] });
    const all = (await again.get()).data as Uint8Array[];
    expect(all).toHaveLength(20);
    for (let i = 0; i < 20; i++) {
      const [row, col] = [Math.floor(i / 4), i % 4];
      const expected = col === 3 ? [0xff, 0] : row === 4 && col < 2 ? [[1], []][col]! : Array(i).fill(i);
      expect(Array.from(all[i]!)).toEqual(expected);
    }
    // Elements handed out are not shared with the array's fill value or each other.
    all[3]![0] = 1;
    expect(Array.from(((await again.get([0, 3])).data as Uint8Array[])[0]!)).toEqual([0xff, 0]);
  });

  it(
    "a non-empty fill value reads where nothing was written, and chunks back at the fill value " + "are deleted",
    async () => {
      const store = new MemoryStore();
      const arr = await createArray(store, "f", {
        shape: [4],
        chunkShape: [2],
        dataType: "variable_length_bytes",
        fillValue: "AQI=",
      });
      expect(lists((await arr.get()).data)).toEqual([
        [1, 2],
        [1, 2],
        [1, 2],
        [1, 2],
      ]);
      await arr.set([slice(0, 2)], [b(5), b(6)]);
      expect(await store.get("f/c/0")).toBeDefined();
      await arr.set([slice(0, 2)], b(1, 2));
      expect(await store.get("f/c/0")).toBeUndefined();
    },
  );

  it("wrong values are typed errors and write nothing", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "e", { shape: [3], chunkShape: [1], dataType: "variable_length_bytes" });
    await expect(arr.set(null, "text")).rejects.toBeInstanceOf(InvalidSelectionError);
    await expect(arr.set(null, "text")).rejects.toThrow(
      /must be a Uint8Array \(one value for the whole selection\) or a Uint8Array\[\]/,
    );
    await expect(arr.set(null, [1, 2, 3] as unknown as Uint8Array[])).rejects.toThrow(
      /Element 0 .* is not a Uint8Array/,
    );
    await expect(arr.set(null, [b(1), b(2), "x"] as unknown as Uint8Array[])).rejects.toMatchObject({
      name: "InvalidSelectionError",
      field: "value",
    });
    expect(await store.get("e/c/0")).toBeUndefined();
    await expect(arr.set(null, [b(1)])).rejects.toThrow(/1 elements but the selection/);
    await expect(arr.set(null, new Uint16Array(3) as unknown as Uint8Array)).rejects.toBeInstanceOf(
      InvalidSelectionError,
    );
    await expect(
      createArray(store, "x", { shape: [3], chunkShape: [1], dataType: "variable_length_bytes", fillValue: 5 }),
    ).rejects.toMatchObject({
      name: "InvalidMetadataError",
      field: "fillValue",
    });
    await expect(
      createArray(store, "y", {
        shape: [3],
        chunkShape: [1],
        dataType: "variable_length_bytes",
        codecs: [{ name: "bytes", configuration: { endian: "little" } }],
      }),
    ).rejects.toThrow(/the bytes codec cannot store data type variable_length_bytes; use vlen-bytes/);
  });
});

describe("Zarr v2 object arrays of byte strings", () => {
  it("|O takes its element type from the object codec (the first filter)", () => {
    expect(parseNumpyDtype("|O", "dtype", "vlen-bytes").type).toBe(TYPE);
    expect(parseNumpyDtype("|O", "dtype", "vlen-utf8").type.name).toBe("string");
    expect(parseNumpyDtype("|O", "dtype", "json2").type.name).toBe("string");
    expect(parseNumpyDtype("|O").type.name).toBe("string");
    expect(objectDataType("vlen-bytes")).toBe(TYPE);
    expect(objectDataType("toString").name).toBe("string");
    expect(numpyDtypeOf(TYPE)).toBe("|O");
  });

  it('fill values: null, 0 (zarr-python 2) and "" read as no bytes; base64 as its bytes', () => {
    const np = parseNumpyDtype("|O", "dtype", "vlen-bytes");
    for (const value of [null, 0, ""]) expect(Array.from(parseFillValueV2(value, np) as Uint8Array)).toEqual([]);
    expect(Array.from(parseFillValueV2("aGk=", np) as Uint8Array)).toEqual([104, 105]);
    expect(() => parseFillValueV2("h!", np)).toThrow(InvalidMetadataError);
  });

  it("write and read back; .zarray as zarr-python writes it", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "o", {
      format: 2,
      shape: [3, 2],
      chunkShape: [2, 2],
      dataType: "variable_length_bytes",
    });
    expect(arr.metadata).toEqual({
      zarr_format: 2,
      shape: [3, 2],
      chunks: [2, 2],
      dtype: "|O",
      compressor: null,
      fill_value: "",
      order: "C",
      filters: [{ id: "vlen-bytes" }],
    });
    const values = [b(1), b(), b(2, 3), b(0), b(255, 254, 253), b(4)];
    await arr.set(null, values);
    const again = await openArray(store, "o");
    expect(again.dataType).toBe("variable_length_bytes");
    expect(lists((await again.get()).data)).toEqual(values.map((v) => Array.from(v)));
    const fromDtype = await createArray(store, "p", {
      format: 2,
      shape: [2],
      chunkShape: [2],
      dataType: "|O",
      filters: [{ id: "vlen-bytes" }],
      fillValue: b(9),
    });
    expect(fromDtype.dataType).toBe("variable_length_bytes");
    expect(fromDtype.metadata).toMatchObject({ fill_value: "CQ==" });
    expect(lists((await fromDtype.get()).data)).toEqual([[9], [9]]);
  });

  it("an object codec that does not store the data type named is refused", async () => {
    await expect(
      createArray(new MemoryStore(), "q", {
        format: 2,
        shape: [2],
        chunkShape: [2],
        dataType: "variable_length_bytes",
        filters: [{ id: "vlen-utf8" }],
      }),
    ).rejects.toMatchObject({ name: "InvalidMetadataError", field: "filters[0]" });
    await expect(
      createArray(new MemoryStore(), "r", { format: 2, shape: [2], chunkShape: [2], dataType: "r16" }),
    ).rejects.toBeInstanceOf(UnsupportedError);
  });
});
