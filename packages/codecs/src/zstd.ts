import { type BytesToBytesCodec, type CodecFactory, UnsupportedError } from "@zarrkit/registry";
import { checkKeys, readBoolean, readInt } from "./config.js";
import { decoding } from "./errors.js";
import { zstdCompress, zstdDecompress } from "./zstd-wasm.js";

// zstd's level range: ZSTD_minCLevel() .. ZSTD_maxCLevel(); larger levels act as 22.
const MIN_LEVEL = -131072;

/**
 * `zstd`: `{"level": int, "checksum": bool}`. Any level and checksum can be
 * read; writing is limited by numcodecs' build, which has no checksum switch
 * and no negative levels, so those refuse to encode rather than silently
 * writing something else.
 */
export const zstdCodecFactory: CodecFactory = (configuration, ctx): BytesToBytesCodec => {
  checkKeys(configuration, ["level", "checksum"], ctx.field);
  const level = readInt(configuration, "level", ctx.field, { min: MIN_LEVEL, max: Number.MAX_SAFE_INTEGER, default: 0 });
  const checksum = readBoolean(configuration, "checksum", ctx.field, false);
  const field = ctx.field;
  return {
    kind: "bytes_to_bytes",
    name: "zstd",
    encode(bytes, codecCtx) {
      if (checksum) {
        throw new UnsupportedError(
          `${field}: zstd with "checksum": true cannot be written (numcodecs' zstd has no checksum option); ` +
            `reading such data works. Set "checksum": false, or add a crc32c codec after zstd.`,
          { field: `${field}.configuration.checksum`, key: codecCtx.key },
        );
      }
      if (level < 0) {
        throw new UnsupportedError(
          `${field}: zstd level ${level} cannot be written (numcodecs' zstd has no negative levels); use a level >= 0`,
          { field: `${field}.configuration.level`, key: codecCtx.key },
        );
      }
      return zstdCompress(bytes, level);
    },
    decode: (bytes, codecCtx) => decoding("zstd", codecCtx, () => zstdDecompress(bytes, codecCtx.maxDecodedBytes)),
    toJSON: () => ({ name: "zstd", configuration: { level, checksum } }),
  };
};
