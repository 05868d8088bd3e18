import { type ArrayToArrayCodec, type CodecFactory, InvalidMetadataError, UnsupportedError } from "@zarrkit/registry";
import { checkKeys, readInt } from "../config.js";

const MANTISSA_BITS: Record<string, number> = { float32: 23, float64: 52 };

/** numcodecs' BitRound: round the mantissa to `keepbits` bits, ties to even, on the integer view. */
export function bitRound(values: Float32Array | Float64Array, keepbits: number): Float32Array | Float64Array {
  const out = values.slice();
  const maskbits = (values instanceof Float32Array ? 23 : 52) - keepbits;
  if (maskbits === 0) return out;
  if (out instanceof Float32Array) {
    const b = new Int32Array(out.buffer);
    const mask = (-1 >> maskbits) << maskbits;
    const half = (1 << (maskbits - 1)) - 1;
    for (let i = 0; i < b.length; i++) {
      const v = b[i]!;
      b[i] = ((v + ((v >> maskbits) & 1) + half) | 0) & mask;
    }
  } else {
    const b = new BigInt64Array(out.buffer);
    const m = BigInt(maskbits);
    const mask = (-1n >> m) << m;
    const half = (1n << (m - 1n)) - 1n;
    for (let i = 0; i < b.length; i++) {
      const v = b[i]!;
      b[i] = BigInt.asIntN(64, v + ((v >> m) & 1n) + half) & mask;
    }
  }
  return out;
}

/** `numcodecs.bitround`: `{"keepbits": int}` on float32 and float64 arrays; decoding is the identity. */
export const numcodecsBitRoundCodecFactory: CodecFactory = (configuration, ctx): ArrayToArrayCodec => {
  const field = ctx.field;
  checkKeys(configuration, ["keepbits"], field);
  const keepbits = readInt(configuration, "keepbits", field, { min: 0, max: Number.MAX_SAFE_INTEGER });
  const type = ctx.spec.dataType.name;
  const bits = MANTISSA_BITS[type];
  if (bits === undefined) {
    throw new UnsupportedError(`${field}: numcodecs.bitround rounds float32 and float64 arrays, not ${type}`, {
      field,
    });
  }
  if (keepbits > bits) {
    const path = `${field}.configuration.keepbits`;
    throw new InvalidMetadataError(`${path} (${keepbits}) is more than the ${bits} mantissa bits of ${type}`, {
      field: path,
    });
  }
  return {
    kind: "array_to_array",
    name: "numcodecs.bitround",
    encodedSpec: (spec) => spec,
    encode: (chunk) => ({
      data: bitRound(chunk.data as Float32Array | Float64Array, keepbits),
      shape: [...chunk.shape],
    }),
    decode: (chunk) => ({ data: (chunk.data as Float32Array | Float64Array).slice(), shape: [...chunk.shape] }),
    toJSON: () => ({ name: "numcodecs.bitround", configuration: { keepbits } }),
  };
};
