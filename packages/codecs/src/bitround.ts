// The zarr-extensions `bitround` codec: floats keep `keepbits` mantissa bits (as numcodecs.bitround), integers
// `keepbits` bits from their most significant set bit; decoding is the identity.
import {
  type ArrayToArrayCodec,
  type CodecFactory,
  InvalidMetadataError,
  type NumericArray,
  UnsupportedError,
} from "@zarrkit/registry";
import { checkKeys, readInt } from "./config.js";
import { bitRound } from "./numcodecs/bitround.js";

/** Mantissa bits of the float types, as held: bfloat16 is held in a Float32Array, whose rounding it shares. */
const MANTISSA_BITS = new Map<string, number>([
  ["float32", 23],
  ["float64", 52],
  ["bfloat16", 7],
]);
const INTEGER_TYPES: ReadonlySet<string> = new Set([
  "int8",
  "int16",
  "int32",
  "int64",
  "uint8",
  "uint16",
  "uint32",
  "uint64",
]);
/** numpy.datetime64 / numpy.timedelta64 are rounded as the int64 counts they hold. */
const isTemporal = (name: string) => /^numpy\.(datetime|timedelta)64\[/.test(name);

/**
 * `keepbits` bits of each element from its most significant set bit, the rest
 * rounded away (to nearest, ties to even, saturating at the type's largest
 * pattern), on the element's unsigned bit pattern (two's complement for
 * signed types), as zarrs does.
 */
export function bitRoundIntegers(values: NumericArray, keepbits: number): NumericArray {
  const out = values.slice();
  const width = out.BYTES_PER_ELEMENT * 8;
  if (width === 64) {
    const u = new BigUint64Array(out.buffer);
    const all = (1n << 64n) - 1n;
    for (let i = 0; i < u.length; i++) {
      const v = u[i]!;
      const maxbits = v === 0n ? 0n : BigInt(v.toString(2).length);
      if (BigInt(keepbits) >= maxbits) continue;
      const maskbits = maxbits - BigInt(keepbits);
      const sum = v + ((v >> maskbits) & 1n) + (1n << (maskbits - 1n)) - 1n;
      u[i] = (sum > all ? all : sum) & ((all >> maskbits) << maskbits);
    }
    return out;
  }
  const u =
    width === 8 ? new Uint8Array(out.buffer) : width === 16 ? new Uint16Array(out.buffer) : new Uint32Array(out.buffer);
  const all = 2 ** width - 1;
  for (let i = 0; i < u.length; i++) {
    const v = u[i]!;
    const maxbits = 32 - Math.clz32(v);
    if (keepbits >= maxbits) continue;
    const maskbits = maxbits - keepbits;
    const sum = Math.min(all, v + ((v >>> maskbits) & 1) + 2 ** (maskbits - 1) - 1);
    u[i] = sum - (sum % 2 ** maskbits); // the low maskbits bits cleared
  }
  return out;
}

/** `bitround` (and `numcodecs.bitround`'s integer-capable successor): `{"keepbits": int >= 1}`. */
export const bitroundCodecFactory: CodecFactory = (configuration, ctx): ArrayToArrayCodec => {
  const field = ctx.field;
  checkKeys(configuration, ["keepbits"], field);
  const keepbits = readInt(configuration, "keepbits", field, { min: 1, max: Number.MAX_SAFE_INTEGER });
  const type = ctx.spec.dataType.name;
  const mantissa = MANTISSA_BITS.get(type);
  let round: (values: NumericArray) => NumericArray;
  if (mantissa !== undefined) {
    if (keepbits > mantissa) {
      const path = `${field}.configuration.keepbits`;
      throw new InvalidMetadataError(`${path} (${keepbits}) is more than the ${mantissa} mantissa bits of ${type}`, {
        field: path,
      });
    }
    // bfloat16's 7 bits are the top of the float32 it is held in: keeping k of them is keeping k of the float32's.
    round = (values) => bitRound(values as Float32Array | Float64Array, keepbits);
  } else if (INTEGER_TYPES.has(type) || isTemporal(type)) {
    round = (values) => bitRoundIntegers(values, keepbits);
  } else {
    throw new UnsupportedError(
      `${field}: bitround rounds float32, float64, bfloat16, integers and datetimes, not ${type}`,
      { field },
    );
  }
  return {
    kind: "array_to_array",
    name: "bitround",
    encodedSpec: (spec) => spec,
    encode: (chunk) => ({ data: round(chunk.data as NumericArray), shape: [...chunk.shape] }),
    decode: (chunk) => ({ data: (chunk.data as NumericArray).slice(), shape: [...chunk.shape] }),
    toJSON: () => ({ name: "bitround", configuration: { keepbits } }),
  };
};
