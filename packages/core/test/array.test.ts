import { describe, expect, it } from "vitest";
import { registerCreateOption, registerLayout } from "@zarrkit/registry";
import {
  CorruptDataError,
  createArray,
  dataType,
  InvalidMetadataError,
  InvalidOptionError,
  InvalidSelectionError,
  MemoryStore,
  NodeExistsError,
  NotFoundError,
  open,
  openArray,
  slice,
  UnsupportedError,
} from "../src/index.js";
import { CodecPipeline, encodeJson } from "../src/internal.js";
import { keysOf, sequence } from "./helpers.js";

const TYPES = [
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
  "r24",
];

const LAYOUTS: { name: string; shape: number[]; chunkShape: number[]; codecs?: (type: string) => object[] }[] = [
  { name: "0-d", shape: [], chunkShape: [] },
  { name: "1-d ragged", shape: [11], chunkShape: [4] },
  { name: "2-d ragged", shape: [5, 7], chunkShape: [2, 3] },
  { name: "3-d single chunk", shape: [2, 3, 4], chunkShape: [2, 3, 4] },
  {
    name: "3-d transposed, big-endian",
    shape: [3, 4, 5],
    chunkShape: [2, 3, 2],
    codecs: () => [
      { name: "transpose", configuration: { order: [2, 0, 1] } },
      { name: "bytes", configuration: { endian: "big" } },
    ],
  },
];

describe("round trips: every data type x chunk layout", () => {
  for (const type of TYPES) {
    for (const layout of LAYOUTS) {
      it(`${type}, ${layout.name}`, async () => {
        const store = new MemoryStore();
        const arr = await createArray(store, "a", {
          shape: layout.shape,
          dataType: type,
          chunkShape: layout.chunkShape,
          ...(layout.codecs ? { codecs: layout.codecs(type) as never } : {}),
        });
        const n = layout.shape.reduce((a, b) => a * b, 1);
        const data = sequence(type, n);
        await arr.set(null, data);
        const back = await (await openArray(store, "a")).get();
        expect(back.shape).toEqual(layout.shape);
        expect(back.data).toEqual(data);
      });
    }
  }

  it("stores big-endian bytes exactly as the spec says", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "be", {
      shape: [2],
      dataType: "uint16",
      chunkShape: [2],
      codecs: [{ name: "bytes", configuration: { endian: "big" } }],
    });
    await arr.set(null, Uint16Array.of(0x0102, 0x0304));
    expect(await store.get("be/c/0")).toEqual(Uint8Array.of(1, 2, 3, 4));
  });

  it("stores float16 as IEEE half precision, also without Float16Array", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "h", { shape: [3], dataType: "float16", chunkShape: [3] });
    await arr.set(null, Float32Array.of(1, -2, 65504));
    expect(await store.get("h/c/0")).toEqual(Uint8Array.of(0x00, 0x3c, 0x00, 0xc0, 0xff, 0x7b));
  });
});

describe("reads and writes of parts", () => {
  it("reads never-written chunks as the fill value", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "f", { shape: [6], dataType: "int32", chunkShape: [2], fillValue: -7 });
    await arr.set([slice(2, 4)], Int32Array.of(1, 2));
    expect(Array.from((await arr.get()).data as Int32Array)).toEqual([-7, -7, 1, 2, -7, -7]);
    expect(await keysOf(store)).toEqual(["f/c/1", "f/zarr.json", "zarr.json"]);
  });

  it("deletes a chunk that becomes all fill value, unless told to store it", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "e", { shape: [4], dataType: "uint8", chunkShape: [2] });
    await arr.set(null, Uint8Array.of(1, 2, 3, 4));
    await arr.set([slice(0, 2)], 0);
    expect(await keysOf(store)).toEqual(["e/c/1", "e/zarr.json", "zarr.json"]);
    const keep = await openArray(store, "e", { writeEmptyChunks: true });
    await keep.set([slice(2, 4)], 0);
    expect(await keysOf(store)).toEqual(["e/c/1", "e/zarr.json", "zarr.json"]);
    expect(await store.get("e/c/1")).toEqual(Uint8Array.of(0, 0));
  });

  it("read-modify-writes partial chunks and integer indices drop dimensions", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "p", { shape: [4, 5], dataType: "float64", chunkShape: [3, 2] });
    await arr.set(null, 1);
    await arr.set([1, slice(1, 5, 2)], Float64Array.of(8, 9));
    const row = await arr.get([1]);
    expect(row.shape).toEqual([5]);
    expect(Array.from(row.data as Float64Array)).toEqual([1, 8, 1, 9, 1]);
    const col = await arr.get([slice(null), -2]);
    expect(col.shape).toEqual([4]);
    expect(Array.from(col.data as Float64Array)).toEqual([1, 9, 1, 1]);
    const scalar = await arr.get([1, 3]);
    expect(scalar.shape).toEqual([]);
    expect(Array.from(scalar.data as Float64Array)).toEqual([9]);
  });

  it("accepts the {data, shape} that get returns", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "g", { shape: [3, 3], dataType: "int16", chunkShape: [2, 2] });
    await arr.set(
      null,
      Int16Array.from({ length: 9 }, (_, i) => i),
    );
    const block = await arr.get([slice(0, 2), slice(1, 3)]);
    await arr.set([slice(1, 3), slice(0, 2)], block);
    expect(Array.from((await arr.get()).data as Int16Array)).toEqual([0, 1, 2, 1, 2, 5, 4, 5, 8]);
  });
});

