// The struct data type (and legacy `structured`): the registry page's examples (layouts, offsets, fill values,
// nesting), byte order per field, typed errors naming the field; Zarr v2 structured dtypes as zarr-python 2.13
// writes them (skipped, saying why, where /usr/bin/python3 cannot import zarr).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createArray,
  dataType,
  dataTypeJSON,
  InvalidMetadataError,
  InvalidSelectionError,
  MemoryStore,
  openArray,
  parseScalar,
  serializeScalar,
  slice,
  structColumns,
  structFromColumns,
  UnsupportedError,
} from "../src/index.js";
import { encodeJson } from "../src/internal.js";
import { dirFromStore, storeFromDir } from "./dir-store.js";

const ID_FLAGS_VALUE = {
  name: "struct",
  configuration: {
    fields: [
      { name: "id", data_type: "int32" },
      { name: "flags", data_type: "uint8" },
      { name: "value", data_type: "float64" },
    ],
  },
};
const NESTED = {
  name: "struct",
  configuration: {
    fields: [
      {
        name: "point",
        data_type: {
          name: "struct",
          configuration: {
            fields: [
              { name: "x", data_type: "float32" },
              { name: "y", data_type: "float32" },
            ],
          },
        },
      },
      { name: "value", data_type: "float64" },
    ],
  },
};

async function arrayOf(dataTypeValue: unknown, fill: unknown, endian: "little" | "big" = "little", shape = [3]) {
  const store = new MemoryStore();
  const doc = {
    zarr_format: 3,
    node_type: "array",
    shape,
    data_type: dataTypeValue,
    fill_value: fill,
    chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
    chunk_key_encoding: { name: "default" },
    codecs: [{ name: "bytes", configuration: { endian } }],
  };
  await store.set("s/zarr.json", encodeJson(doc));
  return { store, arr: await openArray(store, "s") };
}

