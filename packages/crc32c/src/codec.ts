import {
  type BytesToBytesCodec,
  ChecksumError,
  type CodecFactory,
  CorruptDataError,
  InvalidMetadataError,
} from "@zarrkit/registry";
import { crc32c, initCrc32c } from "./crc32c.js";

const hex = (value: number) => `0x${value.toString(16).padStart(8, "0")}`;

/**
 * `crc32c` (no configuration): appends the CRC32C of the data as 4
 * little-endian bytes; decoding checks and strips them. The factory waits for
 * the WebAssembly, so encode and decode are synchronous.
 */
export const crc32cCodecFactory: CodecFactory = async (configuration, ctx): Promise<BytesToBytesCodec> => {
  for (const key of Object.keys(configuration)) {
    const field = `${ctx.field}.configuration.${key}`;
    throw new InvalidMetadataError(`${field} is not a known configuration key; crc32c takes no configuration`, {
      field,
    });
  }
  await initCrc32c();
  return {
    kind: "bytes_to_bytes",
    name: "crc32c",
    encode(bytes) {
      const out = new Uint8Array(bytes.length + 4);
      out.set(bytes);
      new DataView(out.buffer).setUint32(bytes.length, crc32c(bytes), true);
      return out;
    },
    decode(bytes, { key }) {
      if (bytes.length < 4) {
        throw new CorruptDataError(`crc32c: ${key} has ${bytes.length} bytes, fewer than its 4-byte checksum`, { key });
      }
      const data = bytes.subarray(0, bytes.length - 4);
      const stored = new DataView(bytes.buffer, bytes.byteOffset + data.length, 4).getUint32(0, true);
      const computed = crc32c(data);
      if (stored !== computed) {
        throw new ChecksumError(
          `crc32c checksum mismatch in ${key}: stored ${hex(stored)}, computed ${hex(computed)}`,
          {
            key,
          },
        );
      }
      return data;
    },
    encodedSize: (decodedSize) => decodedSize + 4,
    checksummed: true,
    toJSON: () => ({ name: "crc32c" }),
  };
};
