// numcodecs' lossy float filters: fixedscaleoffset and quantize, computed as
// NumPy computes them (float32 arithmetic for float32 arrays, float64 otherwise).
import {
  type ArrayToArrayCodec,
  type ChunkSpec,
  type CodecFactory,
  InvalidMetadataError,
  type NumericArray,
  showValue,
} from "@zarrkit/registry";
import { checkKeys, type Configuration, readInt } from "../config.js";
import type { NumericType } from "../numeric-types.js";
import { castArray, expectArrayType, mapScalar, readNumber, readType, requireType, roundHalfEven } from "./dtypes.js";

/** The chunk's values as numbers: float32 arithmetic stays in a Float32Array, everything else goes to Float64Array. */
function asFloats(values: NumericArray): Float32Array | Float64Array {
  if (values instanceof Float32Array || values instanceof Float64Array) return values;
  const out = new Float64Array(values.length);
  if (values instanceof BigInt64Array || values instanceof BigUint64Array)
    for (let i = 0; i < values.length; i++) out[i] = Number(values[i]!);
  else out.set(values);
  return out;
}

/**
 * Apply `f` elementwise, rounding each result to float32 when the input is float32 (NumPy keeps float32 with a Python
 * scalar).
 */
function elementwise(
  values: NumericArray,
  f: (x: number, round: (y: number) => number) => number,
): Float32Array | Float64Array {
  const input = asFloats(values);
  const single = input instanceof Float32Array;
  const round = single ? Math.fround : (y: number) => y;
  const out = single ? new Float32Array(input.length) : new Float64Array(input.length);
  for (let i = 0; i < input.length; i++) out[i] = f(input[i]!, round);
  return out;
}

function withType(
  spec: ChunkSpec,
  from: NumericType,
  to: NumericType,
  encode: (v: NumericArray) => NumericArray,
): ChunkSpec {
  return to === from ? spec : { ...spec, dataType: to, fillValue: mapScalar(spec.fillValue, from, encode) };
}

/**
 * `numcodecs.fixedscaleoffset`: `{"offset", "scale", "dtype", "astype"?}`;
 * encodes round((x - offset) * scale) as `astype`, decodes x / scale + offset
 * as `dtype`. `dtype` defaults to the array's type, `astype` to `dtype`.
 */
export const numcodecsFixedScaleOffsetCodecFactory: CodecFactory = (configuration, ctx): ArrayToArrayCodec => {
  const field = ctx.field;
  checkKeys(configuration, ["offset", "scale", "dtype", "astype"], field);
  const offset = readNumber(configuration, "offset", field);
  const scale = readNumber(configuration, "scale", field);
  if (scale === 0) {
    throw new InvalidMetadataError(`${field}.configuration.scale must not be 0`, {
      field: `${field}.configuration.scale`,
    });
  }
  const dtype = requireType(configuration, "dtype", field, ctx.spec.dataType.name);
  const astype = readType(configuration, "astype", field) ?? dtype;
  expectArrayType(dtype, ctx.spec.dataType.name, field);
  const encode = (values: NumericArray) =>
    castArray(
      elementwise(values, (x, r) => roundHalfEven(r(r(x - r(offset)) * r(scale)))),
      astype,
    );
  const decode = (values: NumericArray) =>
    castArray(
      elementwise(values, (x, r) => r(r(x / r(scale)) + r(offset))),
      dtype,
    );
  const stored: Configuration = { offset, scale, dtype: dtype.name, astype: astype.name };
  keepNames(configuration, stored);
  return {
    kind: "array_to_array",
    name: "numcodecs.fixedscaleoffset",
    encodedSpec: (spec) => withType(spec, dtype, astype, encode),
    encode: (chunk) => ({ data: encode(chunk.data as NumericArray), shape: [...chunk.shape] }),
    decode: (chunk) => ({ data: decode(chunk.data as NumericArray), shape: [...chunk.shape] }),
    toJSON: () => ({ name: "numcodecs.fixedscaleoffset", configuration: stored }),
  };
};

/** numcodecs' Quantize scale: the power of two just above 10^digits, computed with the same logarithms. */
export function quantizeScale(digits: number): number {
  const precision = 10.0 ** -digits;
  let exp = Math.log(precision) / Math.log(10);
  exp = exp < 0 ? Math.floor(exp) : Math.ceil(exp);
  const bits = Math.ceil(Math.log(10.0 ** -exp) / Math.log(2));
  return 2.0 ** bits;
}

/**
 * `numcodecs.quantize`: `{"digits", "dtype", "astype"?}`; keeps `digits`
 * decimal digits by rounding to a power-of-two grid. Float types only, as in
 * numcodecs. Decoding only converts `astype` back to `dtype`.
 */
export const numcodecsQuantizeCodecFactory: CodecFactory = (configuration, ctx): ArrayToArrayCodec => {
  const field = ctx.field;
  checkKeys(configuration, ["digits", "dtype", "astype"], field);
  const digits = readInt(configuration, "digits", field, { min: -300, max: 300 });
  const dtype = requireType(configuration, "dtype", field, ctx.spec.dataType.name);
  const astype = readType(configuration, "astype", field) ?? dtype;
  for (const [key, type] of [
    ["dtype", dtype],
    ["astype", astype],
  ] as const) {
    if (type.kind !== "float") {
      const path = `${field}.configuration.${key}`;
      throw new InvalidMetadataError(
        `${path} must be a float type (numcodecs' quantize supports only those), got ${showValue(type.name)}`,
        {
          field: path,
        },
      );
    }
  }
  expectArrayType(dtype, ctx.spec.dataType.name, field);
  const scale = quantizeScale(digits);
  const encode = (values: NumericArray) =>
    castArray(
      elementwise(values, (x, r) => r(roundHalfEven(r(r(scale) * x)) / r(scale))),
      astype,
    );
  const decode = (values: NumericArray) => castArray(values, dtype);
  const stored: Configuration = { digits, dtype: dtype.name, astype: astype.name };
  keepNames(configuration, stored);
  return {
    kind: "array_to_array",
    name: "numcodecs.quantize",
    encodedSpec: (spec) => withType(spec, dtype, astype, encode),
    encode: (chunk) => ({ data: encode(chunk.data as NumericArray), shape: [...chunk.shape] }),
    decode: (chunk) => ({ data: decode(chunk.data as NumericArray), shape: [...chunk.shape] }),
    toJSON: () => ({ name: "numcodecs.quantize", configuration: stored }),
  };
};

/** The dtype and astype names as given (own properties only), so the stored configuration keeps numcodecs' spelling. */
function keepNames(configuration: Configuration, stored: Configuration): void {
  for (const key of ["dtype", "astype"]) {
    const name = Object.hasOwn(configuration, key) ? configuration[key] : undefined;
    if (typeof name === "string") stored[key] = name;
  }
}
