import {
  type ArrayToArrayCodec,
  type BytesToBytesCodec,
  InvalidMetadataError,
  type NumericArray,
  UnsupportedError,
} from "@zarrkit/registry";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { deltaCodecFactory } from "../src/delta.js";
import { zlibCodecFactory } from "../src/zlib.js";
import {
  chunkSpec,
  create,
  ctx,
  expectedArray,
  FIELD,
  fixtureBytes,
  fixtureBytesV2,
  fixtureCodecs,
} from "./helpers.js";

const delta = (type: string, configuration: Record<string, unknown> = {}, shape = [4]) =>
  create<ArrayToArrayCodec>(deltaCodecFactory, configuration, chunkSpec(shape, type));

async function encode(type: string, data: NumericArray, configuration: Record<string, unknown> = {}) {
  const codec = await delta(type, configuration, [data.length]);
  const spec = chunkSpec([data.length], type);
  return (await codec.encode({ data, shape: [data.length] }, spec, ctx)).data as NumericArray;
}

async function decode(type: string, data: NumericArray, configuration: Record<string, unknown> = {}) {
  const codec = await delta(type, configuration, [data.length]);
  const spec = chunkSpec([data.length], type);
  return (await codec.decode({ data, shape: [data.length] }, spec, ctx)).data as NumericArray;
}

const list = (values: NumericArray) => Array.from(values as ArrayLike<number | bigint>);

const ARRAYS = {
  int8: (v: number[]) => Int8Array.from(v),
  int16: (v: number[]) => Int16Array.from(v),
  int32: (v: number[]) => Int32Array.from(v),
  uint8: (v: number[]) => Uint8Array.from(v),
  uint16: (v: number[]) => Uint16Array.from(v),
  uint32: (v: number[]) => Uint32Array.from(v),
  int64: (v: number[]) => BigInt64Array.from(v, BigInt),
  uint64: (v: number[]) => BigUint64Array.from(v, (x) => BigInt.asUintN(64, BigInt(x))),
  float32: (v: number[]) => Float32Array.from(v),
  float64: (v: number[]) => Float64Array.from(v),
};

describe("numcodecs.delta", () => {
  test.each(Object.keys(ARRAYS))("%s round trips (including empty chunks)", async (type) => {
    const make = ARRAYS[type as keyof typeof ARRAYS];
    for (const values of [[], [7], [1, 2, 3, 4], Array.from({ length: 1000 }, (_, i) => (i * 37) % 251)]) {
      const data = make(values);
      const back = await decode(type, await encode(type, data));
      expect(back.constructor).toBe(data.constructor);
      expect(list(back)).toEqual(list(data));
    }
  });

  test("round trips arbitrary integers with wraparound", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { maxLength: 200 }),
        async (values) => {
          const data = Int32Array.from(values);
          expect(list(await decode("int32", await encode("int32", data)))).toEqual(Array.from(data));
        },
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { maxLength: 100 }),
        async (values) => {
          const data = BigInt64Array.from(values);
          expect(list(await decode("int64", await encode("int64", data)))).toEqual(values);
        },
      ),
    );
  });

  test("differences wrap around in the data type, as NumPy's do", async () => {
    expect(list(await encode("int8", Int8Array.from([127, -128, 0])))).toEqual([127, 1, -128]);
    expect(list(await encode("uint8", Uint8Array.from([255, 0, 255])))).toEqual([255, 1, 255]);
    expect(list(await decode("uint8", Uint8Array.from([200, 100, 1])))).toEqual([200, 44, 45]);
    expect(list(await encode("int64", BigInt64Array.from([2n ** 63n - 1n, -(2n ** 63n)])))).toEqual([
      2n ** 63n - 1n,
      1n,
    ]);
    expect(list(await encode("uint64", BigUint64Array.from([0n, 2n ** 64n - 1n])))).toEqual([0n, 2n ** 64n - 1n]);
  });

  test("floats sum in their own precision", async () => {
    const data = Float32Array.from([0.1, 0.2, 0.30000001, 1e7, 1e7 + 1]);
    expect(list(await decode("float32", await encode("float32", data)))).toEqual(Array.from(data));
  });

  test("astype stores deltas in a narrower integer type", async () => {
    const codec = await delta("int32", { dtype: "int32", astype: "int16" });
    const spec = chunkSpec([3], "int32", 7);
    expect(codec.encodedSpec(spec).dataType.name).toBe("int16");
    expect(codec.encodedSpec(spec).fillValue).toBe(7);
    const data = Int32Array.from([100_000, 100_005, 99_990]);
    const encoded = (await codec.encode({ data, shape: [3] }, spec, ctx)).data;
    // The first value does not fit int16 and wraps, exactly as numcodecs does it.
    expect(Array.from(encoded as Int16Array)).toEqual([-31072, 5, -15]);
    expect(encoded).toBeInstanceOf(Int16Array);
    const small = Int32Array.from([1000, 1005, 990]);
    const back = await codec.decode(await codec.encode({ data: small, shape: [3] }, spec, ctx), spec, ctx);
    expect(Array.from(back.data as Int32Array)).toEqual([1000, 1005, 990]);
  });

  test("astype between 64-bit and narrower integers", async () => {
    const data = BigInt64Array.from([5_000_000_000n, 5_000_000_007n, 4_999_999_000n]);
    const deltas = await encode("int64", data, { astype: "int32" });
    expect(deltas).toBeInstanceOf(Int32Array);
    expect(Array.from(deltas as Int32Array).slice(1)).toEqual([7, -1007]);
    const codec = await delta("int64", { astype: "<i4" });
    expect(codec.encodedSpec(chunkSpec([3], "int64", 0n)).fillValue).toBe(0);
    const wide = await encode("int32", Int32Array.from([1, -1]), { astype: "uint64" });
    expect(Array.from(wide as BigUint64Array)).toEqual([1n, 2n ** 64n - 2n]);
    expect(list(await decode("int32", wide, { astype: "uint64" }))).toEqual([1, -1]);
  });

  test("toJSON keeps what zarr.json said, filling dtype from the array", async () => {
    expect((await delta("int32")).toJSON()).toEqual({ name: "numcodecs.delta", configuration: { dtype: "int32" } });
    expect((await delta("int16", { dtype: "<i2", astype: "|i1" })).toJSON()).toEqual({
      name: "numcodecs.delta",
      configuration: { dtype: "<i2", astype: "|i1" },
    });
    const codec = await delta("int32");
    const spec = chunkSpec([4], "int32");
    expect(codec.encodedSpec(spec)).toBe(spec);
  });

  test.each([
    ["a dtype that is not the array's", "int32", { dtype: "int16" }, InvalidMetadataError, "dtype"],
    ["an unknown dtype", "int32", { dtype: "i3" }, InvalidMetadataError, "dtype"],
    ["a dtype that is not a string", "int32", { dtype: 4 }, InvalidMetadataError, "dtype"],
    ["an unknown astype", "int32", { astype: "fancy" }, InvalidMetadataError, "astype"],
    ["an unknown key", "int32", { order: "C" }, InvalidMetadataError, "order"],
    ["a big-endian dtype", "int32", { dtype: ">i4" }, UnsupportedError, "dtype"],
    ["float16 data", "float16", {}, UnsupportedError, "dtype"],
    ["bool data", "bool", {}, UnsupportedError, "dtype"],
    ["float deltas of integers", "int32", { astype: "float64" }, UnsupportedError, "astype"],
    ["integer deltas of floats", "float32", { astype: "int32" }, UnsupportedError, "astype"],
  ])("%s is refused naming the field", async (_what, type, configuration, errorClass, key) => {
    const error = await delta(type, configuration).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClass);
    expect((error as InvalidMetadataError).field).toBe(`${FIELD}.configuration.${key}`);
  });
});

