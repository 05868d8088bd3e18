// numcodecs' 32-bit checksum codecs: the checksum as uint32 little-endian
// beside the data. crc32 and adler32 put it first by default (numcodecs'
// Checksum32, `location` "start" | "end" since numcodecs 0.14); fletcher32
// always puts it last (numcodecs' Fletcher32, HDF5's variant of the sum).
import { type BytesToBytesCodec, ChecksumError, type CodecFactory, CorruptDataError } from "@zarrkit/registry";
import { adler32 } from "../adler32.js";
import { checkKeys, type Configuration, readChoice } from "../config.js";
import { crc32 } from "../crc32.js";

/**
 * HDF5's Fletcher-32 (H5_checksum_fletcher32) as numcodecs computes it:
 * big-endian 16-bit words, sums folded every 360 words, an odd last byte
 * taken as the high byte of a word.
 */
export function fletcher32(data: Uint8Array): number {
  let sum1 = 0;
  let sum2 = 0;
  const words = data.length >>> 1;
  let at = 0;
  for (let done = 0; done < words; ) {
    const end = Math.min(done + 360, words);
    for (; done < end; done++, at += 2) {
      sum1 += (data[at]! << 8) | data[at + 1]!;
      sum2 += sum1;
    }
    sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
  }
  if (data.length % 2) {
    sum1 += data[at]! << 8;
    sum2 += sum1;
    sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
  }
  sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
  sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
  return ((sum2 << 16) | sum1) >>> 0;
}

type Location = "start" | "end";

function checksumCodec(
  name: string,
  checksum: (data: Uint8Array) => number,
  location: Location,
  configuration: Configuration,
): BytesToBytesCodec {
  const hex = (n: number) => `0x${n.toString(16).padStart(8, "0")}`;
  return {
    kind: "bytes_to_bytes",
    name,
    checksummed: true,
    encodedSize: (decodedSize) => decodedSize + 4,
    encode(bytes) {
      const out = new Uint8Array(bytes.length + 4);
      const at = location === "start" ? 0 : bytes.length;
      out.set(bytes, location === "start" ? 4 : 0);
      new DataView(out.buffer).setUint32(at, checksum(bytes), true);
      return out;
    },
    decode(bytes, ctx) {
      if (bytes.length < 4) {
        throw new CorruptDataError(
          `${name}: cannot decode ${ctx.key}: ${bytes.length} bytes is too short for a 4-byte checksum`,
          {
            key: ctx.key,
          },
        );
      }
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const stored = view.getUint32(location === "start" ? 0 : bytes.length - 4, true);
      const data = location === "start" ? bytes.subarray(4) : bytes.subarray(0, bytes.length - 4);
      const computed = checksum(data);
      if (stored !== computed) {
        throw new ChecksumError(
          `${name} checksum mismatch in ${ctx.key}: stored ${hex(stored)}, computed ${hex(computed)}`,
          {
            key: ctx.key,
          },
        );
      }
      return data;
    },
    toJSON: () => ({ name, configuration }),
  };
}

function checksum32Factory(name: string, checksum: (data: Uint8Array) => number): CodecFactory {
  return (configuration, ctx) => {
    checkKeys(configuration, ["location"], ctx.field);
    const location = readChoice(configuration, "location", ctx.field, ["start", "end"] as const, "start");
    return checksumCodec(name, checksum, location, Object.hasOwn(configuration, "location") ? { location } : {});
  };
}

/** `numcodecs.crc32`: zlib's CRC-32, `{"location"?: "start" | "end"}` ("start"). */
export const numcodecsCrc32CodecFactory: CodecFactory = checksum32Factory("numcodecs.crc32", crc32);

/** `numcodecs.adler32`: zlib's Adler-32, `{"location"?: "start" | "end"}` ("start"). */
export const numcodecsAdler32CodecFactory: CodecFactory = checksum32Factory("numcodecs.adler32", adler32);

/** `numcodecs.fletcher32`: HDF5's Fletcher-32 after the data; no configuration. */
export const numcodecsFletcher32CodecFactory: CodecFactory = (configuration, ctx) => {
  checkKeys(configuration, [], ctx.field);
  return checksumCodec("numcodecs.fletcher32", fletcher32, "end", {});
};
