import type { BytesToBytesCodec, CodecFactory } from "@zarrkit/registry";
import type { BloscOptions } from "./blosc/encode.js";
import { CNAMES, SHUFFLES } from "./blosc/format.js";
import { checkKeys, readChoice, readInt } from "./config.js";
import { decoding } from "./errors.js";

// Loaded on first use, as in gzip.ts.
const encoder = () => import("./blosc/encode.js");
const decoder = () => import("./blosc/decode.js");

/**
 * `blosc`: `{cname, clevel, shuffle, typesize, blocksize}`, Blosc 1 chunks as
 * c-blosc writes them, encoded and decoded in JavaScript (zstd streams via
 * numcodecs' wasm). Missing fields get zarr-python's defaults: zstd, level 5,
 * typesize from the data type, bitshuffle for 1-byte types else shuffle.
 */
export const bloscCodecFactory: CodecFactory = (configuration, ctx): BytesToBytesCodec => {
  const field = ctx.field;
  checkKeys(configuration, ["cname", "clevel", "shuffle", "typesize", "blocksize"], field);
  const typesize = readInt(configuration, "typesize", field, {
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    default: ctx.spec.dataType.byteSize ?? 1,
  });
  const options: BloscOptions = {
    cname: readChoice(configuration, "cname", field, CNAMES, "zstd"),
    clevel: readInt(configuration, "clevel", field, { min: 0, max: 9, default: 5 }),
    shuffle: readChoice(configuration, "shuffle", field, SHUFFLES, typesize === 1 ? "bitshuffle" : "shuffle"),
    typesize,
    blocksize: readInt(configuration, "blocksize", field, { min: 0, max: Number.MAX_SAFE_INTEGER, default: 0 }),
  };
  return {
    kind: "bytes_to_bytes",
    name: "blosc",
    encode: async (bytes) => (await encoder()).bloscCompress(bytes, options),
    decode: (bytes, codecCtx) =>
      decoding("blosc", codecCtx, async () => (await decoder()).bloscDecompress(bytes, codecCtx.maxDecodedBytes)),
    toJSON: () => ({ name: "blosc", configuration: { ...options } }),
  };
};
