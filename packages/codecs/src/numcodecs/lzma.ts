/// <reference path="./libraries.d.ts" />
import { type BytesToBytesCodec, type CodecFactory, InvalidMetadataError, showValue, UnsupportedError } from "@zarrkit/registry";
import { checkKeys, type Configuration, readInt } from "../config.js";
import { decoding } from "../errors.js";
import { tooLarge } from "../limits.js";

// Python's lzma constants, which numcodecs stores as they are.
const FORMAT_AUTO = 0;
const FORMAT_XZ = 1;
const FORMAT_RAW = 3;
const CHECKS = [-1, 0, 1, 4, 10]; // default, none, CRC32, CRC64, SHA-256
const PRESET_EXTREME = 0x80000000;

const XZ_MAGIC = [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00];

// Loaded on first use: xz-embedded (public domain, in wasm) reads xz; LZMA-JS (MIT) reads and writes "alone".
// LZMA-JS's main file finds this one with require("path"), a Node built-in, which no browser bundle can follow;
// it is CommonJS, so its exports are the default export's properties (under Node and every bundler).
const lzmaJs = async () => (await import("lzma/src/lzma_worker.js")).default.LZMA_WORKER;
const xz = () => import("./xz.js");

const XZ_CHECK_SHA256 = 0x0a;

async function xzDecode(bytes: Uint8Array, maxBytes: number | undefined): Promise<Uint8Array> {
  // Stream flags (byte 7, low nibble): the integrity check. xz-embedded verifies CRC32 and CRC64 only.
  if (((bytes[7] ?? 0) & 0x0f) === XZ_CHECK_SHA256) {
    throw new UnsupportedError(
      "xz streams with a SHA-256 check (check 10) cannot be read: xz-embedded, the xz decoder used here, verifies only none, CRC32 and CRC64",
    );
  }
  return (await xz()).xzDecode(bytes, maxBytes);
}

/** Undo LZMA-JS's UTF-8 decoding of its result (its decoder accepts 1-3 byte sequences, U+0000 as C0 80). */
function utf8Bytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 3);
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 1 && c < 0x80) out[at++] = c;
    else if (c < 0x800) {
      out[at++] = 0xc0 | (c >>> 6);
      out[at++] = 0x80 | (c & 63);
    } else {
      out[at++] = 0xe0 | (c >>> 12);
      out[at++] = 0x80 | ((c >>> 6) & 63);
      out[at++] = 0x80 | (c & 63);
    }
  }
  return out.slice(0, at);
}

/**
 * The "alone" (.lzma) format: 5 property bytes, the decoded size as uint64 LE
 * (all ones: unknown, ended by an end marker, as liblzma always writes it),
 * then the LZMA stream. LZMA-JS decodes exactly the declared size, so an
 * unknown size is declared as `maxBytes + 1` here: the decoder then stops
 * at the end marker or one byte past the cap, never later. LZMA-JS keeps its
 * window and output in JS arrays (about 8 bytes per byte each), so decoding
 * costs roughly 16-24 bytes of memory per decoded byte.
 */
