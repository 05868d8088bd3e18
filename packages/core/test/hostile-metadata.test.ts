// zarr.json written by an adversary: integers past 2^53 (parsed as bigint),
// null configurations, names that are Object.prototype's, Buffers at odd
// offsets. Every case is a typed error naming the field, never a TypeError.
import { describe, expect, it } from "vitest";
import {
  dataType,
  InvalidMetadataError,
  MemoryStore,
  open,
  openArray,
  openStore,
  StoreError,
  UnsupportedError,
  type ZarrkitError,
} from "../src/index.js";
import { CodecPipeline } from "../src/internal.js";

const HUGE = "123456789012345678901234567890";

/**
 * A valid array zarr.json as text, with `patch` applied to the object form; `huge` fields are replaced by a big integer
 * literal.
 */
function doc(patch: Record<string, unknown> = {}): string {
  const base: Record<string, unknown> = {
    zarr_format: 3,
    node_type: "array",
    shape: [4],
    data_type: "int32",
    chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: 0,
    codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    attributes: {},
    ...patch,
  };
  return JSON.stringify(base).replaceAll('"@HUGE@"', HUGE);
}

async function openText(text: string, options = {}): Promise<unknown> {
  const store = new MemoryStore();
  await store.set("a/zarr.json", new TextEncoder().encode(text));
  return openArray(store, "a", options).catch((e: unknown) => e);
}

async function expectTyped(
  text: string,
  Class: typeof ZarrkitError,
  field: RegExp | string | undefined,
  message: RegExp,
) {
  const error = await openText(text);
  expect(error, text).toBeInstanceOf(Class);
  if (field !== undefined) expect((error as ZarrkitError).field, text).toMatch(field);
  expect((error as Error).message, text).toMatch(message);
}

describe("integers past 2^53 in zarr.json are typed errors naming the field", () => {
  it("zarr_format", () =>
    expectTyped(doc({ zarr_format: "@HUGE@" }), UnsupportedError, "zarr_format", new RegExp(HUGE)));
  it("node_type", () => expectTyped(doc({ node_type: "@HUGE@" }), InvalidMetadataError, "node_type", new RegExp(HUGE)));
  it("a codec entry", () =>
    expectTyped(doc({ codecs: ["@HUGE@"] }), InvalidMetadataError, "codecs[0]", new RegExp(HUGE)));
  it("the bytes codec's endian", () =>
    expectTyped(
      doc({ codecs: [{ name: "bytes", configuration: { endian: "@HUGE@" } }] }),
      InvalidMetadataError,
      "codecs[0].configuration.endian",
      new RegExp(HUGE),
    ));
  it("transpose's order", () =>
    expectTyped(
      doc({
        codecs: [
          { name: "transpose", configuration: { order: ["@HUGE@"] } },
          { name: "bytes", configuration: { endian: "little" } },
        ],
      }),
      InvalidMetadataError,
      "codecs[0].configuration.order",
      new RegExp(HUGE),
    ));
  it("the chunk key separator", () =>
    expectTyped(
      doc({ chunk_key_encoding: { name: "default", configuration: { separator: "@HUGE@" } } }),
      InvalidMetadataError,
      /separator/,
      new RegExp(HUGE),
    ));
  it("the chunk key encoding's name", () =>
    expectTyped(
      doc({ chunk_key_encoding: { name: "@HUGE@" } }),
      UnsupportedError,
      "chunk_key_encoding",
      new RegExp(HUGE),
    ));
  it("the data type", () =>
    expectTyped(doc({ data_type: "@HUGE@" }), InvalidMetadataError, "data_type", new RegExp(HUGE)));
  it("the fill value of bool, r16 and int32", async () => {
    await expectTyped(
      doc({ data_type: "bool", fill_value: "@HUGE@" }),
      InvalidMetadataError,
      "fill_value",
      new RegExp(HUGE),
    );
    await expectTyped(
      doc({ data_type: "r16", fill_value: ["@HUGE@", 0] }),
      InvalidMetadataError,
      "fill_value",
      new RegExp(HUGE),
    );
    await expectTyped(doc({ fill_value: "@HUGE@" }), InvalidMetadataError, "fill_value", /out of range/);
  });
  it("the chunk grid's name and shape", async () => {
    await expectTyped(
      doc({ chunk_grid: { name: "regular", configuration: { chunk_shape: ["@HUGE@"] } } }),
      InvalidMetadataError,
      /chunk_shape/,
      new RegExp(HUGE),
    );
    await expectTyped(doc({ shape: ["@HUGE@"] }), InvalidMetadataError, "shape", new RegExp(HUGE));
  });
});

