// numpy.datetime64 / numpy.timedelta64: zarr.json's registry form (the registry page's example), every unit, NaT,
// fill values, malformed configurations; Zarr v2 (`<M8[ns]`, `>m8[10s]`) against zarr-python 2.13 both ways, count
// by count. The zarr-python cases skip, saying why, where /usr/bin/python3 cannot import zarr.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  createArray,
  dataType,
  dataTypeJSON,
  InvalidMetadataError,
  MemoryStore,
  numpyDtypeOf,
  openArray,
  parseScalar,
  serializeScalar,
  slice,
} from "../src/index.js";
import { encodeJson, parseNumpyDtype } from "../src/internal.js";
import { dirFromStore, storeFromDir } from "./dir-store.js";

const NAT = -(2n ** 63n);
const UNITS = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as", "generic"];
/** Counts at the edges of int64 and around zero. */
const COUNTS = [0n, 1n, -1n, 2n ** 63n - 1n, NAT + 1n, 1_577_836_800_000_000_001n, NAT, -86_400n];

function zarrJson(dataTypeValue: unknown, fill: unknown = 0) {
  return {
    zarr_format: 3,
    node_type: "array",
    shape: [COUNTS.length + 2],
    data_type: dataTypeValue,
    chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } },
    chunk_key_encoding: { name: "default" },
    fill_value: fill,
    codecs: [{ name: "bytes", configuration: { endian: "little" } }],
  };
}

describe("numpy.datetime64 and numpy.timedelta64 in Zarr v3", () => {
  it("reads the registry page's example and every unit, naming the unit in the data type", () => {
    const example = dataType({ name: "numpy.timedelta64", configuration: { unit: "us", scale_factor: 10 } });
    expect(example.name).toBe("numpy.timedelta64[10us]");
    expect([example.kind, example.byteSize, example.arrayType]).toEqual(["int", 8, BigInt64Array]);
    expect(dataTypeJSON(example)).toEqual({
      name: "numpy.timedelta64",
      configuration: { unit: "us", scale_factor: 10 },
    });
    expect(dataType(example.name)).toBe(example); // resolves by its name alone (codec workers)
    for (const unit of UNITS) {
      const type = dataType({ name: "numpy.datetime64", configuration: { unit, scale_factor: 1 } });
      expect(type.name).toBe(`numpy.datetime64[${unit}]`);
      expect(dataTypeJSON(type)).toEqual({ name: "numpy.datetime64", configuration: { unit, scale_factor: 1 } });
    }
    expect(dataType({ name: "numpy.datetime64", configuration: { unit: "μs", scale_factor: 2 } }).name).toBe(
      "numpy.datetime64[2us]",
    );
    expect(dataType({ name: "datetime64", configuration: { unit: "s", scale_factor: 1 } }).name).toBe(
      "numpy.datetime64[s]",
    );
  });

  it("refuses malformed configurations with a typed error naming the field", () => {
    const bad = (value: unknown, field: string) => {
      expect(() => dataType(value)).toThrow(InvalidMetadataError);
      expect(() => dataType(value)).toThrow(expect.objectContaining({ field }));
    };
    bad("numpy.datetime64", "data_type.configuration");
    bad(
      { name: "numpy.datetime64", configuration: { unit: "fortnight", scale_factor: 1 } },
      "data_type.configuration.unit",
    );
    bad({ name: "numpy.timedelta64", configuration: { unit: "s" } }, "data_type.configuration.scale_factor");
    bad(
      { name: "numpy.timedelta64", configuration: { unit: "s", scale_factor: 0 } },
      "data_type.configuration.scale_factor",
    );
    bad(
      { name: "numpy.timedelta64", configuration: { unit: "s", scale_factor: 2 ** 31 } },
      "data_type.configuration.scale_factor",
    );
    bad(
      { name: "numpy.timedelta64", configuration: { unit: "s", scale_factor: 1, endian: "little" } },
      "data_type.configuration.endian",
    );
    bad("numpy.datetime64[3lightyears]", "data_type");
  });

  it('takes fill values as integers, "NaT" or -2^63, and writes NaT as "NaT"', () => {
    const type = dataType("numpy.datetime64[ns]");
    expect(parseScalar("NaT", type)).toBe(NAT);
    expect(parseScalar(NAT, type)).toBe(NAT);
    expect(parseScalar(12, type)).toBe(12n);
    expect(serializeScalar(NAT, type)).toBe("NaT");
    expect(serializeScalar(5n, type)).toBe(5n);
    expect(() => parseScalar(2n ** 63n, type)).toThrow(/fill_value: integer out of range/);
    expect(() => parseScalar(1.5, type)).toThrow(InvalidMetadataError);
    expect(() => parseScalar("2020-01-01", type)).toThrow(InvalidMetadataError);
  });

  it("reads and writes counts as a BigInt64Array, NaT and fill values included, either byte order", async () => {
    for (const endian of ["little", "big"] as const) {
      const store = new MemoryStore();
      const doc = {
        ...zarrJson({ name: "numpy.timedelta64", configuration: { unit: "us", scale_factor: 10 } }, "NaT"),
      };
      doc.codecs = [{ name: "bytes", configuration: { endian } }];
      await store.set("t/zarr.json", encodeJson(doc));
      const arr = await openArray(store, "t");
      expect(arr.dataType).toBe("numpy.timedelta64[10us]");
      expect(arr.fillValue).toBe(NAT);
      await arr.set([slice(0, COUNTS.length)], BigInt64Array.from(COUNTS));
      const again = await openArray(store, "t");
      expect(Array.from((await again.get()).data as BigInt64Array)).toEqual([...COUNTS, NAT, NAT]);
      const stored = (await store.get("t/c/0"))!;
      const view = new DataView(stored.buffer, stored.byteOffset);
      expect(view.getBigInt64(8, endian === "little")).toBe(1n);
    }
    const created = await createArray(new MemoryStore(), "c", {
      shape: [3],
      dataType: "numpy.datetime64[D]",
      chunkShape: [3],
      fillValue: "NaT",
    });
    expect(created.metadata).toMatchObject({
      data_type: { name: "numpy.datetime64", configuration: { unit: "D", scale_factor: 1 } },
      fill_value: "NaT",
    });
  });
});

