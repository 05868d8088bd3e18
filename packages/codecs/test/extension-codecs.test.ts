// The zarr-extensions array->array codecs cast_value, scale_offset, reshape and bitround: their registry pages'
// rules and examples, typed errors naming each field, and, where Python's numcodecs has the same operation, the same
// bytes as numcodecs (scale_offset + cast_value with out_of_range "wrap" is the registry's translation of
// numcodecs.fixedscaleoffset; bitround on floats is numcodecs.bitround), and through real arrays (core). The
// numcodecs cases skip, saying why, where /usr/bin/python3 with numcodecs is absent.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  type ArrayToArrayCodec,
  type Chunk,
  type ChunkSpec,
  CorruptDataError,
  InvalidMetadataError,
  InvalidSelectionError,
  type NumericArray,
  resolveCodec,
  UnsupportedError,
} from "@zarrkit/registry";
import { createArray, MemoryStore, openArray } from "@zarrkit/core";
import { describe, expect, it } from "vitest";
import "../src/index.js";
import { chunkSpec, create, ctx, FIELD } from "./helpers.js";

async function codec(
  name: string,
  configuration: Record<string, unknown>,
  spec: ChunkSpec,
): Promise<ArrayToArrayCodec> {
  return create<ArrayToArrayCodec>(await resolveCodec(name), configuration, spec);
}

/** Encode through a chain of array->array codecs, as a pipeline does; returns the chunk and each codec's input spec. */
async function encodeChain(chain: ArrayToArrayCodec[], chunk: Chunk, spec: ChunkSpec): Promise<Chunk> {
  let current = chunk;
  let s = spec;
  for (const c of chain) {
    current = await c.encode(current, s, ctx);
    s = c.encodedSpec(s);
  }
  return current;
}

async function decodeChain(chain: ArrayToArrayCodec[], chunk: Chunk, spec: ChunkSpec): Promise<Chunk> {
  const specs = [spec];
  for (const c of chain) specs.push(c.encodedSpec(specs.at(-1)!));
  let current = chunk;
  for (let i = chain.length - 1; i >= 0; i--) current = await chain[i]!.decode(current, specs[i]!, ctx);
  return current;
}

const field = (key: string) => expect.objectContaining({ field: `${FIELD}.configuration.${key}` });

