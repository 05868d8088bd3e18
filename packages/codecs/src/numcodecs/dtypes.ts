// numcodecs dtype strings ("<i2", "|u1", "<f8", "int32") and NumPy's astype
// for the array->array filters.
import { InvalidMetadataError, type NumericArray, type Scalar, showValue } from "@zarrkit/registry";
import { type Configuration, readString } from "../config.js";
import { type NumericType, numericType } from "../numeric-types.js";

/** The numeric type named by `configuration[key]` (a string), or `fallback` when absent. */
export function readType(
  configuration: Configuration,
  key: string,
  field: string,
  fallback?: string,
): NumericType | undefined {
  const name = readString(configuration, key, field) ?? fallback;
  if (name === undefined) return undefined;
  const path = `${field}.configuration.${key}`;
  const type = numericType(name, path);
  if (!type) {
    throw new InvalidMetadataError(
      `${path} must name a numeric type such as "<i4" or "float64", got ${showValue(name)}`,
      {
        field: path,
      },
    );
  }
  return type;
}

/** Like readType, but required. */
export function requireType(configuration: Configuration, key: string, field: string, fallback?: string): NumericType {
  const type = readType(configuration, key, field, fallback);
  if (!type) {
    const path = `${field}.configuration.${key}`;
    throw new InvalidMetadataError(`${path} is required`, { field: path });
  }
  return type;
}

/** The array's own data type must be the one a filter's `dtype` names. */
export function expectArrayType(type: NumericType, arrayType: string, field: string, key = "dtype"): void {
  if (type.name !== arrayType) {
    const path = `${field}.configuration.${key}`;
    throw new InvalidMetadataError(`${path} (${type.name}) does not match the array's data type ${arrayType}`, {
      field: path,
    });
  }
}

type BigIntArray = BigInt64Array | BigUint64Array;

function isBigInt(values: NumericArray): values is BigIntArray {
  return values instanceof BigInt64Array || values instanceof BigUint64Array;
}

/** A float to int64 as C's cast does it for values in range (truncation); non-finite values become 0. */
function floatToBigInt(value: number): bigint {
  return Number.isFinite(value) ? BigInt.asIntN(64, BigInt(Math.trunc(value))) : 0n;
}

/**
 * NumPy's astype: integers keep their low bits, floats truncate toward zero
 * into integers (typed-array stores truncate and wrap), integers round to the
 * nearest float.
 */
export function castArray(values: NumericArray, target: NumericType): NumericArray {
  const out = target.allocate(values.length) as NumericArray;
  const n = values.length;
  if (isBigInt(values) === target.bigint) {
    (out as Float64Array).set(values as unknown as Float64Array);
  } else if (target.bigint) {
    const o = out as BigIntArray;
    for (let i = 0; i < n; i++) o[i] = floatToBigInt((values as Float64Array)[i]!);
  } else {
    const o = out as Float64Array;
    const v = values as BigIntArray;
    if (target.kind === "float") for (let i = 0; i < n; i++) o[i] = Number(v[i]!);
    else for (let i = 0; i < n; i++) o[i] = Number(BigInt.asIntN(32, v[i]!));
  }
  return out;
}

/** A fill value pushed through an elementwise transform of one-element arrays. */
export function mapScalar(value: Scalar, from: NumericType, transform: (values: NumericArray) => NumericArray): Scalar {
  if (typeof value !== "number" && typeof value !== "bigint") return value;
  const one = from.allocate(1) as NumericArray;
  if (from.bigint) (one as BigIntArray)[0] = typeof value === "bigint" ? value : floatToBigInt(value);
  else (one as Float64Array)[0] = Number(value);
  return transform(one)[0]!;
}

/** NumPy's around: round half to even. */
export function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : r;
}

/** Read a JSON number from own properties. */
export function readNumber(configuration: Configuration, key: string, field: string, fallback?: number): number {
  const value = Object.hasOwn(configuration, key) ? configuration[key] : fallback;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    const path = `${field}.configuration.${key}`;
    throw new InvalidMetadataError(
      `${path} must be a finite number, ` +
        `got ${showValue(Object.hasOwn(configuration, key) ? configuration[key] : undefined)}`,
      {
        field: path,
      },
    );
  }
  return value;
}