describe("datetime64 and timedelta64 in Zarr v2", () => {
  it("maps numpy dtype strings both ways", () => {
    for (const dtype of ["<M8[ns]", ">m8[10s]", "<M8[D]", "<m8", ">M8[25us]"]) {
      const np = parseNumpyDtype(dtype);
      expect(numpyDtypeOf(np.type, np.endian)).toBe(dtype);
    }
    expect(parseNumpyDtype("<M8[ns]").type.name).toBe("numpy.datetime64[ns]");
    expect(parseNumpyDtype(">m8").type.name).toBe("numpy.timedelta64[generic]");
    expect(() => parseNumpyDtype("<M8[parsec]")).toThrow(expect.objectContaining({ field: "dtype" }));
  });
});

const PYTHON = "/usr/bin/python3";
const PEER = fileURLToPath(new URL("./zarr_python_temporal.py", import.meta.url));

function zarrPythonReason(): string | undefined {
  if (!existsSync(PYTHON)) return `${PYTHON} is absent`;
  const probe = spawnSync(PYTHON, ["-c", "import zarr, numpy"], { encoding: "utf8" });
  return probe.status === 0
    ? undefined
    : `zarr is not importable by ${PYTHON} (apt-get install python3-zarr): ${probe.stderr.trim().split("\n").pop()}`;
}
const skipReason = zarrPythonReason();
if (skipReason) console.log(`zarr-python datetime64 tests skipped: ${skipReason}`);

function zarrPython<T>(requests: object[]): T[] {
  const run = spawnSync(PYTHON, [PEER], { input: JSON.stringify(requests), encoding: "utf8" });
  if (run.status !== 0) throw new Error(`zarr_python_temporal.py failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as T[];
}

describe.skipIf(skipReason !== undefined)("datetime64 and timedelta64 against zarr-python 2.13", () => {
  const work = mkdtempSync(join(tmpdir(), "zarrkit-temporal-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const CASES = [
    { dtype: "<M8[ns]", fill: "NaT" },
    { dtype: ">m8[10s]", fill: "7" },
    { dtype: "<M8[D]", fill: "-3" },
    { dtype: "<m8[us]", fill: "0" },
  ];

  it.each(CASES)("reads $dtype as zarr-python writes it, fill value $fill", async ({ dtype, fill }) => {
    const path = join(work, `py-${dtype.replace(/\W/g, "")}`);
    zarrPython([
      { op: "write", path, dtype, shape: [COUNTS.length + 2], chunks: [3], fill, counts: COUNTS.map(String) },
    ]);
    const arr = await openArray(await storeFromDir(path), "", { format: 2 });
    const fillCount = fill === "NaT" ? NAT : BigInt(fill);
    expect([arr.dataType, arr.fillValue]).toEqual([parseNumpyDtype(dtype).type.name, fillCount]);
    expect(Array.from((await arr.get()).data as BigInt64Array)).toEqual([...COUNTS, fillCount, fillCount]);
  });

  it.each(CASES)("zarr-python reads $dtype as zarrkit writes it, fill value $fill", async ({ dtype, fill }) => {
    const store = new MemoryStore();
    const fillValue = fill === "NaT" ? "NaT" : BigInt(fill);
    const arr = await createArray(store, "", {
      format: 2,
      shape: [COUNTS.length + 2],
      dataType: dtype,
      chunkShape: [3],
      fillValue,
    });
    await arr.set([slice(0, COUNTS.length)], BigInt64Array.from(COUNTS));
    const path = join(work, `zk-${dtype.replace(/\W/g, "")}`);
    await dirFromStore(store, path);
    const [read] = zarrPython<{ dtype: string; fill: string; counts: string[] }>([{ op: "read", path }]);
    const fillText = fill === "NaT" ? String(NAT) : fill;
    expect(read).toEqual({ dtype, fill: fillText, counts: [...COUNTS.map(String), fillText, fillText] });
  });
});
