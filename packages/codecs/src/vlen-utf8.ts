import {
  type ArrayToBytesCodec,
  type Chunk,
  type ChunkSpec,
  type CodecContext,
  type CodecFactory,
  CorruptDataError,
  InvalidMetadataError,
  InvalidSelectionError,
} from "@zarrkit/registry";
import { checkKeys } from "./config.js";
import { readUtf8, utf8Length, writeUtf8 } from "./utf8.js";

function elementCount(shape: readonly number[]): number {
  return shape.reduce((n, d) => n * d, 1);
}

/**
 * The vlen-utf8 layout (numcodecs' VLenUTF8): uint32 LE item count, then per
 * item a uint32 LE byte length and that many UTF-8 bytes.
 */
export function encodeVlenUtf8(items: readonly string[], key: string): Uint8Array {
  const lengths = new Array<number>(items.length);
  let total = 4 + 4 * items.length;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const length = typeof item === "string" ? utf8Length(item) : -2;
    if (length < 0) {
      const what = length === -1 ? "holds a lone surrogate, which has no UTF-8 form" : `is not a string (${typeof item})`;
      throw new InvalidSelectionError(`vlen-utf8: item ${i} of the chunk for ${key} ${what}`, { key });
    }
    lengths[i] = length;
    total += length;
  }
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, items.length, true);
  let at = 4;
  for (let i = 0; i < items.length; i++) {
    const length = lengths[i]!;
    view.setUint32(at, length, true);
    writeUtf8(items[i]!, out, at + 4, length);
    at += 4 + length;
  }
  return out;
}

export function decodeVlenUtf8(bytes: Uint8Array, expected: number, key: string): string[] {
  const corrupt = (why: string, cause?: unknown) =>
    new CorruptDataError(`vlen-utf8: cannot decode ${key}: ${why}`, { key, cause });
  if (bytes.length < 4) throw corrupt(`${bytes.length} bytes is too short for the item count`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(0, true);
  if (count !== expected) throw corrupt(`it holds ${count} items where the chunk has ${expected} elements`);
  // Each item needs at least its 4-byte length: bounds the allocation by the buffer, not the header.
  if (count > (bytes.length - 4) / 4) throw corrupt(`${count} items cannot fit in ${bytes.length} bytes`);
  const items = new Array<string>(count);
  let at = 4;
  for (let i = 0; i < count; i++) {
    if (at + 4 > bytes.length) throw corrupt(`item ${i} starts past the end of the data`);
    const length = view.getUint32(at, true);
    at += 4;
    if (length > bytes.length - at) {
      throw corrupt(`item ${i} declares ${length} bytes but only ${bytes.length - at} remain`);
    }
    try {
      items[i] = readUtf8(bytes, at, at + length);
    } catch (cause) {
      throw corrupt(`item ${i} is not valid UTF-8`, cause);
    }
    at += length;
  }
  if (at !== bytes.length) throw corrupt(`${bytes.length - at} bytes follow the last item`);
  return items;
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
    encode: (chunk: Chunk, _spec: ChunkSpec, codecCtx: CodecContext) => encodeVlenUtf8(chunk.data as string[], codecCtx.key),
    decode: (bytes: Uint8Array, spec: ChunkSpec, codecCtx: CodecContext) => ({
      data: decodeVlenUtf8(bytes, elementCount(spec.shape), codecCtx.key),
      shape: [...spec.shape],
    }),
    toJSON: () => ({ name: "vlen-utf8", configuration: {} }),
  };
};
