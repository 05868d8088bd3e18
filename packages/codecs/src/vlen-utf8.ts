import {
  type ArrayToBytesCodec,
  type Chunk,
  type ChunkSpec,
  type CodecContext,
  type CodecFactory,
  InvalidMetadataError,
  InvalidSelectionError,
} from "@zarrkit/registry";
import { checkKeys } from "./config.js";
import { readUtf8, utf8Length, writeUtf8 } from "./utf8.js";
import { decodeFrames, elementCount, encodeFrames } from "./vlen-framing.js";

/**
 * The vlen-utf8 layout (numcodecs' VLenUTF8): uint32 LE item count, then per
 * item a uint32 LE byte length and that many UTF-8 bytes.
 */
export function encodeVlenUtf8(items: readonly string[], key: string): Uint8Array {
  const lengths = items.map((item, i) => {
    const length = typeof item === "string" ? utf8Length(item) : -2;
    if (length < 0) {
      const what =
        length === -1 ? "holds a lone surrogate, which has no UTF-8 form" : `is not a string (${typeof item})`;
      throw new InvalidSelectionError(`vlen-utf8: item ${i} of the chunk for ${key} ${what}`, { key });
    }
    return length;
  });
  return encodeFrames(lengths, (i, out, at) => writeUtf8(items[i]!, out, at, lengths[i]!));
}

export function decodeVlenUtf8(bytes: Uint8Array, expected: number, key: string, maxDecodedBytes?: number): string[] {
  return decodeFrames(bytes, expected, key, "vlen-utf8", maxDecodedBytes, "UTF-8", readUtf8);
}

/** `vlen-utf8`: the array->bytes codec of the `string` data type; chunk data is a `string[]`. */
export const vlenUtf8CodecFactory: CodecFactory = (configuration, ctx): ArrayToBytesCodec => {
  checkKeys(configuration, [], ctx.field);
  const type = ctx.spec.dataType;
  if (type.kind !== "string") {
    throw new InvalidMetadataError(`${ctx.field}: vlen-utf8 stores the string data type, not ${type.name}`, {
      field: ctx.field,
    });
  }
  return {
    kind: "array_to_bytes",
    name: "vlen-utf8",
    encode: (chunk: Chunk, _spec: ChunkSpec, codecCtx: CodecContext) =>
      encodeVlenUtf8(chunk.data as string[], codecCtx.key),
    decode: (bytes: Uint8Array, spec: ChunkSpec, codecCtx: CodecContext) => ({
      data: decodeVlenUtf8(bytes, elementCount(spec.shape), codecCtx.key, codecCtx.maxDecodedBytes),
      shape: [...spec.shape],
    }),
    toJSON: () => ({ name: "vlen-utf8", configuration: {} }),
  };
};
