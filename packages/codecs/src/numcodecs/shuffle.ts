import { type BytesToBytesCodec, type CodecFactory, CorruptDataError, InvalidMetadataError } from "@zarrkit/registry";
import { byteShuffle } from "../blosc/shuffle.js";
import { checkKeys, readInt } from "../config.js";

/**
 * `numcodecs.shuffle`: `{"elementsize": int}` (numcodecs' default 4). Byte j
 * of every element, then byte j + 1, ...; numcodecs refuses data whose length
 * is not a multiple of the element size, and so does this codec.
 */
export const numcodecsShuffleCodecFactory: CodecFactory = (configuration, ctx): BytesToBytesCodec => {
  checkKeys(configuration, ["elementsize"], ctx.field);
  const elementsize = readInt(configuration, "elementsize", ctx.field, { min: 0, max: 2 ** 31 - 1, default: 4 });
  const field = `${ctx.field}.configuration.elementsize`;
  const run = (bytes: Uint8Array, unshuffle: boolean): Uint8Array => {
    if (elementsize <= 1) return bytes.slice();
    const out = new Uint8Array(bytes.length);
    byteShuffle(bytes, out, elementsize, unshuffle);
    return out;
  };
  return {
    kind: "bytes_to_bytes",
    name: "numcodecs.shuffle",
    encodedSize: (decodedSize) => decodedSize,
    encode(bytes, codecCtx) {
      if (elementsize > 1 && bytes.length % elementsize !== 0) {
        throw new InvalidMetadataError(
          `${field}: ${bytes.length} bytes of ${codecCtx.key} are not a whole number of ${elementsize}-byte elements`,
          { field, key: codecCtx.key },
        );
      }
      return run(bytes, false);
    },
    decode(bytes, codecCtx) {
      if (elementsize > 1 && bytes.length % elementsize !== 0) {
        throw new CorruptDataError(
          `numcodecs.shuffle: cannot decode ${codecCtx.key}: ${bytes.length} bytes are not a whole number ` +
            `of ${elementsize}-byte elements`,
          { key: codecCtx.key },
        );
      }
      if (codecCtx.maxDecodedBytes !== undefined && bytes.length > codecCtx.maxDecodedBytes) {
        throw new CorruptDataError(
          `numcodecs.shuffle: cannot decode ${codecCtx.key}: ${bytes.length} bytes is more than the chunk can hold ` +
            `(${codecCtx.maxDecodedBytes})`,
          { key: codecCtx.key },
        );
      }
      return run(bytes, true);
    },
    toJSON: () => ({ name: "numcodecs.shuffle", configuration: { elementsize } }),
  };
};