describe("struct", () => {
  it("lays records out as the registry's example: id at 0, flags at 4, value at 5, 13 bytes, no padding", async () => {
    const type = dataType(ID_FLAGS_VALUE);
    expect([type.kind, type.byteSize, type.lanes, type.arrayType]).toEqual(["raw", 13, 13, Uint8Array]);
    expect(type.struct!.fields.map((f) => [f.name, f.offset])).toEqual([
      ["id", 0],
      ["flags", 4],
      ["value", 5],
    ]);
    expect(dataTypeJSON(type)).toEqual(ID_FLAGS_VALUE);
    expect(dataType(type.name)).toBe(type); // resolves by its name alone (codec workers)
    const { store, arr } = await arrayOf(ID_FLAGS_VALUE, { id: 7, flags: 1, value: 2.5 }, "big");
    const records = structFromColumns(
      type.struct!,
      { id: Int32Array.from([-2]), flags: Uint8Array.from([255]), value: Float64Array.from([0.5]) },
      1,
    );
    await arr.set([0], records);
    const stored = (await store.get("s/c/0"))!;
    // Big endian, field by field: id -2, flags 255, value 0.5; then the fill value record.
    expect(Array.from(stored.subarray(0, 13))).toEqual([0xff, 0xff, 0xff, 0xfe, 0xff, 0x3f, 0xe0, 0, 0, 0, 0, 0, 0]);
    expect(Array.from(stored.subarray(13, 18))).toEqual([0, 0, 0, 7, 1]);
    const columns = structColumns(type.struct!, (await arr.get()).data as Uint8Array);
    expect(columns).toEqual({
      id: Int32Array.from([-2, 7, 7]),
      flags: Uint8Array.from([255, 1, 1]),
      value: Float64Array.from([0.5, 2.5, 2.5]),
    });
  });

  it("nests structs depth first and takes nested fill values", async () => {
    const type = dataType(NESTED);
    expect(type.byteSize).toBe(16);
    expect(type.struct!.fields.map((f) => [f.name, f.offset])).toEqual([
      ["point", 0],
      ["value", 8],
    ]);
    const fill = { point: { x: 1, y: 2 }, value: 3.14 };
    const record = parseScalar(fill, type) as Uint8Array;
    const view = new DataView(record.buffer);
    expect([view.getFloat32(0, true), view.getFloat32(4, true), view.getFloat64(8, true)]).toEqual([1, 2, 3.14]);
    expect(serializeScalar(record, type)).toEqual(fill);
    const { arr } = await arrayOf(NESTED, fill);
    const point = structColumns(
      dataType(NESTED.configuration.fields[0]!.data_type).struct!,
      structColumns(type.struct!, (await arr.get()).data as Uint8Array).point as Uint8Array,
    );
    expect(point).toEqual({ x: Float32Array.from([1, 1, 1]), y: Float32Array.from([2, 2, 2]) });
  });

  it("reads the legacy name `structured` with [name, data_type] fields", () => {
    const legacy = dataType({
      name: "structured",
      configuration: {
        fields: [
          ["a", "int16"],
          ["b", "bool"],
        ],
      },
    });
    expect(dataTypeJSON(legacy)).toEqual({
      name: "struct",
      configuration: {
        fields: [
          { name: "a", data_type: "int16" },
          { name: "b", data_type: "bool" },
        ],
      },
    });
  });

  it("refuses malformed configurations and fill values, naming the field", () => {
    const bad = (value: unknown, field: string, type: unknown = InvalidMetadataError) => {
      expect(() => dataType(value)).toThrow(type as typeof Error);
      expect(() => dataType(value)).toThrow(expect.objectContaining({ field }));
    };
    bad({ name: "struct" }, "data_type.configuration.fields");
    bad({ name: "struct", configuration: { fields: [] } }, "data_type.configuration.fields");
    bad(
      {
        name: "struct",
        configuration: {
          fields: [
            { name: "a", data_type: "int8" },
            { name: "a", data_type: "int8" },
          ],
        },
      },
      "data_type.configuration.fields[1].name",
    );
    bad(
      { name: "struct", configuration: { fields: [{ name: "", data_type: "int8" }] } },
      "data_type.configuration.fields[0].name",
    );
    bad(
      { name: "struct", configuration: { fields: [{ name: "s", data_type: "string" }] } },
      "data_type.configuration.fields[0].data_type",
      UnsupportedError,
    );
    bad(
      { name: "struct", configuration: { fields: [{ name: "a", data_type: "int8", unit: "m" }] } },
      "data_type.configuration.fields[0].unit",
    );
    bad({ name: "struct", configuration: { fields: [["a", "int8"]] } }, "data_type.configuration.fields[0]");
    bad(
      { name: "struct", configuration: { fields: [{ name: "a", data_type: "int8" }], packed: true } },
      "data_type.configuration.packed",
    );
    const type = dataType(ID_FLAGS_VALUE);
    expect(() => parseScalar({ id: 1, flags: 2 }, type)).toThrow(
      expect.objectContaining({ field: "fill_value.value" }),
    );
    expect(() => parseScalar({ id: 1, flags: 256, value: 0 }, type)).toThrow(
      expect.objectContaining({ field: "fill_value.flags" }),
    );
    expect(() => parseScalar({ id: 1, flags: 2, value: 0, extra: 1 }, type)).toThrow(
      expect.objectContaining({ field: "fill_value.extra" }),
    );
    expect(() => structFromColumns(type.struct!, { id: Int32Array.from([1]), flags: Uint8Array.from([1]) }, 1)).toThrow(
      InvalidSelectionError,
    );
  });

  it("creates arrays with zero fill values and an explicit endian", async () => {
    const arr = await createArray(new MemoryStore(), "c", {
      shape: [2],
      dataType: dataType(ID_FLAGS_VALUE).name,
      chunkShape: [2],
    });
    expect(arr.metadata).toMatchObject({
      data_type: ID_FLAGS_VALUE,
      fill_value: { id: 0, flags: 0, value: 0 },
      codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    });
  });
});

