// numcodecs' zstd (wasm), loaded on first use so that importing this module
// costs nothing until zstd data is met.
import type { Codec } from "numcodecs";

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

/** Decodes every frame; checks content checksums and sizes when the frames carry them. */
export async function zstdDecompress(data: Uint8Array): Promise<Uint8Array> {
  return (await codec(ZSTD_DEFAULT_LEVEL)).decode(data);
}
