/// <reference path="./libraries.d.ts" />
import { type BytesToBytesCodec, type CodecFactory, UnsupportedError } from "@zarrkit/registry";
import { checkKeys, readInt } from "../config.js";
import { decoding } from "../errors.js";
import { tooLarge } from "../limits.js";

// seek-bzip (MIT): the maintained pure-JavaScript bzip2 decoder. Loaded on first use.
const seekBzip = () => import("seek-bzip").then((m) => m.default);

const BZ_MAGIC = [0x42, 0x5a, 0x68]; // "BZh"

/**
 * Decode bzip2 (one or more concatenated streams, as Python's bz2.decompress
 * reads them), stopping once the output would pass `maxBytes`.
 */
export async function bz2Decompress(bytes: Uint8Array, maxBytes: number | undefined): Promise<Uint8Array> {
  if (bytes.length === 0) return new Uint8Array(0);
  if (bytes.length < 4 || BZ_MAGIC.some((b, i) => bytes[i] !== b)) throw new Error("not bzip2 data (no \"BZh\" header)");
  if (typeof (globalThis as { Buffer?: unknown }).Buffer !== "function") {
    throw new UnsupportedError(
      "seek-bzip, the bzip2 decoder used here, needs Node's Buffer; in a browser, provide a global Buffer (e.g. the `buffer` package)",
    );
  }
  const Bunzip = await seekBzip();
  let out = new Uint8Array(Math.min(maxBytes ?? Number.MAX_SAFE_INTEGER, Math.max(1024, bytes.length * 4)));
  let length = 0;
  let position = 0;
  const input = {
    readByte: () => (position < bytes.length ? bytes[position++]! : -1),
    read(buffer: Uint8Array, offset: number, count: number) {
      const n = Math.min(count, bytes.length - position);
      if (n <= 0) return -1;
      buffer.set(bytes.subarray(position, position + n), offset);
      position += n;
      return n;
    },
    seek: (to: number) => {
      position = to;
    },
    eof: () => position >= bytes.length,
  };
  const output = {
    writeByte(byte: number) {
      if (length === out.length) {
        if (maxBytes !== undefined && length >= maxBytes) throw tooLarge("bzip2", maxBytes);
        const grown = new Uint8Array(Math.min(out.length * 2, maxBytes ?? Number.MAX_SAFE_INTEGER));
        grown.set(out);
        out = grown;
      }
      out[length++] = byte;
    },
  };
  Bunzip.decode(input, output, true);
  return out.subarray(0, length);
}

/**
 * `numcodecs.bz2`: `{"level": 1-9}` (1). Decoding uses seek-bzip; encoding is
 * not possible: no maintained bzip2 encoder with an MIT-compatible licence
 * exists for JavaScript (compressjs, the one pure-JS encoder, is GPL).
 */
export const numcodecsBz2CodecFactory: CodecFactory = (configuration, ctx): BytesToBytesCodec => {
  checkKeys(configuration, ["level"], ctx.field);
  const level = readInt(configuration, "level", ctx.field, { min: 1, max: 9, default: 1 });
  const field = ctx.field;
  return {
    kind: "bytes_to_bytes",
    name: "numcodecs.bz2",
    encode(_bytes, codecCtx) {
      throw new UnsupportedError(
        `${field}: numcodecs.bz2 cannot be written: no maintained JavaScript bzip2 encoder with an MIT-compatible licence exists ` +
          "(compressjs is GPL); reading bz2 data works. Use numcodecs.zstd or numcodecs.zlib for new data.",
        { field, key: codecCtx.key },
      );
    },
    decode: (bytes, codecCtx) => decoding("numcodecs.bz2", codecCtx, () => bz2Decompress(bytes, codecCtx.maxDecodedBytes)),
    toJSON: () => ({ name: "numcodecs.bz2", configuration: { level } }),
  };
};
