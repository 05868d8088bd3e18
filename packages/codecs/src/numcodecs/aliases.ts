// numcodecs' names for codecs this package already has: the same streams,
// with numcodecs' configuration forms and defaults (numcodecs' own, which
// zarr-python writes into v3 arrays and core takes from v2 metadata).
import {
  type Codec,
  type CodecCreateContext,
  type CodecFactory,
  InvalidMetadataError,
  showValue,
} from "@zarrkit/registry";
import { bloscCodecFactory } from "../blosc.js";
import { checkKeys, type Configuration, readBoolean, readInt, readString } from "../config.js";
import { gzipCodecFactory } from "../gzip.js";
import { vlenUtf8CodecFactory } from "../vlen-utf8.js";
import { zlibCodecFactory } from "../zlib.js";
import { zstdCodecFactory } from "../zstd.js";

/** The codec `inner` under numcodecs' name, storing `configuration` as numcodecs writes it. */
function renamed<C extends Codec>(inner: C, name: string, configuration: Configuration): C {
  return { ...inner, name, toJSON: () => ({ name, configuration }) };
}

/** `numcodecs.zlib`: `{"level": 0-9}` (numcodecs' default 1). */
export const numcodecsZlibCodecFactory: CodecFactory = async (configuration, ctx) => {
  checkKeys(configuration, ["level"], ctx.field);
  const level = readInt(configuration, "level", ctx.field, { min: 0, max: 9, default: 1 });
  return renamed(await zlibCodecFactory({ level }, ctx), "numcodecs.zlib", { level });
};

/** `numcodecs.gzip`: `{"level": 0-9}` (numcodecs' default 1). */
export const numcodecsGzipCodecFactory: CodecFactory = async (configuration, ctx) => {
  checkKeys(configuration, ["level"], ctx.field);
  const level = readInt(configuration, "level", ctx.field, { min: 0, max: 9, default: 1 });
  return renamed(await gzipCodecFactory({ level }, ctx), "numcodecs.gzip", { level });
};

/**
 * `numcodecs.zstd`: `{"level": int, "checksum"?: bool}` (numcodecs' default level 1; checksum kept only when given).
 */
export const numcodecsZstdCodecFactory: CodecFactory = async (configuration, ctx) => {
  checkKeys(configuration, ["level", "checksum"], ctx.field);
  const level = readInt(configuration, "level", ctx.field, { min: -131072, max: Number.MAX_SAFE_INTEGER, default: 1 });
  const hasChecksum = Object.hasOwn(configuration, "checksum");
  const checksum = readBoolean(configuration, "checksum", ctx.field, false);
  return renamed(
    await zstdCodecFactory({ level, checksum }, ctx),
    "numcodecs.zstd",
    hasChecksum ? { level, checksum } : { level },
  );
};

// numcodecs.blosc's integer shuffle constants.
const SHUFFLE_NAMES = new Map<number, "noshuffle" | "shuffle" | "bitshuffle">([
  [0, "noshuffle"],
  [1, "shuffle"],
  [2, "bitshuffle"],
]);
const AUTOSHUFFLE = -1;

/**
 * `numcodecs.blosc`: `{"cname", "clevel", "shuffle": 0 | 1 | 2 | -1, "blocksize", "typesize"?}`
 * with numcodecs' defaults (lz4, 5, 1 = shuffle, 0 = automatic). -1
 * (AUTOSHUFFLE) is bitshuffle for 1-byte types, else shuffle, as numcodecs
 * decides it from the item size; typesize defaults to the data type's size.
 */
export const numcodecsBloscCodecFactory: CodecFactory = async (configuration, ctx) => {
  const field = ctx.field;
  checkKeys(configuration, ["cname", "clevel", "shuffle", "blocksize", "typesize"], field);
  const typesize = readInt(configuration, "typesize", field, {
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    default: ctx.spec.dataType.byteSize ?? 1,
  });
  const shuffle = readInt(configuration, "shuffle", field, { min: -1, max: 2, default: 1 });
  const shuffleName =
    shuffle === AUTOSHUFFLE ? (typesize === 1 ? "bitshuffle" : "shuffle") : SHUFFLE_NAMES.get(shuffle);
  const cname = readString(configuration, "cname", field) ?? "lz4";
  const clevel = readInt(configuration, "clevel", field, { min: 0, max: 9, default: 5 });
  const blocksize = readInt(configuration, "blocksize", field, { min: 0, max: Number.MAX_SAFE_INTEGER, default: 0 });
  if (shuffleName === undefined) {
    const path = `${field}.configuration.shuffle`;
    throw new InvalidMetadataError(`${path} must be 0, 1, 2 or -1, got ${showValue(shuffle)}`, { field: path });
  }
  const inner = await bloscCodecFactory({ cname, clevel, shuffle: shuffleName, typesize, blocksize }, ctx);
  const stored: Configuration = { cname, clevel, shuffle, blocksize };
  if (Object.hasOwn(configuration, "typesize")) stored.typesize = typesize;
  return renamed(inner, "numcodecs.blosc", stored);
};

/** `numcodecs.vlen-utf8`: the `vlen-utf8` layout under numcodecs' name; no configuration. */
export const numcodecsVlenUtf8CodecFactory: CodecFactory = async (configuration, ctx: CodecCreateContext) =>
  renamed(await vlenUtf8CodecFactory(configuration, ctx), "numcodecs.vlen-utf8", {});
