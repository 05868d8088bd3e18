import type { BytesToBytesCodec, CodecFactory } from "@zarrkit/registry";
import { checkKeys, readInt } from "./config.js";
import { decoding } from "./errors.js";

// Loaded on first use: index.ts re-exports this factory, and a static import
// would put the deflate implementation in every bundle that imports the index.
const deflate = () => import("#deflate");

/** `gzip` (RFC 1952): `{"level": 0-9}`; level defaults to 5 as in zarr-python. */
export const gzipCodecFactory: CodecFactory = (configuration, ctx): BytesToBytesCodec => {
  checkKeys(configuration, ["level"], ctx.field);
  const level = readInt(configuration, "level", ctx.field, { min: 0, max: 9, default: 5 });
  return {
    kind: "bytes_to_bytes",
    name: "gzip",
    encode: async (bytes) => (await deflate()).gzipEncode(bytes, level),
    decode: (bytes, codecCtx) =>
      decoding("gzip", codecCtx, async () => (await deflate()).gzipDecode(bytes, codecCtx.maxDecodedBytes)),
    toJSON: () => ({ name: "gzip", configuration: { level } }),
  };
};
