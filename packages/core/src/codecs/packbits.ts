// The zarr-extensions `packbits` codec: each element's components as `last_bit - first_bit + 1` bits, packed
// least significant bit first (as zarrs packs them), with an optional byte giving the padding bits. In core beside
// `bytes`, whose little-endian encoding of each type (the narrow ones included) it packs.
import {
  type ArrayToBytesCodec,
  type ChunkSpec,
  type CodecFactory,
  CorruptDataError,
  type DataTypeInfo,
  InvalidMetadataError,
  showValue,
  UnsupportedError,
} from "@zarrkit/registry";
import { bytesCodecFactory } from "./bytes.js";

const PADDINGS = ["none", "first_byte", "last_byte"] as const;
type Padding = (typeof PADDINGS)[number];

/** Bits per component of the types stored narrower than a byte (the registry's list); the rest use all their bits. */
const NARROW_BITS = new Map<string, number>([
  ["bool", 1],
  ["int2", 2],
  ["uint2", 2],
  ["int4", 4],
  ["uint4", 4],
  ["float4_e2m1fn", 4],
  ["float6_e2m3fn", 6],
  ["float6_e3m2fn", 6],
]);

/** How a data type's elements are packed: components per element, bits and stored bytes per component, signedness. */
interface Packing {
  components: number;
  bits: number;
  bytes: number;
  signed: boolean;
}

function packingOf(type: DataTypeInfo, field: string): Packing {
  if (type.byteSize === undefined || type.kind === "string" || type.kind === "bytes" || type.kind === "raw") {
    throw new UnsupportedError(`${field}: packbits packs fixed-size numeric and bool types, not ${type.name}`, {
      field,
    });
  }
  const components = type.kind === "complex" ? 2 : 1;
  const bytes = type.byteSize / components;
  return { components, bits: NARROW_BITS.get(type.name) ?? bytes * 8, bytes, signed: type.kind === "int" };
}

function readBit(
  configuration: Record<string, unknown>,
  key: string,
  field: string,
  fallback: number,
  max: number,
): number {
  const value = Object.hasOwn(configuration, key) ? configuration[key] : null;
  if (value === null) return fallback;
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > max) {
    const path = `${field}.configuration.${key}`;
    throw new InvalidMetadataError(`${path} must be null or an integer from 0 to ${max}, got ${showValue(value)}`, {
      field: path,
    });
  }
  return value as number;
}

/**
 * `packbits`: `{"padding_encoding"?: "none" | "first_byte" | "last_byte", "first_bit"?, "last_bit"?}`.
 * The chunk goes through the `bytes` codec (little endian), then bits `first_bit..last_bit` of each component are
 * packed; decoding unpacks them back into place, sign-extended for signed integer types, zero-extended otherwise.
 */
export const packbitsCodecFactory: CodecFactory = (configuration, ctx): ArrayToBytesCodec => {
  const field = ctx.field;
  const unknown = Object.keys(configuration).find(
    (k) => k !== "padding_encoding" && k !== "first_bit" && k !== "last_bit",
  );
  if (unknown !== undefined) {
    const path = `${field}.configuration.${unknown}`;
    throw new InvalidMetadataError(`${path} is not a packbits configuration key`, { field: path });
  }
  const given = Object.hasOwn(configuration, "padding_encoding") ? configuration.padding_encoding : "none";
  if (!PADDINGS.includes(given as Padding)) {
    const path = `${field}.configuration.padding_encoding`;
    throw new InvalidMetadataError(`${path} must be one of ${PADDINGS.join(", ")}, got ${showValue(given)}`, {
      field: path,
    });
  }
  const padding = given as Padding;
  const packing = packingOf(ctx.spec.dataType, field);
  const firstBit = readBit(configuration, "first_bit", field, 0, packing.bits - 1);
  const lastBit = readBit(configuration, "last_bit", field, packing.bits - 1, packing.bits - 1);
  if (lastBit < firstBit) {
    const path = `${field}.configuration.last_bit`;
    throw new InvalidMetadataError(`${path} (${lastBit}) is less than first_bit (${firstBit})`, { field: path });
  }
  const width = lastBit - firstBit + 1;
  // Elements travel as the bytes codec stores them: the narrow types' values in the low bits of a byte.
  const bytesCodec = bytesCodecFactory({ endian: "little" }, ctx) as ArrayToBytesCodec;
  const extra = padding === "none" ? 0 : 1; // the padding byte
  const bitCount = (spec: ChunkSpec) => spec.shape.reduce((a, b) => a * b, 1) * packing.components * width;
  const encodedSize = (spec: ChunkSpec) => Math.ceil(bitCount(spec) / 8) + extra;
  const paddingBits = (spec: ChunkSpec) => (8 - (bitCount(spec) % 8)) % 8;
  const stored = {
    ...(Object.hasOwn(configuration, "padding_encoding") && { padding_encoding: padding }),
    ...(Object.hasOwn(configuration, "first_bit") && { first_bit: configuration.first_bit }),
    ...(Object.hasOwn(configuration, "last_bit") && { last_bit: configuration.last_bit }),
  };

  return {
    kind: "array_to_bytes",
    name: "packbits",
    async encode(chunk, spec, codecCtx) {
      const plain = await bytesCodec.encode(chunk, spec, codecCtx);
      const out = new Uint8Array(encodedSize(spec));
      const offset = padding === "first_byte" ? 1 : 0;
      if (padding === "first_byte") out[0] = paddingBits(spec);
      if (padding === "last_byte") out[out.length - 1] = paddingBits(spec);
      const components = plain.length / packing.bytes;
      let at = offset * 8;
      for (let c = 0; c < components; c++) {
        const base = c * packing.bytes * 8 + firstBit;
        for (let b = 0; b < width; b++, at++) {
          const from = base + b;
          if ((plain[from >>> 3]! >>> (from & 7)) & 1) out[at >>> 3]! |= 1 << (at & 7);
        }
      }
      return out;
    },
    decode(bytes, spec, codecCtx) {
      const key = codecCtx.key;
      if (bytes.length !== encodedSize(spec)) {
        throw new CorruptDataError(
          `Chunk ${key} has ${bytes.length} bytes where packbits of [${spec.shape}] needs ${encodedSize(spec)}`,
          { key },
        );
      }
      const declared =
        padding === "first_byte" ? bytes[0] : padding === "last_byte" ? bytes[bytes.length - 1] : undefined;
      if (declared !== undefined && declared !== paddingBits(spec)) {
        throw new CorruptDataError(
          `Chunk ${key}: its padding byte says ${declared} bits where the chunk leaves ${paddingBits(spec)}`,
          { key },
        );
      }
      const components = bitCount(spec) / width;
      const plain = new Uint8Array(components * packing.bytes);
      let at = (padding === "first_byte" ? 1 : 0) * 8;
      for (let c = 0; c < components; c++) {
        const base = c * packing.bytes * 8;
        let bit = 0;
        for (let b = 0; b < width; b++, at++) {
          bit = (bytes[at >>> 3]! >>> (at & 7)) & 1;
          const to = base + firstBit + b;
          if (bit) plain[to >>> 3]! |= 1 << (to & 7);
        }
        // Sign extension: the top encoded bit repeated up to the component's width.
        if (packing.signed && bit)
          for (let to = base + lastBit + 1; to < base + packing.bits; to++) plain[to >>> 3]! |= 1 << (to & 7);
      }
      return bytesCodec.decode(plain, spec, codecCtx);
    },
    encodedSize,
    toJSON: () => ({ name: "packbits", ...(Object.keys(stored).length > 0 && { configuration: stored }) }),
  };
};
