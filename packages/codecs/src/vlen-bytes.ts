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
import { decodeFrames, elementCount, encodeFrames } from "./vlen-framing.js";

/** The most bytes one item may hold: its length is a uint32. */
const MAX_ITEM_BYTES = 2 ** 32 - 1;

/** The vlen-bytes layout (numcodecs' VLenBytes, zarr-python 3's `vlen-bytes`): see vlen-framing.ts. */
export function encodeVlenBytes(items: readonly Uint8Array[], key: string, name = "vlen-bytes"): Uint8Array {
  const lengths = items.map((item, i) => {
    if (!(item instanceof Uint8Array)) {
      const what =
        item === null
          ? "null"
          : typeof item === "object"
            ? ((item as object).constructor?.name ?? "object")
            : typeof item;
      throw new InvalidSelectionError(`${name}: item ${i} of the chunk for ${key} is not a Uint8Array (${what})`, {
        key,
      });
    }
    if (item.length > MAX_ITEM_BYTES) {
      throw new InvalidSelectionError(
        `${name}: item ${i} of the chunk for ${key} holds ${item.length} bytes, more than a uint32 length can say`,
        { key },
      );
    }
    return item.length;
  });
  return encodeFrames(lengths, (i, out, at) => out.set(items[i]!, at));
}

/**
 * The `expected` items of a vlen-bytes chunk, each a copy of its own (never a
 * view of `bytes`, which may be a store's buffer). `maxDecodedBytes` bounds
 * the bytes the items hold together.
 */
export function decodeVlenBytes(
  bytes: Uint8Array,
  expected: number,
  key: string,
  maxDecodedBytes?: number,
  name = "vlen-bytes",
): Uint8Array[] {
  // Not `bytes.slice`: on a Node Buffer that is a view of the same memory.
  return decodeFrames(bytes, expected, key, name, maxDecodedBytes, "bytes", (data, start, end) =>
    Uint8Array.prototype.slice.call(data, start, end),
  );
}

/** The vlen-bytes codec under `name` ("vlen-bytes", or numcodecs' "numcodecs.vlen-bytes"). */
export function vlenBytesCodec(name: string): CodecFactory {
  return (configuration, ctx): ArrayToBytesCodec => {
    checkKeys(configuration, [], ctx.field);
    const type = ctx.spec.dataType;
    if (type.kind !== "bytes") {
      throw new InvalidMetadataError(
        `${ctx.field}: ${name} stores the variable_length_bytes data type, not ${type.name}`,
        {
          field: ctx.field,
        },
      );
    }
    return {
      kind: "array_to_bytes",
      name,
      encode: (chunk: Chunk, _spec: ChunkSpec, codecCtx: CodecContext) =>
        encodeVlenBytes(chunk.data as Uint8Array[], codecCtx.key, name),
      decode: (bytes: Uint8Array, spec: ChunkSpec, codecCtx: CodecContext) => ({
        data: decodeVlenBytes(bytes, elementCount(spec.shape), codecCtx.key, codecCtx.maxDecodedBytes, name),
        shape: [...spec.shape],
      }),
      toJSON: () => ({ name, configuration: {} }),
    };
  };
}

/**
 * `vlen-bytes` (zarr-python 3's name): the array->bytes codec of the `variable_length_bytes` data type; chunk data is a
 * `Uint8Array[]`.
 */
export const vlenBytesCodecFactory: CodecFactory = vlenBytesCodec("vlen-bytes");

/**
 * `numcodecs.vlen-bytes`: the same layout under numcodecs' name (what core gives a Zarr v2 `vlen-bytes` object codec).
 */
export const numcodecsVlenBytesCodecFactory: CodecFactory = vlenBytesCodec("numcodecs.vlen-bytes");