describe("cast_value", () => {
  const cast = (configuration: Record<string, unknown>, type = "float64", fill: number | bigint = 0) =>
    codec("cast_value", configuration, chunkSpec([6], type, fill));

  it("rounds floats into integers by each rounding mode", async () => {
    const input = Float64Array.from([2.5, -2.5, 1.5, -0.5, 0.49999999999999994, 3.7]);
    const expected: Record<string, number[]> = {
      "nearest-even": [2, -2, 2, -0, 0, 4],
      "towards-zero": [2, -2, 1, -0, 0, 3],
      "towards-positive": [3, -2, 2, -0, 1, 4],
      "towards-negative": [2, -3, 1, -1, 0, 3],
      "nearest-away": [3, -3, 2, -1, 0, 4],
    };
    for (const [rounding, want] of Object.entries(expected)) {
      const c = await cast({ data_type: "int8", rounding });
      const out = await c.encode({ data: input, shape: [6] }, chunkSpec([6], "float64"), ctx);
      expect(Array.from(out.data as Int8Array), rounding).toEqual(want.map((v) => v + 0));
    }
  });

  it("refuses, clamps or wraps values out of range; NaN into integers is always refused", async () => {
    const input = { data: Float64Array.from([300, -129, 255, Number.POSITIVE_INFINITY, 0, -1]), shape: [6] };
    const spec = chunkSpec([6], "float64");
    const encode = async (out_of_range: string, data_type = "uint8", data = input) =>
      Array.from((await (await cast({ data_type, out_of_range })).encode(data, spec, ctx)).data as Uint8Array);
    await expect(encode("error")).rejects.toThrow(InvalidSelectionError);
    await expect(encode("error")).rejects.toThrow(/Element 0 .*300 is outside \[0, 255\]/);
    expect(await encode("clamp")).toEqual([255, 0, 255, 255, 0, 0]);
    await expect(encode("wrap")).rejects.toThrow(/Infinity is outside/);
    expect(
      await encode("wrap", "uint8", { data: Float64Array.from([300, -129, 255, 256, 0, -1]), shape: [6] }),
    ).toEqual([44, 127, 255, 0, 0, 255]);
    await expect(
      encode("clamp", "int16", { data: Float64Array.from([1, Number.NaN, 0, 0, 0, 0]), shape: [6] }),
    ).rejects.toThrow(/Element 1 .*NaN/);
    const toFloat32 = await cast({ data_type: "float32", out_of_range: "clamp" });
    const big = await toFloat32.encode(
      { data: Float64Array.from([1e39, -1e39, Number.NaN, 0.1, 3.4028235e38, 0]), shape: [6] },
      spec,
      ctx,
    );
    expect(Array.from(big.data as Float32Array)).toEqual([
      3.4028234663852886e38,
      -3.4028234663852886e38,
      Number.NaN,
      Math.fround(0.1),
      3.4028234663852886e38,
      0,
    ]);
  });

  it("casts 64-bit integers exactly and decodes back to the array's type", async () => {
    const c = await codec("cast_value", { data_type: "int64" }, chunkSpec([3], "uint8", 0));
    const encoded = await c.encode({ data: Uint8Array.from([0, 200, 255]), shape: [3] }, chunkSpec([3], "uint8"), ctx);
    expect(encoded.data).toEqual(BigInt64Array.from([0n, 200n, 255n]));
    const decoded = await Promise.resolve()
      .then(() => c.decode({ data: BigInt64Array.from([7n, 2n ** 40n, 3n]), shape: [3] }, chunkSpec([3], "uint8"), ctx))
      .catch((e: unknown) => e);
    expect(decoded).toBeInstanceOf(CorruptDataError);
    expect(decoded).toMatchObject({ key: ctx.key });
  });

  it("maps the fill value and refuses one the cast cannot hold", async () => {
    const c = await cast({ data_type: "int16" }, "float64", 2.5);
    expect(c.encodedSpec(chunkSpec([6], "float64", 2.5))).toMatchObject({ dataType: { name: "int16" }, fillValue: 2 });
    await expect(cast({ data_type: "uint8" }, "float64", Number.NaN)).rejects.toThrow(/fill value cannot be cast: NaN/);
    expect(c.toJSON()).toEqual({ name: "cast_value", configuration: { data_type: "int16" } });
  });

  it("refuses malformed configurations, naming the field", async () => {
    await expect(cast({})).rejects.toThrow(field("data_type"));
    await expect(cast({ data_type: "int8", rounding: "up" })).rejects.toThrow(field("rounding"));
    await expect(cast({ data_type: "int8", out_of_range: "saturate" })).rejects.toThrow(field("out_of_range"));
    await expect(cast({ data_type: "float32", out_of_range: "wrap" })).rejects.toThrow(field("out_of_range"));
    await expect(cast({ data_type: "int8", extra: 1 })).rejects.toThrow(field("extra"));
    await expect(cast({ data_type: "complex64" })).rejects.toThrow(UnsupportedError);
    await expect(cast({ data_type: 8 })).rejects.toThrow(InvalidMetadataError);
  });
});

describe("scale_offset", () => {
  it("computes (x - offset) * scale and back, in float32 steps for float32 (the registry's example)", async () => {
    const spec = chunkSpec([4], "float32", 5);
    const c = await codec("scale_offset", { offset: 5, scale: 0.1 }, spec);
    const input = Float32Array.from([5, 15, 6.5, -5]);
    const encoded = await c.encode({ data: input, shape: [4] }, spec, ctx);
    const f = Math.fround;
    expect(Array.from(encoded.data as Float32Array)).toEqual([
      0,
      f(f(10) * f(0.1)),
      f(f(1.5) * f(0.1)),
      f(f(-10) * f(0.1)),
    ]);
    expect(c.encodedSpec(spec).fillValue).toBe(0);
    const decoded = await c.decode(encoded, spec, ctx);
    expect(Array.from(decoded.data as Float32Array)).toEqual([5, 15, 6.5, -5]);
    expect(c.toJSON()).toEqual({ name: "scale_offset", configuration: { offset: 5, scale: 0.1 } });
  });

  it("refuses malformed configurations, naming the field", async () => {
    const spec = chunkSpec([4], "float64");
    await expect(codec("scale_offset", { scale: 2 }, spec)).rejects.toThrow(field("offset"));
    await expect(codec("scale_offset", { offset: 1, scale: 0 }, spec)).rejects.toThrow(field("scale"));
    await expect(codec("scale_offset", { offset: 1, scale: "2" }, spec)).rejects.toThrow(field("scale"));
    await expect(codec("scale_offset", { offset: 1, scale: 2, astype: "u1" }, spec)).rejects.toThrow(field("astype"));
    await expect(codec("scale_offset", { offset: 1, scale: 2 }, chunkSpec([4], "int16"))).rejects.toThrow(
      UnsupportedError,
    );
  });
});

