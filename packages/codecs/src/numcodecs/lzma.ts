import {
  type BytesToBytesCodec,
  type CodecFactory,
  InvalidMetadataError,
  showValue,
  UnsupportedError,
} from "@zarrkit/registry";
import { checkKeys, type Configuration, readInt } from "../config.js";
import { decoding } from "../errors.js";

// Python's lzma constants, which numcodecs stores as they are.
const FORMAT_AUTO = 0;
const FORMAT_XZ = 1;
const FORMAT_ALONE = 2;
const FORMAT_RAW = 3;
const CHECKS = [-1, 0, 1, 4, 10]; // default, none, CRC32, CRC64, SHA-256
const CHECK_NONE = 0;
const CHECK_CRC64 = 4; // what -1 means for xz, as in Python
const PRESET_DEFAULT = 6;
const PRESET_EXTREME = 0x80000000;

const XZ_MAGIC = [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00];

// liblzma in WebAssembly (xz-liblzma.ts), loaded on first use.
const liblzma = () => import("./xz-liblzma.js");

function isXz(bytes: Uint8Array): boolean {
  return bytes.length >= 6 && XZ_MAGIC.every((b, i) => bytes[i] === b);
}

function readPreset(configuration: Configuration, field: string): number | null {
  const value = Object.hasOwn(configuration, "preset") ? configuration.preset : null;
  if (value === null || value === undefined) return null;
  const level = typeof value === "number" ? value & 0x7fffffff : Number.NaN;
  if (
    typeof value !== "number" ||
    !Number.isInteger(value) ||
    level > 9 ||
    (value - level !== 0 && value - level !== PRESET_EXTREME)
  ) {
    const path = `${field}.configuration.preset`;
    throw new InvalidMetadataError(
      `${path} must be null or 0-9, optionally plus 2^31 (lzma.PRESET_EXTREME), got ${showValue(value)}`,
      { field: path },
    );
  }
  return value;
}

/**
 * `numcodecs.lzma`: `{"format": 0-3, "check": -1 | 0 | 1 | 4 | 10, "preset": null | 0-9 (| 2^31),
 * "filters": null | [...]}`, Python's lzma arguments (format 1 = xz by default). liblzma 5.4.1 in
 * WebAssembly reads and writes xz (format 1, any check) and alone (format 2),
 * byte for byte as Python writes them; auto (0) reads either. Custom filter
 * chains cannot be written (xz streams written with one are read), and raw
 * streams (format 3) neither read nor written: UnsupportedErrors naming the field.
 */
export const numcodecsLzmaCodecFactory: CodecFactory = (configuration, ctx): BytesToBytesCodec => {
  const field = ctx.field;
  checkKeys(configuration, ["format", "check", "preset", "filters"], field);
  const format = readInt(configuration, "format", field, { min: 0, max: 3, default: FORMAT_XZ });
  const check = readInt(configuration, "check", field, { min: -1, max: 10, default: -1 });
  if (!CHECKS.includes(check)) {
    const path = `${field}.configuration.check`;
    throw new InvalidMetadataError(
      `${path} must be -1, 0, 1, 4 or 10 (Python's lzma.CHECK_*), got ${showValue(check)}`,
      { field: path },
    );
  }
  const preset = readPreset(configuration, field);
  const filters = Object.hasOwn(configuration, "filters") ? (configuration.filters ?? null) : null;
  if (filters !== null && !Array.isArray(filters)) {
    const path = `${field}.configuration.filters`;
    throw new InvalidMetadataError(
      `${path} must be null or a list of filter specifications, got ${showValue(filters)}`,
      { field: path },
    );
  }
  const stored: Configuration = { format, check, preset, filters };
  return {
    kind: "bytes_to_bytes",
    name: "numcodecs.lzma",
    encode: async (bytes, codecCtx) => {
      // Settings that cannot be written are refused when writing only, so such arrays stay readable.
      const refuse = (why: string, key: string) =>
        new UnsupportedError(`${field}: numcodecs.lzma cannot write ${why}`, {
          field: `${field}.configuration.${key}`,
          key: codecCtx.key,
        });
      if (format === FORMAT_AUTO) {
        throw refuse("format 0 (auto): it only names a way to read, as in Python's lzma", "format");
      }
      if (format === FORMAT_RAW) {
        throw refuse("format 3 (raw): raw LZMA streams with a filter chain are not supported", "format");
      }
      if (filters !== null) throw refuse("a custom filter chain: only a preset's (filters null)", "filters");
      if (format === FORMAT_ALONE && check !== -1 && check !== CHECK_NONE) {
        throw refuse(
          `an integrity check (${check}) in format 2 (alone), which has none (Python refuses it too)`,
          "check",
        );
      }
      const xzCheck = check === -1 ? CHECK_CRC64 : check;
      return (await liblzma()).lzmaCompress(bytes, format === FORMAT_XZ ? 1 : 2, preset ?? PRESET_DEFAULT, xzCheck);
    },
    decode: (bytes, codecCtx) =>
      decoding("numcodecs.lzma", codecCtx, async () => {
        if (format === FORMAT_RAW) {
          throw new UnsupportedError(
            "format 3 (raw) cannot be read: raw LZMA streams with a filter chain are not supported",
          );
        }
        const xz = format === FORMAT_XZ || (format === FORMAT_AUTO && isXz(bytes));
        return (await liblzma()).lzmaDecompress(bytes, xz ? 1 : 2, codecCtx.maxDecodedBytes);
      }),
    toJSON: () => ({ name: "numcodecs.lzma", configuration: { ...stored } }),
  };
};
