import { type BytesToBytesCodec, type CodecFactory, InvalidMetadataError, showValue } from "@zarrkit/registry";
import { checkKeys, readBoolean, readInt } from "./config.js";
import { callersOwn, decoding } from "./errors.js";
import { zstdDecompress, zstdDecompressLent } from "./zstd/decode.js";
import { zstdCompress } from "./zstd/encode.js";

// zstd's level range: ZSTD_minCLevel() .. ZSTD_maxCLevel(); larger levels act as 22.
const MIN_LEVEL = -131072;

/**
 * `zstd`: `{"level": int, "checksum": bool}`, read and written with every
 * level and both checksum settings. Runtime option (never stored):
 * `{ zstd: { longDistanceMatching: true } }` writes with zstd's long-distance
 * matching (the CLI's `--long`), which any zstd reader decodes.
 */
export const zstdCodecFactory: CodecFactory = (configuration, ctx): BytesToBytesCodec => {
  checkKeys(configuration, ["level", "checksum"], ctx.field);
  const level = readInt(configuration, "level", ctx.field, {
    min: MIN_LEVEL,
    max: Number.MAX_SAFE_INTEGER,
    default: 0,
  });
  const checksum = readBoolean(configuration, "checksum", ctx.field, false);
  const longDistance = ctx.options["longDistanceMatching"] ?? false;
  if (typeof longDistance !== "boolean") {
    const field = "codecOptions.zstd.longDistanceMatching";
    throw new InvalidMetadataError(`${field} must be true or false, got ${showValue(longDistance)}`, { field });
  }
  return {
    kind: "bytes_to_bytes",
    name: "zstd",
    encode: (bytes) => zstdCompress(bytes, level, { checksum, longDistance }),
    decode: (bytes, codecCtx) => decoding("zstd", codecCtx, () => zstdDecompress(bytes, codecCtx.maxDecodedBytes)),
    decodeLent: (bytes, codecCtx, use) =>
      decoding("zstd", codecCtx, () => zstdDecompressLent(bytes, codecCtx.maxDecodedBytes, callersOwn(use))),
    toJSON: () => ({ name: "zstd", configuration: { level, checksum } }),
  };
};
