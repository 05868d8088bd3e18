// numcodecs' array->array filters and json2: encoded specs, edge cases and
// typed errors. (Byte-exact agreement with numcodecs is in numcodecs-python.test.ts.)
import {
  type ArrayToArrayCodec,
  type ArrayToBytesCodec,
  type CodecFactory,
  CorruptDataError,
  InvalidMetadataError,
  UnsupportedError,
} from "@zarrkit/registry";
import { describe, expect, test } from "vitest";
import { numcodecsAsTypeCodecFactory } from "../src/numcodecs/astype.js";
import { bitRound, numcodecsBitRoundCodecFactory } from "../src/numcodecs/bitround.js";
import { numcodecsCategorizeCodecFactory } from "../src/numcodecs/categorize.js";
import { numcodecsJson2CodecFactory, pythonJsonString } from "../src/numcodecs/json2.js";
import { numcodecsPackBitsCodecFactory } from "../src/numcodecs/packbits.js";
import {
  numcodecsFixedScaleOffsetCodecFactory,
  numcodecsQuantizeCodecFactory,
  quantizeScale,
} from "../src/numcodecs/scale.js";
import { chunkSpec, create, ctx, FIELD } from "./helpers.js";

async function failure(run: () => unknown): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a failure");
}

describe("encoded specs tell the next codec the stored type", () => {
  test("fixedscaleoffset, astype and categorize change the data type and convert the fill value", async () => {
    const fso = await create<ArrayToArrayCodec>(
      numcodecsFixedScaleOffsetCodecFactory,
      { offset: 1000, scale: 10, dtype: "<f8", astype: "|u1" },
      chunkSpec([4], "float64", 1002.5),
    );
    const spec = fso.encodedSpec(chunkSpec([4], "float64", 1002.5));
    expect([spec.dataType.name, spec.fillValue, spec.shape]).toEqual(["uint8", 25, [4]]);
    expect(fso.toJSON()).toEqual({
      name: "numcodecs.fixedscaleoffset",
      configuration: { offset: 1000, scale: 10, dtype: "<f8", astype: "|u1" },
    });
    const astype = await create<ArrayToArrayCodec>(
      numcodecsAsTypeCodecFactory,
      { encode_dtype: "<i8", decode_dtype: "<f4" },
      chunkSpec([4], "float32", -2.5),
    );
    const a = astype.encodedSpec(chunkSpec([4], "float32", -2.5));
    expect([a.dataType.name, a.fillValue]).toEqual(["int64", -2n]);
    const cat = await create<ArrayToArrayCodec>(
      numcodecsCategorizeCodecFactory,
      { labels: ["x", "y"], dtype: "|O", astype: "<u2" },
      chunkSpec([4], "string", "y"),
    );
    const c = cat.encodedSpec(chunkSpec([4], "string", "y"));
    expect([c.dataType.name, c.fillValue]).toEqual(["uint16", 2]);
  });

  test("packbits stores 1 + ceil(n / 8) uint8 values, the first the padding", async () => {
    const spec = chunkSpec([3, 5], "bool");
    const codec = await create<ArrayToArrayCodec>(numcodecsPackBitsCodecFactory, {}, spec);
    expect(codec.encodedSpec(spec)).toMatchObject({ shape: [3], fillValue: 0 });
    expect(codec.encodedSpec(spec).dataType.name).toBe("uint8");
    const bits = new Uint8Array(15).map((_, i) => (i % 3 === 0 ? 1 : 0));
    const encoded = await codec.encode({ data: bits, shape: [3, 5] }, spec, ctx);
    expect([...(encoded.data as Uint8Array)]).toEqual([1, 0b10010010, 0b01001000]);
    expect([...((await codec.decode(encoded, spec, ctx)).data as Uint8Array)]).toEqual([...bits]);
    for (const bad of [new Uint8Array([1, 0]), new Uint8Array([2, 0, 0]), new Uint8Array([1, 0, 0, 0])]) {
      expect(await failure(() => codec.decode({ data: bad, shape: [bad.length] }, spec, ctx))).toBeInstanceOf(
        CorruptDataError,
      );
    }
  });
});

describe("numcodecs arithmetic", () => {
  test("quantize's scale is numcodecs' power of two", () => {
    expect([quantizeScale(0), quantizeScale(1), quantizeScale(2), quantizeScale(3)]).toEqual([1, 16, 128, 1024]);
  });

  test("fixedscaleoffset rounds halves to even as np.around does", async () => {
    const spec = chunkSpec([4], "float64");
    const codec = await create<ArrayToArrayCodec>(
      numcodecsFixedScaleOffsetCodecFactory,
      { offset: 0, scale: 1, dtype: "<f8", astype: "<i4" },
      spec,
    );
    const encoded = await codec.encode({ data: new Float64Array([0.5, 1.5, 2.5, -2.5]), shape: [4] }, spec, ctx);
    expect([...(encoded.data as Int32Array)]).toEqual([0, 2, 2, -2]);
  });

  test("bitround keeps keepbits mantissa bits, ties to even", () => {
    // 1 + 2^-23 * 0b11 with 21 bits kept: the two dropped bits round up to the next even mantissa.
    const f = new Float32Array(new Uint32Array([0x3f800003, 0x3f800001, 0x3f800002]).buffer);
    expect([...new Uint32Array(bitRound(f, 21).buffer)]).toEqual([0x3f800004, 0x3f800000, 0x3f800000]);
    expect([...bitRound(new Float64Array([Math.PI]), 52)]).toEqual([Math.PI]);
  });
});

