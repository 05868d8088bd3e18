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

function elementCount(shape: readonly number[]): number {
  return shape.reduce((n, d) => n * d, 1);
}

/** The most bytes one item may hold: its length is a uint32. */
const MAX_ITEM_BYTES = 2 ** 32 - 1;

/**
 * The vlen-bytes layout (numcodecs' VLenBytes, zarr-python 3's `vlen-bytes`):
 * uint32 LE item count, then per item a uint32 LE byte length and its bytes.
 */
export function encodeVlenBytes(items: readonly Uint8Array[], key: string, name = "vlen-bytes"): Uint8Array {
  let total = 4 + 4 * items.length;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (!(item instanceof Uint8Array)) {
      const what = item === null ? "null" : typeof item === "object" ? (item as object).constructor?.name ?? "object" : typeof item;
      throw new InvalidSelectionError(`${name}: item ${i} of the chunk for ${key} is not a Uint8Array (${what})`, { key });
    }
    if (item.length > MAX_ITEM_BYTES) {
      throw new InvalidSelectionError(`${name}: item ${i} of the chunk for ${key} holds ${item.length} bytes, more than a uint32 length can say`, { key });
    }
    total += item.length;
  }
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, items.length, true);
  let at = 4;
  for (const item of items) {
    view.setUint32(at, item.length, true);
    out.set(item, at + 4);
    at += 4 + item.length;
  }
  return out;
}

/**
 * The `expected` items of a vlen-bytes chunk, each a copy of its own (never a
 * view of `bytes`, which may be a store's buffer). `maxDecodedBytes` bounds
 * the bytes the items hold together.
 */
export function decodeVlenBytes(bytes: Uint8Array, expected: number, key: string, maxDecodedBytes?: number, name = "vlen-bytes"): Uint8Array[] {
  const corrupt = (why: string) => new CorruptDataError(`${name}: cannot decode ${key}: ${why}`, { key });
  if (bytes.length < 4) throw corrupt(`${bytes.length} bytes is too short for the item count`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(0, true);
  if (count !== expected) throw corrupt(`it holds ${count} items where the chunk has ${expected} elements`);
  // Each item needs at least its 4-byte length: bounds the allocation by the buffer, not the header.
  if (count > (bytes.length - 4) / 4) throw corrupt(`${count} items cannot fit in ${bytes.length} bytes`);
  // What well-framed items hold together; checked before any is copied.
  const payload = bytes.length - 4 - 4 * count;
  if (maxDecodedBytes !== undefined && payload > maxDecodedBytes) {
    throw corrupt(`its items hold ${payload} bytes, more than the ${maxDecodedBytes} the chunk may decode to`);
  }
  const items = new Array<Uint8Array>(count);
  let at = 4;
  for (let i = 0; i < count; i++) {
    if (at + 4 > bytes.length) throw corrupt(`item ${i} starts past the end of the data`);
    const length = view.getUint32(at, true);
    at += 4;
    if (length > bytes.length - at) throw corrupt(`item ${i} declares ${length} bytes but only ${bytes.length - at} remain`);
    // Not `bytes.slice`: on a Node Buffer that is a view of the same memory.
    items[i] = Uint8Array.prototype.slice.call(bytes, at, at + length);
    at += length;
  }
  if (at !== bytes.length) throw corrupt(`${bytes.length - at} bytes follow the last item`);
  return items;
}

/** The vlen-bytes codec under `name` ("vlen-bytes", or numcodecs' "numcodecs.vlen-bytes"). */
export function vlenBytesCodec(name: string): CodecFactory {
  return (configuration, ctx): ArrayToBytesCodec => {
    checkKeys(configuration, [], ctx.field);
    const type = ctx.spec.dataType;
    if (type.kind !== "bytes") {
      throw new InvalidMetadataError(`${ctx.field}: ${name} stores the variable_length_bytes data type, not ${type.name}`, {
        field: ctx.field,
      });
    }
    return {
      kind: "array_to_bytes",
      name,
      encode: (chunk: Chunk, _spec: ChunkSpec, codecCtx: CodecContext) => encodeVlenBytes(chunk.data as Uint8Array[], codecCtx.key, name),
      decode: (bytes: Uint8Array, spec: ChunkSpec, codecCtx: CodecContext) => ({
        data: decodeVlenBytes(bytes, elementCount(spec.shape), codecCtx.key, codecCtx.maxDecodedBytes, name),
        shape: [...spec.shape],
      }),
      toJSON: () => ({ name, configuration: {} }),
    };
  };
}

/** `vlen-bytes` (zarr-python 3's name): the array->bytes codec of the `variable_length_bytes` data type; chunk data is a `Uint8Array[]`. */
export const vlenBytesCodecFactory: CodecFactory = vlenBytesCodec("vlen-bytes");

/** `numcodecs.vlen-bytes`: the same layout under numcodecs' name (what core gives a Zarr v2 `vlen-bytes` object codec). */
export const numcodecsVlenBytesCodecFactory: CodecFactory = vlenBytesCodec("numcodecs.vlen-bytes");