describe("reshape", () => {
  it("reshapes the registry's example [[0, 1], [2], 3] and keeps the elements in C order", async () => {
    const spec = chunkSpec([100, 50, 64, 3], "uint8");
    const c = await codec("reshape", { shape: [[0, 1], [2], 3] }, spec);
    expect(c.encodedSpec(spec).shape).toEqual([5000, 64, 3]);
    const small = chunkSpec([2, 3, 4], "int16");
    const r = await codec("reshape", { shape: [-1, [2]] }, small);
    const data = Int16Array.from({ length: 24 }, (_, i) => i);
    const encoded = await r.encode({ data, shape: [2, 3, 4] }, small, ctx);
    expect(encoded.shape).toEqual([6, 4]);
    expect(Array.from(encoded.data as Int16Array)).toEqual(Array.from(data));
    expect((await r.decode(encoded, small, ctx)).shape).toEqual([2, 3, 4]);
    expect(r.toJSON()).toEqual({ name: "reshape", configuration: { shape: [-1, [2]] } });
  });

  it.each([
    [[[1], [0]], /increasing order/],
    [[[1, 0], 10, [3, 4]], /increasing order/],
    [[-1, -1], /-1 only once/],
    [[7, 7], /does not hold/],
    [[0, 24], /positive integers/],
    [[[3]], /integer in \[0, 3\)/],
    [[[1], 8], /not the raveled index/],
    [[], /non-empty list/],
  ])("refuses shape %j, naming the field", async (shape, why) => {
    const spec = chunkSpec([2, 3, 4], "int16");
    await expect(codec("reshape", { shape }, spec)).rejects.toThrow(why);
    await expect(codec("reshape", { shape }, spec)).rejects.toThrow(field("shape"));
  });
});

describe("bitround", () => {
  /** Reference: the nearest multiple of 2^(msb - keepbits), ties to the even one, saturating at the width's largest. */
  function reference(u: number, keepbits: number, width: number): number {
    const maxbits = u === 0 ? 0 : Math.floor(Math.log2(u)) + 1;
    if (keepbits >= maxbits) return u;
    const q = 2 ** (maxbits - keepbits);
    const lower = Math.floor(u / q) * q;
    const rest = u - lower;
    let r = rest * 2 > q || (rest * 2 === q && (lower / q) % 2 === 1) ? lower + q : lower;
    if (r > 2 ** width - 1) r = Math.floor((2 ** width - 1) / q) * q; // saturated, then masked
    return r;
  }

  it("rounds every uint8 and int8 pattern from its most significant set bit, for every keepbits", async () => {
    for (const type of ["uint8", "int8"] as const) {
      for (let keepbits = 1; keepbits <= 8; keepbits++) {
        const spec = chunkSpec([256], type);
        const c = await codec("bitround", { keepbits }, spec);
        const patterns = Uint8Array.from({ length: 256 }, (_, i) => i);
        const input = type === "uint8" ? patterns : new Int8Array(patterns.buffer.slice(0));
        const out = new Uint8Array(
          ((await c.encode({ data: input, shape: [256] }, spec, ctx)).data as Uint8Array).buffer,
        );
        expect(Array.from(out), `${type} keepbits ${keepbits}`).toEqual(
          Array.from(patterns, (u) => reference(u, keepbits, 8)),
        );
      }
    }
  });

  it("rounds 16-, 32- and 64-bit integers and datetimes the same way", async () => {
    const values = [0, 1, 1000, 1023, 65535, 40000, 12345];
    for (const [type, Ctor, width] of [
      ["uint16", Uint16Array, 16],
      ["uint32", Uint32Array, 32],
    ] as const) {
      const spec = chunkSpec([values.length], type);
      const c = await codec("bitround", { keepbits: 3 }, spec);
      const out = (await c.encode({ data: Ctor.from(values), shape: [values.length] }, spec, ctx)).data;
      expect(Array.from(out as Uint16Array)).toEqual(values.map((v) => reference(v, 3, width)));
    }
    const big = BigInt64Array.from([1_577_836_800_123_456_789n, -1n, 5n]);
    const spec64 = chunkSpec([3], "int64");
    const out = (
      await (await codec("bitround", { keepbits: 4 }, spec64)).encode({ data: big, shape: [3] }, spec64, ctx)
    ).data;
    // 1577836800123456789 has 61 bits: 4 kept, rounded up to 0b1011 << 57; -1 (all ones) saturates and is masked.
    expect(Array.from(out as BigInt64Array)).toEqual([0b1011n << 57n, -(1n << 60n), 5n]);
  });

  it("refuses keepbits below 1 or beyond the mantissa, and types it cannot round, naming the field", async () => {
    await expect(codec("bitround", { keepbits: 0 }, chunkSpec([4], "float32"))).rejects.toThrow(field("keepbits"));
    await expect(codec("bitround", { keepbits: 24 }, chunkSpec([4], "float32"))).rejects.toThrow(field("keepbits"));
    await expect(codec("bitround", { keepbits: 3, extra: 1 }, chunkSpec([4], "float32"))).rejects.toThrow(
      field("extra"),
    );
    await expect(codec("bitround", { keepbits: 3 }, chunkSpec([4], "string"))).rejects.toThrow(UnsupportedError);
  });
});

