import type { BytesToBytesCodec, CodecFactory } from "@zarrkit/registry";
import { lz4Compress, lz4Decompress } from "../blosc/lz4.js";
import { checkKeys, readInt } from "../config.js";
import { decoding } from "../errors.js";
import { tooLarge } from "../limits.js";

// LZ4's best ratio: a 255-byte run of length bytes (plus token and offset) adds 255 bytes of output.
const MAX_RATIO = 256;

/** numcodecs' lz4 stream: the decoded length as int32 LE, then one LZ4 block. */
export function numcodecsLz4Decompress(bytes: Uint8Array, maxBytes: number | undefined): Uint8Array {
  if (bytes.length < 4) throw new Error(`${bytes.length} bytes is too short for the 4-byte length`);
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(0, true);
  if (length < 0) throw new Error(`negative decoded length ${length}`);
  if (maxBytes !== undefined && length > maxBytes) throw tooLarge("lz4", maxBytes, `it declares ${length} bytes`);
  if (length > (bytes.length - 4) * MAX_RATIO) {
    throw new Error(`it declares ${length} bytes, more than ${bytes.length - 4} bytes of LZ4 can hold`);
  }
  const out = new Uint8Array(length);
  lz4Decompress(bytes.subarray(4), out);
  return out;
}

export function numcodecsLz4Compress(bytes: Uint8Array, acceleration: number): Uint8Array {
  // Our parser's effort: a deeper match search for acceleration 1, a greedy one past it.
  const block = lz4Compress(bytes, acceleration <= 1 ? 2 : 1);
  const out = new Uint8Array(4 + block.length);
  new DataView(out.buffer).setInt32(0, bytes.length, true);
  out.set(block, 4);
  return out;
}

/**
 * `numcodecs.lz4`: `{"acceleration": int}` (1; numcodecs treats values <= 0
 * as 1). The stream is numcodecs' own framing, not the LZ4 frame format.
 */
export const numcodecsLz4CodecFactory: CodecFactory = (configuration, ctx): BytesToBytesCodec => {
  checkKeys(configuration, ["acceleration"], ctx.field);
  const acceleration = readInt(configuration, "acceleration", ctx.field, {
    min: -(2 ** 31),
    max: 2 ** 31 - 1,
    default: 1,
  });
  return {
    kind: "bytes_to_bytes",
    name: "numcodecs.lz4",
    encode: (bytes) => numcodecsLz4Compress(bytes, acceleration),
    decode: (bytes, codecCtx) =>
      decoding("numcodecs.lz4", codecCtx, () => numcodecsLz4Decompress(bytes, codecCtx.maxDecodedBytes)),
    toJSON: () => ({ name: "numcodecs.lz4", configuration: { acceleration } }),
  };
};
