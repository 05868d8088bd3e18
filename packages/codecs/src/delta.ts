import {
  type ArrayToArrayCodec,
  type CodecFactory,
  InvalidMetadataError,
  type NumericArray,
  type Scalar,
  showValue,
  UnsupportedError,
} from "@zarrkit/registry";
import { checkKeys, readString } from "./config.js";
import { type NumericType, numericType } from "./numeric-types.js";

type BigIntArray = BigInt64Array | BigUint64Array;
type NumberArray = Exclude<NumericArray, BigIntArray>;

function isBigIntArray(values: NumericArray): values is BigIntArray {
  return values instanceof BigInt64Array || values instanceof BigUint64Array;
}

/** Integer conversion as NumPy's astype does it: keep the low bits (typed array stores wrap the same way). */
function castInto(values: NumericArray, target: NumericType): NumericArray {
  const out = target.allocate(values.length) as NumericArray;
  if (isBigIntArray(values) === target.bigint) {
    (out as Float64Array).set(values as unknown as Float64Array);
  } else if (target.bigint) {
    const o = out as BigIntArray;
    for (let i = 0; i < values.length; i++) o[i] = BigInt((values as NumberArray)[i]!);
  } else {
    const o = out as NumberArray;
    for (let i = 0; i < values.length; i++) o[i] = Number(BigInt.asIntN(32, (values as BigIntArray)[i]!));
  }
  return out;
}

function castScalar(value: Scalar, target: NumericType): Scalar {
  if (target.bigint && typeof value === "number") return BigInt(Math.trunc(value));
  if (!target.bigint && typeof value === "bigint") return Number(BigInt.asIntN(32, value));
  return value;
}

/** numcodecs' Delta.encode: the first value, then each difference computed (and wrapped) in `dtype`. */
export function deltaEncode(values: NumericArray, dtype: NumericType, astype: NumericType): NumericArray {
  const n = values.length;
  const diff = dtype.allocate(n) as NumericArray;
  if (n > 0) {
    if (isBigIntArray(values)) {
      const d = diff as BigIntArray;
      d[0] = values[0]!;
      for (let i = 1; i < n; i++) d[i] = values[i]! - values[i - 1]!;
    } else {
      const d = diff as NumberArray;
      d[0] = values[0]!;
      for (let i = 1; i < n; i++) d[i] = values[i]! - values[i - 1]!;
    }
  }
  return astype === dtype ? diff : castInto(diff, astype);
}

/**
 * numcodecs' Delta.decode: the cumulative sum, wrapping around in `dtype`.
 * Casting each delta to `dtype` before summing gives NumPy's result for
 * integers because both are exact modulo 2^bits.
 */
export function deltaDecode(deltas: NumericArray, dtype: NumericType, astype: NumericType): NumericArray {
  const src = astype === dtype ? deltas : castInto(deltas, dtype);
  const n = src.length;
  const out = dtype.allocate(n) as NumericArray;
  if (n > 0) {
    if (isBigIntArray(src)) {
      const o = out as BigIntArray;
      o[0] = src[0]!;
      for (let i = 1; i < n; i++) o[i] = o[i - 1]! + src[i]!;
    } else {
      const o = out as NumberArray;
      o[0] = src[0]!;
      for (let i = 1; i < n; i++) o[i] = o[i - 1]! + src[i]!;
    }
  }
  return out;
}

/**
 * `numcodecs.delta` as zarr-python's numcodecs.zarr3.Delta writes it:
 * `{"dtype": ..., "astype"?: ...}` over the chunk flattened in C order.
 * `dtype` defaults to the array's data type (as zarr-python fills it in).
 */
export const deltaCodecFactory: CodecFactory = (configuration, ctx): ArrayToArrayCodec => {
  checkKeys(configuration, ["dtype", "astype"], ctx.field);
  const arrayType = ctx.spec.dataType.name;
  const dtypeName = readString(configuration, "dtype", ctx.field) ?? arrayType;
  const astypeName = readString(configuration, "astype", ctx.field);
  const resolve = (name: string, key: string): NumericType => {
    const field = `${ctx.field}.configuration.${key}`;
    const type = numericType(name, field);
    if (!type) {
      throw new InvalidMetadataError(
        `${field} must name a numeric type such as "int32" or "<i4", got ${showValue(name)}`,
        {
          field,
        },
      );
    }
    return type;
  };
  const dtype = resolve(dtypeName, "dtype");
  const astype = astypeName === undefined ? dtype : resolve(astypeName, "astype");
  if (dtype.name !== arrayType) {
    const field = `${ctx.field}.configuration.dtype`;
    throw new InvalidMetadataError(
      `${field} ${showValue(dtypeName)} does not match the array's data type ${arrayType}`,
      {
        field,
      },
    );
  }
  if (astype !== dtype && (dtype.kind === "float" || astype.kind === "float")) {
    const field = `${ctx.field}.configuration.astype`;
    throw new UnsupportedError(
      `${field}: converting deltas between ${dtype.name} and ${astype.name} is not supported; only integer types ` +
        `may differ`,
      { field },
    );
  }
  return {
    kind: "array_to_array",
    name: "numcodecs.delta",
    encodedSpec: (spec) =>
      astype === dtype ? spec : { ...spec, dataType: astype, fillValue: castScalar(spec.fillValue, astype) },
    encode: (chunk) => ({ data: deltaEncode(chunk.data as NumericArray, dtype, astype), shape: [...chunk.shape] }),
    decode: (chunk) => ({ data: deltaDecode(chunk.data as NumericArray, dtype, astype), shape: [...chunk.shape] }),
    toJSON: () => ({
      name: "numcodecs.delta",
      configuration: astypeName === undefined ? { dtype: dtypeName } : { dtype: dtypeName, astype: astypeName },
    }),
  };
};