describe("json2", () => {
  test("writes Python's json escapes", () => {
    expect(pythonJsonString('é"\\\n\u0001\u007f😀', true)).toBe('"\\u00e9\\"\\\\\\n\\u0001\\u007f\\ud83d\\ude00"');
    expect(pythonJsonString("é", false)).toBe('"é"');
  });

  test("corrupt, non-string and misshapen documents are typed errors", async () => {
    const spec = chunkSpec([2], "string");
    const codec = await create<ArrayToBytesCodec>(numcodecsJson2CodecFactory, {}, spec);
    const bytes = (text: string) => new TextEncoder().encode(text);
    expect((await codec.decode(bytes('["a","b","|O",[2]]'), spec, ctx)).data).toEqual(["a", "b"]);
    for (const text of ["[", '{"a":1}', '["a","|O",[2]]', '["a","b","|O",[3]]', '["a","b","|O",[2,2]]']) {
      expect(await failure(() => codec.decode(bytes(text), spec, ctx)), text).toBeInstanceOf(CorruptDataError);
    }
    for (const text of ['["a",1,"|O",[2]]', '["a",null,"|O",[2]]', '[1,2,"<i8",[2]]', '[["a"],"b","|O",[2]]']) {
      expect(await failure(() => codec.decode(bytes(text), spec, ctx)), text).toBeInstanceOf(UnsupportedError);
    }
    const indented = await create<ArrayToBytesCodec>(numcodecsJson2CodecFactory, { indent: 2 }, spec);
    expect(await failure(() => indented.encode({ data: ["a", "b"], shape: [2] }, spec, ctx))).toBeInstanceOf(
      UnsupportedError,
    );
  });
});

describe("bad configurations name the field", () => {
  const cases: [CodecFactory, Record<string, unknown>, string, string][] = [
    [numcodecsFixedScaleOffsetCodecFactory, { scale: 1, dtype: "<f8" }, "float64", "offset"],
    [numcodecsFixedScaleOffsetCodecFactory, { offset: 0, scale: 0, dtype: "<f8" }, "float64", "scale"],
    [numcodecsFixedScaleOffsetCodecFactory, { offset: 0, scale: 1, dtype: "<f4" }, "float64", "dtype"],
    [numcodecsFixedScaleOffsetCodecFactory, { offset: 0, scale: 1, astype: "<x2" }, "float64", "astype"],
    [numcodecsQuantizeCodecFactory, { digits: 2, dtype: "<i4" }, "int32", "dtype"],
    [numcodecsQuantizeCodecFactory, { digits: 2.5 }, "float64", "digits"],
    [numcodecsBitRoundCodecFactory, { keepbits: 24 }, "float32", "keepbits"],
    [numcodecsBitRoundCodecFactory, { keepbits: -1 }, "float32", "keepbits"],
    [numcodecsAsTypeCodecFactory, { decode_dtype: "<f8" }, "float64", "encode_dtype"],
    [numcodecsAsTypeCodecFactory, { encode_dtype: "<f4", decode_dtype: "<f8" }, "int32", "decode_dtype"],
    [numcodecsCategorizeCodecFactory, { labels: ["a", 1] }, "string", "labels"],
    [numcodecsCategorizeCodecFactory, { labels: ["a"], dtype: "<i4" }, "string", "dtype"],
    [numcodecsJson2CodecFactory, { separators: [","] }, "string", "separators"],
    [numcodecsJson2CodecFactory, { ensure_ascii: 1 }, "string", "ensure_ascii"],
    [numcodecsPackBitsCodecFactory, { size: 1 }, "bool", "size"],
  ];
  test.each(cases)("%#: %j", async (factory, configuration, type, key) => {
    const error = await failure(() => create(factory, configuration, chunkSpec([4], type)));
    expect(error).toBeInstanceOf(InvalidMetadataError);
    expect((error as InvalidMetadataError).field).toBe(`${FIELD}.configuration.${key}`);
  });

  test("codecs refuse data types they cannot handle", async () => {
    expect(
      await failure(() => create(numcodecsBitRoundCodecFactory, { keepbits: 3 }, chunkSpec([4], "int32"))),
    ).toBeInstanceOf(UnsupportedError);
    expect(await failure(() => create(numcodecsPackBitsCodecFactory, {}, chunkSpec([4], "uint8")))).toBeInstanceOf(
      InvalidMetadataError,
    );
    expect(
      await failure(() => create(numcodecsCategorizeCodecFactory, { labels: [] }, chunkSpec([4], "int32"))),
    ).toBeInstanceOf(InvalidMetadataError);
    expect(await failure(() => create(numcodecsJson2CodecFactory, {}, chunkSpec([4], "int32")))).toBeInstanceOf(
      InvalidMetadataError,
    );
  });

  test("configuration is read from own properties only", async () => {
    const inherited = Object.create({ keepbits: 3 }) as Record<string, unknown>;
    expect(
      await failure(() => create(numcodecsBitRoundCodecFactory, inherited, chunkSpec([4], "float32"))),
    ).toBeInstanceOf(InvalidMetadataError);
  });
});
