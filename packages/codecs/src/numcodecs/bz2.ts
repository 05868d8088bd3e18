import type { BytesToBytesCodec, CodecFactory } from "@zarrkit/registry";
import { checkKeys, readInt } from "../config.js";
import { decoding } from "../errors.js";

// libbzip2 in WebAssembly (bz2-wasm.ts), loaded on first use.
const bz2 = () => import("./bz2-wasm.js");

/**
 * `numcodecs.bz2`: `{"level": 1-9}` (1), the block size in 100 kB. Both ways
 * through libbzip2 1.0.8 in WebAssembly: streams are Python's bz2.compress
 * output byte for byte, and decoding reads concatenated streams as
 * bz2.decompress does, stopping at the decode cap.
 */
export const numcodecsBz2CodecFactory: CodecFactory = (configuration, ctx): BytesToBytesCodec => {
  checkKeys(configuration, ["level"], ctx.field);
  const level = readInt(configuration, "level", ctx.field, { min: 1, max: 9, default: 1 });
  return {
    kind: "bytes_to_bytes",
    name: "numcodecs.bz2",
    encode: async (bytes) => (await bz2()).bz2Compress(bytes, level),
    decode: (bytes, codecCtx) =>
      decoding("numcodecs.bz2", codecCtx, async () => (await bz2()).bz2Decompress(bytes, codecCtx.maxDecodedBytes)),
    toJSON: () => ({ name: "numcodecs.bz2", configuration: { level } }),
  };
};
