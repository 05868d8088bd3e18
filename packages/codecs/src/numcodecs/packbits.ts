import { type ArrayToArrayCodec, type CodecFactory, CorruptDataError, InvalidMetadataError } from "@zarrkit/registry";
import { checkKeys } from "../config.js";
import { numericType } from "../numeric-types.js";
import { elementCount } from "../vlen-framing.js";

const UINT8 = numericType("uint8", "")!;

/** numcodecs' PackBits: the number of padding bits, then the booleans 8 to a byte, first element in the high bit. */
export function packBits(values: Uint8Array): Uint8Array {
  const n = values.length;
  const out = new Uint8Array(1 + Math.ceil(n / 8));
  out[0] = (8 - (n % 8)) % 8;
  for (let i = 0; i < n; i++) if (values[i]) out[1 + (i >>> 3)]! |= 0x80 >>> (i & 7);
  return out;
}

export function unpackBits(packed: Uint8Array, n: number, key: string): Uint8Array {
  const corrupt = (why: string) => new CorruptDataError(`numcodecs.packbits: cannot decode ${key}: ${why}`, { key });
  if (packed.length !== 1 + Math.ceil(n / 8)) throw corrupt(`${packed.length} bytes cannot hold ${n} packed booleans`);
  if (packed[0] !== (8 - (n % 8)) % 8)
    throw corrupt(`the padding byte says ${packed[0]} bits where ${n} elements leave ${(8 - (n % 8)) % 8}`);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (packed[1 + (i >>> 3)]! >>> (7 - (i & 7))) & 1;
  return out;
}

/**
 * `numcodecs.packbits`: bool arrays to a one-dimensional uint8 array of
 * 1 + ceil(n / 8) bytes (as numcodecs.zarr3.PackBits declares it); no configuration.
 */
export const numcodecsPackBitsCodecFactory: CodecFactory = (configuration, ctx): ArrayToArrayCodec => {
  checkKeys(configuration, [], ctx.field);
  if (ctx.spec.dataType.kind !== "bool") {
    throw new InvalidMetadataError(
      `${ctx.field}: numcodecs.packbits packs bool arrays, not ${ctx.spec.dataType.name}`,
      { field: ctx.field },
    );
  }
  return {
    kind: "array_to_array",
    name: "numcodecs.packbits",
    encodedSpec: (spec) => ({ shape: [1 + Math.ceil(elementCount(spec.shape) / 8)], dataType: UINT8, fillValue: 0 }),
    encode: (chunk) => {
      const data = packBits(chunk.data as Uint8Array);
      return { data, shape: [data.length] };
    },
    decode: (chunk, spec, codecCtx) => ({
      data: unpackBits(chunk.data as Uint8Array, elementCount(spec.shape), codecCtx.key),
      shape: [...spec.shape],
    }),
    toJSON: () => ({ name: "numcodecs.packbits", configuration: {} }),
  };
};