describe("bad input gets a typed error", () => {
  it("selection errors", async () => {
    const arr = await createArray(new MemoryStore(), "x", { shape: [4, 4], dataType: "uint8", chunkShape: [2, 2] });
    await expect(arr.get([4])).rejects.toThrow(InvalidSelectionError);
    await expect(arr.get([0, 0, 0])).rejects.toThrow(/3 dimensions/);
    await expect(arr.get([slice(0, 4, 0)])).rejects.toThrow(/step/);
    await expect(arr.get([1.5])).rejects.toThrow(InvalidSelectionError);
    await expect(arr.set([0], Uint8Array.of(1, 2))).rejects.toThrow(/4/);
    await expect(arr.set(null, new Float32Array(16))).rejects.toThrow(/Uint8Array/);
    await expect(arr.set(null, 300)).rejects.toThrow(InvalidSelectionError);
    await expect(arr.set(null, { data: new Uint8Array(16), shape: [16] })).rejects.toThrow(/shape/);
  });

  it("a truncated chunk is CorruptDataError naming the key", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "t", { shape: [4], dataType: "int32", chunkShape: [4] });
    await arr.set(null, 5);
    await store.set("t/c/0", new Uint8Array(7));
    const err = await arr.get().catch((e) => e);
    expect(err).toBeInstanceOf(CorruptDataError);
    expect(err.key).toBe("t/c/0");
  });

  it("malformed zarr.json", async () => {
    const store = new MemoryStore();
    const base = {
      zarr_format: 3,
      node_type: "array",
      shape: [4],
      data_type: "int32",
      chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      fill_value: 0,
      codecs: [{ name: "bytes", configuration: { endian: "little" } }],
      attributes: {},
    };
    const cases: [Record<string, unknown>, RegExp, new (...args: never[]) => Error][] = [
      [{ shape: [-1] }, /shape/, InvalidMetadataError],
      [{ shape: [2 ** 53] }, /shape/, InvalidMetadataError],
      [{ data_type: "float128" }, /float128/, UnsupportedError],
      [{ chunk_grid: { name: "regular", configuration: { chunk_shape: [0] } } }, /chunk_shape/, InvalidMetadataError],
      [
        { chunk_grid: { name: "regular", configuration: { chunk_shape: [2, 2] } } },
        /chunk_shape/,
        InvalidMetadataError,
      ],
      [{ chunk_grid: { name: "hexagonal" } }, /hexagonal/, UnsupportedError],
      [
        { chunk_key_encoding: { name: "default", configuration: { separator: "-" } } },
        /separator/,
        InvalidMetadataError,
      ],
      [{ fill_value: "x" }, /fill_value/, InvalidMetadataError],
      [{ codecs: [] }, /codecs/, InvalidMetadataError],
      [{ codecs: [{ name: "gzip-ng" }] }, /gzip-ng/, UnsupportedError],
      [{ codecs: [{ name: "transpose", configuration: { order: [0] } }] }, /array->bytes/, InvalidMetadataError],
      [{ codecs: [{ name: "bytes", configuration: { endian: "middle" } }] }, /endian/, InvalidMetadataError],
      [{ codecs: [{ name: "bytes" }] }, /endian is required/, InvalidMetadataError],
      [
        {
          codecs: [
            { name: "bytes", configuration: { endian: "little" } },
            { name: "bytes", configuration: { endian: "little" } },
          ],
        },
        /second array->bytes/,
        InvalidMetadataError,
      ],
      [
        {
          codecs: [
            { name: "transpose", configuration: { order: [1] } },
            { name: "bytes", configuration: { endian: "little" } },
          ],
        },
        /permutation/,
        InvalidMetadataError,
      ],
      [{ dimension_names: ["x", "y"] }, /dimension_names/, InvalidMetadataError],
      [{ zarr_format: 2 }, /zarr_format/, UnsupportedError],
      [{ node_type: "table" }, /node_type/, InvalidMetadataError],
      [{ future_feature: { enabled: true } }, /future_feature/, UnsupportedError],
      [{ storage_transformers: [{ name: "sharding" }] }, /storage_transformers/, UnsupportedError],
      [
        { shape: [2 ** 40], chunk_grid: { name: "regular", configuration: { chunk_shape: [2 ** 40] } } },
        /cannot be held/,
        UnsupportedError,
      ],
    ];
    for (const [change, message, ErrorClass] of cases) {
      await store.set("m/zarr.json", encodeJson({ ...base, ...change }));
      const error = await open(store, "m").catch((e) => e);
      expect(error, JSON.stringify(change)).toBeInstanceOf(ErrorClass);
      expect(error.message, JSON.stringify(change)).toMatch(message);
      expect(error.message).toMatch(/m\/zarr.json|codecs/);
    }
    await store.set("m/zarr.json", encodeJson({ ...base, future_feature: { must_understand: false } }));
    expect((await openArray(store, "m")).shape).toEqual([4]);
    await store.set("m/zarr.json", new TextEncoder().encode("{"));
    await expect(open(store, "m")).rejects.toThrow(InvalidMetadataError);
  });

  it("missing nodes and existing nodes", async () => {
    const store = new MemoryStore();
    await expect(open(store, "nope")).rejects.toThrow(NotFoundError);
    await createArray(store, "a/b", { shape: [2], dataType: "uint8", chunkShape: [2] });
    await expect(createArray(store, "a/b", { shape: [2], dataType: "uint8", chunkShape: [2] })).rejects.toThrow(
      NodeExistsError,
    );
    await expect(createArray(store, "a/b/c", { shape: [2], dataType: "uint8", chunkShape: [2] })).rejects.toThrow(
      /inside array/,
    );
    await expect(createArray(store, "__x", { shape: [2], dataType: "uint8", chunkShape: [2] })).rejects.toThrow(
      InvalidSelectionError,
    );
  });
});

