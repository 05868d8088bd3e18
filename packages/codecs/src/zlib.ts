import type { BytesToBytesCodec, CodecFactory } from "@zarrkit/registry";
import { checkKeys, readInt } from "./config.js";
import { decoding } from "./errors.js";

// Loaded on first use, as in gzip.ts.
const deflate = () => import("#deflate");

/** `zlib` (RFC 1950): `{"level": 0-9}`; level defaults to 1 as in numcodecs. */
export const zlibCodecFactory: CodecFactory = (configuration, ctx): BytesToBytesCodec => {
  checkKeys(configuration, ["level"], ctx.field);
  const level = readInt(configuration, "level", ctx.field, { min: 0, max: 9, default: 1 });
  return {
    kind: "bytes_to_bytes",
    name: "zlib",
    encode: async (bytes) => (await deflate()).zlibEncode(bytes, level),
    decode: (bytes, codecCtx) =>
      decoding("zlib", codecCtx, async () => (await deflate()).zlibDecode(bytes, codecCtx.maxDecodedBytes)),
    toJSON: () => ({ name: "zlib", configuration: { level } }),
  };
};
