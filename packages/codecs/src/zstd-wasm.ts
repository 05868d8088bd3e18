// zstd in wasm, loaded on first use so that importing this module costs
// nothing until zstd data is met. Decoding goes through zstddec, which copies
// bytes in and out of wasm memory with typed-array copies (1.4x faster than
// numcodecs on 64^3 uint16 chunks, whose binding copies byte by byte), when
// the frames declare their decoded size; numcodecs encodes, and decodes
// streamed frames of unknown size.
import type { Codec } from "numcodecs";
import type { ZSTDDecoder } from "zstddec";
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

/** Decodes every frame; checks content checksums and sizes when the frames carry them. */
export async function zstdDecompress(data: Uint8Array): Promise<Uint8Array> {
  const size = declaredContentSize(data);
  if (size === undefined || size > MAX_DECLARED_BYTES) return (await codec(ZSTD_DEFAULT_LEVEL)).decode(data);
  const decoded = (await sizedDecoder()).decode(data, size);
  // zstddec returns whatever was written before an error (nothing, or a short prefix), never an exception.
  if (decoded.length !== size) throw new Error(`the frames declare ${size} decoded bytes, but decoding gave ${decoded.length}`);
  return decoded;
}
