import type { ArrayToArrayCodec, CodecFactory, NumericArray } from "@zarrkit/registry";
import { checkKeys } from "../config.js";
import { castArray, expectArrayType, mapScalar, requireType } from "./dtypes.js";

/**
 * `numcodecs.astype`: `{"encode_dtype", "decode_dtype"}`; stores the array
 * converted to `encode_dtype` with NumPy's astype (floats truncate into
 * integers, integers keep their low bits). `decode_dtype` defaults to the array's type.
 */
export const numcodecsAsTypeCodecFactory: CodecFactory = (configuration, ctx): ArrayToArrayCodec => {
  const field = ctx.field;
  checkKeys(configuration, ["encode_dtype", "decode_dtype"], field);
  const encodeType = requireType(configuration, "encode_dtype", field);
  const decodeType = requireType(configuration, "decode_dtype", field, ctx.spec.dataType.name);
  expectArrayType(decodeType, ctx.spec.dataType.name, field, "decode_dtype");
  const stored = {
    encode_dtype: configuration.encode_dtype as string,
    decode_dtype: Object.hasOwn(configuration, "decode_dtype")
      ? (configuration.decode_dtype as string)
      : decodeType.name,
  };
  const encode = (values: NumericArray) => castArray(values, encodeType);
  return {
    kind: "array_to_array",
    name: "numcodecs.astype",
    encodedSpec: (spec) => ({
      ...spec,
      dataType: encodeType,
      fillValue: mapScalar(spec.fillValue, decodeType, encode),
    }),
    encode: (chunk) => ({ data: encode(chunk.data as NumericArray), shape: [...chunk.shape] }),
    decode: (chunk) => ({ data: castArray(chunk.data as NumericArray, decodeType), shape: [...chunk.shape] }),
    toJSON: () => ({ name: "numcodecs.astype", configuration: stored }),
  };
};