describe("codec pipeline", () => {
  it("computes fixed encoded sizes", async () => {
    const spec = { shape: [4, 4, 2], dataType: dataType("uint64"), fillValue: 0n };
    const pipe = await CodecPipeline.create([{ name: "bytes", configuration: { endian: "little" } }], spec);
    expect(pipe.encodedSize()).toBe(256);
  });
});

describe("chunks in flight", () => {
  /** A memory store whose reads (whole, or into caller memory) wait a turn, counting how many overlap. */
  function overlapCounting(): { store: MemoryStore; peak: () => number } {
    const store = new MemoryStore();
    let now = 0;
    let peak = 0;
    const slowed =
      <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
      async (...args: A) => {
        peak = Math.max(peak, ++now);
        await new Promise((resolve) => setTimeout(resolve, 1));
        now--;
        return read(...args);
      };
    store.get = slowed(store.get.bind(store));
    store.getRangeInto = slowed(store.getRangeInto.bind(store));
    return { store, peak: () => peak };
  }

  it.each([
    ["16 for small chunks", [256, 256], [16, 16], undefined, 16],
    ["2 for chunks of 16 MiB and more", [16384, 4096], [4096, 4096], undefined, 2],
    ["8 for chunks of 4 MiB", [16384, 2048], [2048, 2048], undefined, 8],
    ["as the option says", [256, 256], [16, 16], 3, 3],
  ])("default to about 32 MiB of decoded chunks: %s", async (_what, shape, chunkShape, concurrency, expected) => {
    const { store, peak } = overlapCounting();
    await createArray(store, "a", { shape, chunkShape, dataType: "uint8" });
    const array = await openArray(store, "a", concurrency === undefined ? {} : { concurrency });
    await array.get();
    expect(peak()).toBe(expected);
  });
});

describe("createArray's convenience options", () => {
  it("an unknown option is an InvalidOptionError naming it, and the package that provides it", async () => {
    const create = (extra: Record<string, unknown>) =>
      createArray(new MemoryStore(), "a", { shape: [4], dataType: "uint8", chunkShape: [2], ...extra } as Parameters<
        typeof createArray
      >[2]);
    // Core alone knows nothing of sharding: shardShape needs @zarrkit/sharding.
    await expect(create({ shardShape: [4] })).rejects.toThrow(
      /shardShape is not a createArray option. It is provided by @zarrkit\/sharding/,
    );
    await expect(create({ chunkShap: [2] })).rejects.toMatchObject({
      name: "InvalidOptionError",
      code: "INVALID_OPTION",
      field: "chunkShap",
    });
    await expect(create({ toString: [2] })).rejects.toThrow(InvalidOptionError);
  });

  it("a registered option decides the grid and the codecs", async () => {
    registerCreateOption("test.pairs", ({ value, codecs }) => ({
      gridShape: [2 * (value as number)],
      codecs,
      consumed: [],
    }));
    const arr = await createArray(new MemoryStore(), "a", {
      shape: [8],
      dataType: "uint8",
      chunkShape: [2],
      "test.pairs": 2,
    } as Parameters<typeof createArray>[2]);
    expect(arr.metadata.chunk_grid).toEqual({ name: "regular", configuration: { chunk_shape: [4] } });
    expect(arr.chunkShape).toEqual([4]);
    expect(arr.shardShape).toBeUndefined();
  });

  it("an option registered with the deprecated registerLayout works as well", async () => {
    registerLayout("test.triples", ({ value, codecs }) => ({
      gridShape: [3 * (value as number)],
      codecs,
      consumed: [],
    }));
    const arr = await createArray(new MemoryStore(), "a", {
      shape: [9],
      dataType: "uint8",
      chunkShape: [3],
      "test.triples": 1,
    } as Parameters<typeof createArray>[2]);
    expect(arr.chunkShape).toEqual([3]);
  });
});