async function aloneDecode(bytes: Uint8Array, maxBytes: number | undefined): Promise<Uint8Array> {
  if (bytes.length < 13) throw new Error(`${bytes.length} bytes is too short for the 13-byte .lzma header`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const declared = view.getBigUint64(5, true);
  const unknown = declared === 0xffffffffffffffffn;
  if (declared === 0n) return new Uint8Array(0);
  let input = bytes;
  if (!unknown && maxBytes !== undefined && declared > BigInt(maxBytes)) {
    throw tooLarge("lzma", maxBytes, `it declares ${declared} bytes`);
  }
  if (maxBytes !== undefined) {
    input = bytes.slice();
    const header = new DataView(input.buffer);
    if (unknown) header.setBigUint64(5, BigInt(maxBytes + 1), true);
    // LZMA-JS allocates its window at the declared dictionary size (a JS array of up to 4 GiB entries); no valid
    // stream reaches further back than its output, so a window of the output's bound decodes the same.
    const window = Math.max(4096, Math.min(maxBytes + 1, Number(declared < 0xffffffffn ? declared : 0xffffffffn) || maxBytes + 1));
    if (header.getUint32(1, true) > window) header.setUint32(1, window, true);
  }
  const result = (await lzmaJs()).decompress(input);
  const out = typeof result === "string" ? utf8Bytes(result) : Uint8Array.from(result);
  if (maxBytes !== undefined && out.length > maxBytes) throw tooLarge("lzma", maxBytes);
  if (!unknown && BigInt(out.length) !== declared) {
    throw new Error(`decoded ${out.length} bytes where the header declares ${declared}`);
  }
  return out;
}

function isXz(bytes: Uint8Array): boolean {
  return bytes.length >= 6 && XZ_MAGIC.every((b, i) => bytes[i] === b);
}

/**
 * `numcodecs.lzma`: `{"format": 0-3, "check": -1 | 0 | 1 | 4 | 10, "preset": null | 0-9 (| 2^31), "filters": null | [...]}`,
 * Python's lzma arguments (format 1 = xz by default). Reads xz (xz-embedded)
 * and alone (LZMA-JS); writes alone only (LZMA-JS). No maintained MIT
 * JavaScript library writes xz, and raw streams with a filter chain have no
 * JavaScript decoder or encoder, so those are UnsupportedErrors that say so.
 */
export const numcodecsLzmaCodecFactory: CodecFactory = (configuration, ctx): BytesToBytesCodec => {
  const field = ctx.field;
  checkKeys(configuration, ["format", "check", "preset", "filters"], field);
  const format = readInt(configuration, "format", field, { min: 0, max: 3, default: FORMAT_XZ });
  const check = readInt(configuration, "check", field, { min: -1, max: 10, default: -1 });
  if (!CHECKS.includes(check)) {
    const path = `${field}.configuration.check`;
    throw new InvalidMetadataError(`${path} must be -1, 0, 1, 4 or 10 (Python's lzma.CHECK_*), got ${showValue(check)}`, {
      field: path,
    });
  }
  const presetValue = Object.hasOwn(configuration, "preset") ? configuration.preset : null;
  let preset: number | null = null;
  if (presetValue !== null && presetValue !== undefined) {
    const level = typeof presetValue === "number" ? presetValue & 0x7fffffff : Number.NaN;
    if (typeof presetValue !== "number" || !Number.isInteger(presetValue) || level > 9 || (presetValue - level !== 0 && presetValue - level !== PRESET_EXTREME)) {
      const path = `${field}.configuration.preset`;
      throw new InvalidMetadataError(`${path} must be null or 0-9, optionally plus 2^31 (lzma.PRESET_EXTREME), got ${showValue(presetValue)}`, {
        field: path,
      });
    }
    preset = presetValue;
  }
  const filters = Object.hasOwn(configuration, "filters") ? (configuration.filters ?? null) : null;
  if (filters !== null && !Array.isArray(filters)) {
    const path = `${field}.configuration.filters`;
    throw new InvalidMetadataError(`${path} must be null or a list of filter specifications, got ${showValue(filters)}`, { field: path });
  }
  const stored: Configuration = { format, check, preset, filters };
  return {
    kind: "bytes_to_bytes",
    name: "numcodecs.lzma",
    encode: async (bytes, codecCtx) => {
      // Formats and settings that cannot be written are refused when writing only, so such arrays stay readable.
      const refuse = (why: string, key = "format") =>
        new UnsupportedError(`${field}: numcodecs.lzma cannot write ${why}`, {
          field: `${field}.configuration.${key}`,
          key: codecCtx.key,
        });
      if (format === FORMAT_AUTO) throw refuse("format 0 (auto): it only names a way to read, as in Python's lzma");
      if (format === FORMAT_XZ) {
        throw refuse(
          "format 1 (xz): no maintained JavaScript library with an MIT-compatible licence encodes xz " +
            "(xz-embedded only decodes); reading xz works. Use format 2 (alone) or another compressor for new data.",
        );
      }
      if (format === FORMAT_RAW) {
        throw refuse("format 3 (raw): raw LZMA streams with a filter chain have no JavaScript encoder");
      }
      if (filters !== null) throw refuse("format 2 (alone) with custom filters: LZMA-JS takes only a preset", "filters");
      if (check !== -1 && check !== 0) throw refuse(`an integrity check (${check}) in format 2 (alone), which has none (Python refuses it too)`, "check");
      const level = Math.min(9, Math.max(1, (preset ?? 6) & 0xff));
      return Uint8Array.from((await lzmaJs()).compress(bytes, level));
    },
    decode: (bytes, codecCtx) =>
      decoding("numcodecs.lzma", codecCtx, () => {
        if (format === FORMAT_RAW) {
          throw new UnsupportedError(
            "format 3 (raw) cannot be read: no JavaScript library decodes raw LZMA/LZMA2 streams with a filter chain",
          );
        }
        if (format === FORMAT_XZ || (format === FORMAT_AUTO && isXz(bytes))) {
          if (!isXz(bytes)) throw new Error("not xz data (no xz stream header)");
          return xzDecode(bytes, codecCtx.maxDecodedBytes);
        }
        return aloneDecode(bytes, codecCtx.maxDecodedBytes);
      }),
    toJSON: () => ({ name: "numcodecs.lzma", configuration: { ...stored } }),
  };
};
