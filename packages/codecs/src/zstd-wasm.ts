// zstd in wasm, loaded on first use so that importing this module costs
// nothing until zstd data is met. Decoding goes through zstddec, which copies
// bytes in and out of wasm memory with typed-array copies (1.4x faster than
// numcodecs on 64^3 uint16 chunks, whose binding copies byte by byte), when
// the frames declare their decoded size; numcodecs encodes, and decodes
// streamed frames of unknown size.
import type { Codec } from "numcodecs";
import type { ZSTDDecoder } from "zstddec";
import { tooLarge } from "./limits.js";
import { declaredContentSize } from "./zstd-frames.js";

/** zstd's own default, which a level of 0 stands for (numcodecs would use 1). */
const ZSTD_DEFAULT_LEVEL = 3;
const ZSTD_MAX_LEVEL = 22;

const codecs = new Map<number, Promise<Codec>>();

function codec(level: number): Promise<Codec> {
  let loaded = codecs.get(level);
  if (!loaded) {
    loaded = import("numcodecs/zstd").then((m) => m.default.fromConfig({ id: "zstd", level }));
    codecs.set(level, loaded);
  }
  return loaded;
}

/** One zstd frame of `data`. Levels must be >= 0: numcodecs cannot reach zstd's negative (fast) levels. */
export async function zstdCompress(data: Uint8Array, level: number): Promise<Uint8Array> {
  const effective = level === 0 ? ZSTD_DEFAULT_LEVEL : Math.min(level, ZSTD_MAX_LEVEL);
  return (await codec(effective)).encode(data);
}

/** Above this, a declared size is not trusted to allocate at once (the streaming decoder grows as it goes). */
const MAX_DECLARED_BYTES = 2 ** 30;

let decoder: Promise<ZSTDDecoder> | undefined;

function sizedDecoder(): Promise<ZSTDDecoder> {
  decoder ??= import("zstddec").then(async ({ ZSTDDecoder }) => {
    const loaded = new ZSTDDecoder();
    await loaded.init();
    return loaded;
  });
  return decoder;
}

/** The first capacity tried for frames that do not declare their size (doubled on each retry, up to the cap). */
const FIRST_GUESS = 1 << 20;

/**
 * Decodes every frame; checks content checksums and sizes when the frames
 * carry them. With `maxBytes`, never produces more: frames declaring a larger
 * size are refused before decoding, and frames without a declared size are
 * decoded into a buffer of at most `maxBytes` (zstd stops at the first block
 * that does not fit), so a bomb costs at most the cap.
 */
export async function zstdDecompress(data: Uint8Array, maxBytes?: number): Promise<Uint8Array> {
  const size = declaredContentSize(data);
  if (size !== undefined && maxBytes !== undefined && size > maxBytes) {
    throw tooLarge("zstd", maxBytes, `the frames declare ${size}`);
  }
  if (size === undefined && maxBytes !== undefined && maxBytes <= MAX_DECLARED_BYTES) return boundedDecode(data, maxBytes);
  if (size === undefined || size > MAX_DECLARED_BYTES) {
    const decoded = (await codec(ZSTD_DEFAULT_LEVEL)).decode(data);
    if (maxBytes !== undefined && decoded.length > maxBytes) throw tooLarge("zstd", maxBytes);
    return decoded;
  }
  const decoded = (await sizedDecoder()).decode(data, size);
  // zstddec returns whatever was written before an error (nothing, or a short prefix), never an exception.
  if (decoded.length !== size) throw new Error(`the frames declare ${size} decoded bytes, but decoding gave ${decoded.length}`);
  return decoded;
}

/**
 * Frames of unknown size, decoded in one pass into a buffer of a guessed
 * capacity that doubles until `maxBytes`: zstd writes straight into it and
 * fails at the first block that does not fit, so no attempt holds more than
 * the cap, and the work done is at most twice the cap's.
 */
async function boundedDecode(data: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  const decoder = await sizedDecoder();
  let capacity = Math.min(maxBytes, Math.max(FIRST_GUESS, data.length * 4));
  for (;;) {
    // zstddec reads a capacity of 0 as "find the size in the frame header"; ask for one byte and check below.
    const decoded = decoder.decode(data, Math.max(1, capacity));
    // An error (data that does not fit, or corrupt data) gives an empty or short result, never an exception;
    // a frame of unknown size that really decodes to nothing gives one too, and no chunk is empty.
    if (decoded.length > maxBytes) throw tooLarge("zstd", maxBytes);
    if (decoded.length > 0) return decoded;
    if (capacity >= maxBytes) throw tooLarge("zstd", maxBytes, "or the data is corrupt");
    capacity = Math.min(maxBytes, capacity * 2);
  }
}