const PYTHON = "/usr/bin/python3";
const SCRIPT = fileURLToPath(new URL("./numcodecs_reference.py", import.meta.url));
function pythonReason(): string | undefined {
  if (!existsSync(PYTHON)) return `${PYTHON} is absent`;
  const probe = spawnSync(PYTHON, ["-c", "import numcodecs, numpy"], { encoding: "utf8" });
  return probe.status === 0 ? undefined : `numcodecs is not importable by ${PYTHON} (apt-get install python3-zarr)`;
}
const skipReason = pythonReason();
if (skipReason) console.log(`numcodecs cross-checks of the extension codecs skipped: ${skipReason}`);

interface Encoded {
  data: string;
  dtype: string;
}

function numcodecs(cases: object[]): { encoded: Encoded; decoded: Encoded }[] {
  const run = spawnSync(PYTHON, [SCRIPT], {
    input: JSON.stringify({ encode: cases }),
    encoding: "utf8",
    maxBuffer: 64 * 2 ** 20,
  });
  if (run.status !== 0) throw new Error(`numcodecs_reference.py failed: ${run.stderr}`);
  return JSON.parse(run.stdout).encoded;
}

const bytesOf = (data: NumericArray) => Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");
const smooth = Array.from({ length: 500 }, (_, i) => Math.sin(i / 7) * 12.3 + (i % 9) * 0.37);

