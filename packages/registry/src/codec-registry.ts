import type { CodecFactory } from "./codec.js";
import { UnsupportedError } from "./errors.js";
import { registerCodecWorkerModule } from "./codec-worker-modules.js";
import { type CodecLoader, registryState } from "./global-state.js";

/** Codecs this project ships, so an unknown-codec error can say what to install. */
// A Map, never a plain object: a codec name from zarr.json such as "toString" must not find Object.prototype.
const KNOWN_CODEC_PACKAGES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    sharding_indexed: "@zarrkit/sharding",
    crc32c: "@zarrkit/crc32c",
    gzip: "@zarrkit/codecs",
    zlib: "@zarrkit/codecs",
    zstd: "@zarrkit/codecs",
    blosc: "@zarrkit/codecs",
    "numcodecs.delta": "@zarrkit/codecs",
    "vlen-utf8": "@zarrkit/codecs",
    "vlen-bytes": "@zarrkit/codecs",
    cast_value: "@zarrkit/codecs",
    scale_offset: "@zarrkit/codecs",
    reshape: "@zarrkit/codecs",
    bitround: "@zarrkit/codecs",
    "numcodecs.zlib": "@zarrkit/codecs",
    "numcodecs.gzip": "@zarrkit/codecs",
    "numcodecs.zstd": "@zarrkit/codecs",
    "numcodecs.blosc": "@zarrkit/codecs",
    "numcodecs.vlen-utf8": "@zarrkit/codecs",
    "numcodecs.vlen-bytes": "@zarrkit/codecs",
    "numcodecs.lz4": "@zarrkit/codecs",
    "numcodecs.bz2": "@zarrkit/codecs",
    "numcodecs.lzma": "@zarrkit/codecs",
    "numcodecs.shuffle": "@zarrkit/codecs",
    "numcodecs.fixedscaleoffset": "@zarrkit/codecs",
    "numcodecs.quantize": "@zarrkit/codecs",
    "numcodecs.bitround": "@zarrkit/codecs",
    "numcodecs.astype": "@zarrkit/codecs",
    "numcodecs.packbits": "@zarrkit/codecs",
    "numcodecs.categorize": "@zarrkit/codecs",
    "numcodecs.json2": "@zarrkit/codecs",
    "numcodecs.crc32": "@zarrkit/codecs",
    "numcodecs.adler32": "@zarrkit/codecs",
    "numcodecs.fletcher32": "@zarrkit/codecs",
  }),
);

/** How a codec is registered beyond its loader. */
export interface RegisterCodecOptions {
  /**
   * The module that registers this codec, for codec workers to import
   * (`import.meta.url` of the calling module): large chunks then decode on
   * workers too. Same as calling `registerCodecWorkerModule`.
   */
  workerModule?: string;
}

/**
 * Register a codec by its metadata name. The loader runs on first use only,
 * so a dynamic `import()` inside it keeps unused codecs out of bundles.
 * Registering a name again replaces the earlier registration.
 */
export function registerCodec(name: string, loader: CodecLoader, options: RegisterCodecOptions = {}): void {
  registryState().codecs.set(name, { loader });
  if (options.workerModule !== undefined) registerCodecWorkerModule(options.workerModule);
}

/** Whether a codec of this name is registered. */
export function isCodecRegistered(name: string): boolean {
  return registryState().codecs.has(name);
}

/** The registered codec names, sorted. */
export function registeredCodecs(): string[] {
  return [...registryState().codecs.keys()].sort();
}

/** The factory for a codec name; throws UnsupportedError naming the package that provides it, when known. */
export function resolveCodec(name: string, field = "codecs"): Promise<CodecFactory> {
  if (typeof name !== "string") {
    return Promise.reject(new UnsupportedError(`Codec names are strings; got ${typeof name} at ${field}`, { field }));
  }
  const entry = registryState().codecs.get(name);
  if (!entry) {
    const provider = KNOWN_CODEC_PACKAGES.get(name);
    const hint = provider
      ? ` It is provided by ${provider}: install it and import it (or import "zarrkit", which registers every ` +
        `built-in codec).`
      : ` If a plugin package provides it, install and import that package (its import registers the codec); else ` +
        `register it with registerCodec(${JSON.stringify(name)}, loader).`;
    return Promise.reject(new UnsupportedError(`Unknown codec ${JSON.stringify(name)} at ${field}.${hint}`, { field }));
  }
  entry.loaded ??= Promise.resolve().then(entry.loader);
  return entry.loaded;
}