describe('"configuration": null is a typed error', () => {
  it("in the chunk grid", () =>
    expectTyped(
      doc({ chunk_grid: { name: "regular", configuration: null } }),
      InvalidMetadataError,
      "chunk_grid.configuration",
      /must be an object/,
    ));
  it("in a rectilinear chunk grid (found by metadata-mutation.property.test.ts)", () =>
    expectTyped(
      doc({ shape: [10], chunk_grid: { name: "rectilinear", configuration: null } }),
      InvalidMetadataError,
      "chunk_grid.configuration",
      /must be an object/,
    ));
  it("in the chunk key encoding", () =>
    expectTyped(
      doc({ chunk_key_encoding: { name: "default", configuration: null } }),
      InvalidMetadataError,
      "chunk_key_encoding.configuration",
      /must be an object/,
    ));
  it("in a codec", () =>
    expectTyped(
      doc({ codecs: [{ name: "bytes", configuration: null }] }),
      InvalidMetadataError,
      "codecs[0].configuration",
      /must be an object/,
    ));
});

describe("names that select code never find Object.prototype", () => {
  const PROTO = ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"];
  it("data type names", async () => {
    for (const name of PROTO) {
      await expectTyped(
        doc({ data_type: name }),
        UnsupportedError,
        "data_type",
        new RegExp(`unsupported data type "${name}"`),
      );
      expect(() => dataType(name)).toThrow(UnsupportedError);
    }
  });
  it("codec names, with codec options of other codecs present", async () => {
    for (const name of PROTO) {
      const error = await openText(doc({ codecs: [{ name }] }), { codecOptions: { bytes: {} } });
      expect(error, name).toBeInstanceOf(UnsupportedError);
      expect((error as Error).message).toContain(`Unknown codec "${name}"`);
      expect((error as Error).message).toContain("registerCodec");
    }
  });
  it("chunk grid and chunk key encoding names", async () => {
    for (const name of PROTO) {
      await expectTyped(
        doc({ chunk_grid: { name, configuration: {} } }),
        UnsupportedError,
        "chunk_grid",
        /unsupported chunk grid/,
      );
      await expectTyped(
        doc({ chunk_key_encoding: { name } }),
        UnsupportedError,
        "chunk_key_encoding",
        /unsupported chunk key encoding/,
      );
    }
  });
  it("a separator inherited from nowhere: only own properties count", async () => {
    const store = new MemoryStore();
    // "__proto__" as an own key (as JSON.parse makes it) carrying a separator must not set one.
    await store.set(
      "a/zarr.json",
      new TextEncoder().encode(
        doc({}).replace('"configuration":{"separator":"/"}', '"configuration":{"__proto__":{"separator":"."}}'),
      ),
    );
    const arr = await openArray(store, "a");
    expect(arr.chunkKey([1])).toBe("a/c/1");
  });
  it("store schemes", async () => {
    for (const name of PROTO)
      await expect(openStore(`${name.toLowerCase().replaceAll("_", "x")}://x`)).rejects.toThrow(StoreError);
    await expect(openStore("constructor://x")).rejects.toThrow(/No store is registered for "constructor:\/\/"/);
  });
  it("raw types wider than r2^23 are unsupported, not a RangeError later", async () => {
    await expectTyped(
      doc({ data_type: "r99999999999999999992", fill_value: [] }),
      UnsupportedError,
      "data_type",
      /wider than/,
    );
  });
});

describe("the bytes codec takes any Uint8Array view", () => {
  it(
    "a Node Buffer at an odd offset of its pool (Buffer#slice is a view) decodes, little- and " + "big-endian",
    async () => {
      for (const endian of ["little", "big"] as const) {
        const pipeline = await CodecPipeline.create([{ name: "bytes", configuration: { endian } }], {
          shape: [3],
          dataType: dataType("int32"),
          fillValue: 0,
        });
        const encoded = await pipeline.encode({ data: Int32Array.of(1, -2, 300000), shape: [3] }, { key: "k" });
        const pool = Buffer.alloc(64);
        pool.set(encoded, 7);
        const view = pool.slice(7, 7 + encoded.length); // a Buffer view at byteOffset 7
        expect(view.byteOffset % 4).not.toBe(0);
        const decoded = await pipeline.decode(view, { key: "k" });
        expect(Array.from(decoded.data as Int32Array)).toEqual([1, -2, 300000]);
        expect(Array.from(pool.subarray(7, 7 + encoded.length))).toEqual(Array.from(encoded)); // the pool is left alone
      }
    },
  );
  it("float16 and float64 views at odd offsets too", async () => {
    for (const type of ["float16", "float64"]) {
      const pipeline = await CodecPipeline.create([{ name: "bytes", configuration: { endian: "big" } }], {
        shape: [2],
        dataType: dataType(type),
        fillValue: 0,
      });
      const data = dataType(type).allocate(2) as Float64Array;
      data.set([1.5, -2]);
      const encoded = await pipeline.encode({ data, shape: [2] }, { key: "k" });
      const pool = Buffer.alloc(64);
      pool.set(encoded, 3);
      const decoded = await pipeline.decode(pool.slice(3, 3 + encoded.length), { key: "k" });
      expect(Array.from(decoded.data as Float64Array)).toEqual([1.5, -2]);
    }
  });
});

it("open() on a group zarr.json with a huge zarr_format is typed too", async () => {
  const store = new MemoryStore();
  await store.set("zarr.json", new TextEncoder().encode(`{"zarr_format": ${HUGE}, "node_type": "group"}`));
  await expect(open(store)).rejects.toThrow(UnsupportedError);
});