describe.skipIf(skipReason !== undefined)("against numcodecs", () => {
  const SCALED = [
    { dtype: "<f4", type: "float32", astype: "<u1", castTo: "uint8", offset: -13, scale: 9.5 }, // wraps past 255
    { dtype: "<f8", type: "float64", astype: "<i2", castTo: "int16", offset: 2.5, scale: 1000 },
    { dtype: "<f8", type: "float64", astype: "|i1", castTo: "int8", offset: 0, scale: 10 }, // wraps past 127
  ];

  it.each(SCALED)(
    "scale_offset + cast_value (wrap) encode and decode as numcodecs.fixedscaleoffset $dtype -> $astype",
    async (c) => {
      const [theirs] = numcodecs([
        {
          config: { id: "fixedscaleoffset", offset: c.offset, scale: c.scale, dtype: c.dtype, astype: c.astype },
          dtype: c.dtype,
          shape: [500],
          values: smooth,
        },
      ]);
      const spec = chunkSpec([500], c.type);
      const chain = [
        await codec("scale_offset", { offset: c.offset, scale: c.scale }, spec),
        await codec("cast_value", { data_type: c.castTo, out_of_range: "wrap" }, spec),
      ];
      const input = c.type === "float32" ? Float32Array.from(smooth) : Float64Array.from(smooth);
      const encoded = await encodeChain(chain, { data: input, shape: [500] }, spec);
      expect(bytesOf(encoded.data as NumericArray)).toBe(theirs!.encoded.data);
      const decoded = await decodeChain(chain, encoded, spec);
      if (c.type === "float64") {
        expect(bytesOf(decoded.data as NumericArray)).toBe(theirs!.decoded.data);
      } else {
        // numcodecs (NumPy 1) divides the uint8 values by the Python float in float64 and rounds to float32 once;
        // scale_offset computes in the array's float32, step by step (as NumPy 2 does): the two roundings may differ
        // by a float32 rounding of the quotient (as large as the offset), never by more.
        const want = new Float32Array(new Uint8Array(Buffer.from(theirs!.decoded.data, "base64")).buffer);
        const got = decoded.data as Float32Array;
        const far = Array.from(got).filter(
          (v, i) => Math.abs(v - want[i]!) > (Math.abs(want[i]!) + Math.abs(c.offset)) * 2 ** -23,
        );
        expect(far).toEqual([]);
      }
    },
  );

  it.each([
    { dtype: "<f4", type: "float32", keepbits: 7 },
    { dtype: "<f4", type: "float32", keepbits: 1 },
    { dtype: "<f8", type: "float64", keepbits: 30 },
  ])("bitround encodes $dtype with keepbits $keepbits as numcodecs.bitround", async (c) => {
    const [theirs] = numcodecs([
      { config: { id: "bitround", keepbits: c.keepbits }, dtype: c.dtype, shape: [500], values: smooth },
    ]);
    const spec = chunkSpec([500], c.type);
    const input = c.type === "float32" ? Float32Array.from(smooth) : Float64Array.from(smooth);
    const encoded = await (await codec("bitround", { keepbits: c.keepbits }, spec)).encode(
      { data: input, shape: [500] },
      spec,
      ctx,
    );
    expect(bytesOf(encoded.data as NumericArray)).toBe(theirs!.encoded.data);
  });
});

describe("through real arrays (core's pipeline)", () => {
  it("a float32 array stored as uint8 by scale_offset + cast_value reads back to within the scale's step", async () => {
    const store = new MemoryStore();
    const codecs = [
      { name: "scale_offset", configuration: { offset: 10, scale: 4 } },
      { name: "cast_value", configuration: { data_type: "uint8", out_of_range: "clamp" } },
      { name: "bytes" },
    ];
    const arr = await createArray(store, "a", {
      shape: [6],
      dataType: "float32",
      chunkShape: [4],
      codecs,
      fillValue: 10,
    });
    await arr.set(null, Float32Array.from([10, 10.25, 11, 73.75, 80, 9]));
    expect(Array.from((await store.get("a/c/0"))!)).toEqual([0, 1, 4, 255]); // 4 bytes a chunk: the decode cap
    expect(Array.from((await (await openArray(store, "a")).get()).data as Float32Array)).toEqual([
      10, 10.25, 11, 73.75, 73.75, 10,
    ]);
    // A stored chunk longer than 4 uint8 is refused as corrupt, naming its key.
    await store.set("a/c/0", new Uint8Array(5));
    await expect((await openArray(store, "a")).get()).rejects.toThrow(expect.objectContaining({ key: "a/c/0" }));
  });

  it("reshape and bitround in an array's codecs round-trip what they keep", async () => {
    const store = new MemoryStore();
    const codecs = [
      { name: "reshape", configuration: { shape: [-1] } },
      { name: "bitround", configuration: { keepbits: 2 } },
      { name: "bytes", configuration: { endian: "big" } },
    ];
    const arr = await createArray(store, "b", { shape: [2, 3], dataType: "uint16", chunkShape: [2, 3], codecs });
    await arr.set(null, Uint16Array.from([1, 2, 3, 1000, 1023, 65535]));
    expect(Array.from((await arr.get()).data as Uint16Array)).toEqual([1, 2, 3, 1024, 1024, 49152]);
    expect(Array.from((await store.get("b/c/0/0"))!).slice(0, 4)).toEqual([0, 1, 0, 2]);
  });
});