const PYTHON = "/usr/bin/python3";
function zarrPythonReason(): string | undefined {
  if (!existsSync(PYTHON)) return `${PYTHON} is absent`;
  const probe = spawnSync(PYTHON, ["-c", "import zarr, numpy"], { encoding: "utf8" });
  return probe.status === 0 ? undefined : `zarr is not importable by ${PYTHON} (apt-get install python3-zarr)`;
}
const skipReason = zarrPythonReason();
if (skipReason) console.log(`zarr-python structured dtype tests skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("Zarr v2 structured dtypes against zarr-python 2.13", () => {
  it.each([
    ["little endian, fill (7, 1, 2.5)", "[('id','<i4'),('flags','u1'),('value','<f8')]", "(7, 1, 2.5)"],
    ["big endian, fill (7, 1, 2.5)", "[('id','>i4'),('flags','u1'),('value','>f8')]", "(7, 1, 2.5)"],
  ])("reads %s value by value", async (_, dtype, fill) => {
    const dir = mkdtempSync(join(tmpdir(), "zarrkit-structured-"));
    try {
      const script = [
        "import sys, zarr, numpy as np",
        `dtype = np.dtype(${dtype})`,
        `a = zarr.create(store=sys.argv[1], shape=(5,), chunks=(2,), dtype=dtype, fill_value=${fill}, compressor=None)`,
        "a[:3] = np.array([(1, 2, 3.5), (-2147483648, 255, -0.0), (2147483647, 0, 1e300)], dtype=a.dtype)",
      ].join("\n");
      const run = spawnSync(PYTHON, ["-c", script, dir], { encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      const arr = await openArray(await storeFromDir(dir), "", { format: 2 });
      const type = dataType(arr.dataType);
      expect(dataTypeJSON(type)).toEqual(ID_FLAGS_VALUE);
      expect(structColumns(type.struct!, (await arr.get()).data as Uint8Array)).toEqual({
        id: Int32Array.from([1, -2147483648, 2147483647, 7, 7]),
        flags: Uint8Array.from([2, 255, 0, 1, 1]),
        value: Float64Array.from([3.5, -0, 1e300, 2.5, 2.5]),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(["little", "big"] as const)(
    "zarr-python reads the %s endian structured arrays zarrkit writes",
    async (endian) => {
      const dir = mkdtempSync(join(tmpdir(), "zarrkit-structured-"));
      try {
        const type = dataType(ID_FLAGS_VALUE);
        const fill = { id: 7, flags: 1, value: 2.5 };
        const store = new MemoryStore();
        const arr =
          endian === "little"
            ? await createArray(store, "", {
                format: 2,
                shape: [5],
                dataType: type.name,
                chunkShape: [2],
                fillValue: fill,
              })
            : await createArray(store, "", {
                zarr_format: 2,
                shape: [5],
                chunks: [2],
                compressor: null,
                filters: null,
                order: "C",
                dtype: [
                  ["id", ">i4"],
                  ["flags", "|u1"],
                  ["value", ">f8"],
                ],
                fill_value: "AAAABwFABAAAAAAAAA==",
              });
        expect(arr.fillValue).toEqual(parseScalar(fill, type));
        const columns = {
          id: Int32Array.of(1, -2147483648, 2147483647),
          flags: Uint8Array.of(2, 255, 0),
          value: Float64Array.of(3.5, -0, 1e300),
        };
        await arr.set([slice(0, 3)], structFromColumns(type.struct!, columns, 3));
        await dirFromStore(store, dir);
        const script = [
          "import sys, json, zarr",
          "a = zarr.open(sys.argv[1], mode='r')",
          "print(json.dumps([a.dtype.str, a.dtype.descr, [list(map(float, r)) for r in a[...].tolist()]]))",
        ].join("\n");
        const run = spawnSync(PYTHON, ["-c", script, dir], { encoding: "utf8" });
        expect(run.status, run.stderr).toBe(0);
        const [, descr, rows] = JSON.parse(run.stdout);
        const order = endian === "little" ? "<" : ">";
        expect(descr).toEqual([
          ["id", `${order}i4`],
          ["flags", "|u1"],
          ["value", `${order}f8`],
        ]);
        expect(rows).toEqual([
          [1, 2, 3.5],
          [-2147483648, 255, -0],
          [2147483647, 0, 1e300],
          [7, 1, 2.5],
          [7, 1, 2.5],
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