describe("fixtures", () => {
  test("1d.contiguous.delta.i4: decodes the stored chunk, and encodes to the same bytes", async ({ skip }) => {
    const raw = fixtureBytes("1d.contiguous.delta.i4/c/0");
    const expected = expectedArray("1d.contiguous.delta.i4");
    const codecs = fixtureCodecs("1d.contiguous.delta.i4");
    if (!raw || !expected || !codecs) return skip("fixtures absent");
    const codec = await delta("int32", codecs[0]!.configuration);
    const spec = chunkSpec(expected.shape, "int32");
    const decoded = await codec.decode({ data: new Int32Array(raw.slice().buffer), shape: expected.shape }, spec, ctx);
    expect(Array.from(decoded.data as Int32Array)).toEqual(expected.data);
    const encoded = await codec.encode(
      { data: Int32Array.from(expected.data as number[]), shape: expected.shape },
      spec,
      ctx,
    );
    expect(new Uint8Array((encoded.data as Int32Array).buffer)).toEqual(raw);
    expect(codec.toJSON()).toEqual(codecs[0]);
  });

  test("3d.contiguous.delta.i4.mixed: delta over the transposed chunk in C order", async ({ skip }) => {
    const raw = fixtureBytes("3d.contiguous.delta.i4.mixed/c/0/0/0");
    const expected = expectedArray("3d.contiguous.delta.i4.mixed");
    const codecs = fixtureCodecs("3d.contiguous.delta.i4.mixed");
    if (!raw || !expected || !codecs) return skip("fixtures absent");
    expect(codecs.map((c) => c.name)).toEqual(["transpose", "numcodecs.delta", "bytes"]);
    const [a, b, c] = expected.shape as [number, number, number];
    const transposedShape = [b, a, c]; // order [1, 0, 2]
    const codec = await delta("int32", codecs[1]!.configuration, transposedShape);
    const spec = chunkSpec(transposedShape, "int32");
    const decoded = (
      await codec.decode({ data: new Int32Array(raw.slice().buffer), shape: transposedShape }, spec, ctx)
    ).data as Int32Array;
    const logical: number[] = [];
    for (let i = 0; i < a; i++)
      for (let j = 0; j < b; j++) for (let k = 0; k < c; k++) logical.push(decoded[(j * a + i) * c + k]!);
    expect(logical).toEqual(expected.data);
  });

  test("zarr-python v2 delta filter with NumPy type strings (1d.contiguous.delta.i2, zlib)", async ({ skip }) => {
    const raw = fixtureBytesV2("1d.contiguous.delta.i2/0");
    if (!raw) return skip("fixtures absent");
    const bytes = await (await create<BytesToBytesCodec>(zlibCodecFactory, { level: 1 })).decode(raw, ctx);
    const decoded = await decode("int16", new Int16Array(bytes.slice().buffer), { dtype: "<i2", astype: "<i2" });
    expect(list(decoded)).toEqual([1, 2, 3, 4]);
  });
});
