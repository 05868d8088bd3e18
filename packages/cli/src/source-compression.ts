import { shardingConfiguration } from "@zarrkit/sharding";
import type { CodecMetadata, ZarrArray } from "zarrkit";

/**
 * The source's compression, as the bytes-to-bytes codecs of the destination's
 * inner chunks, so that a conversion keeps what the user had: `codecs` when
 * the source has compression that Zarr v3 can express, empty when the source
 * is uncompressed (the caller then uses its default), and a `note` when it
 * has compression without a v3 equivalent here (the caller's default is used
 * and the note printed).
 */
export interface SourceCompression {
  /** The bytes-to-bytes codecs kept (empty: none to keep). */
  codecs: CodecMetadata[];
  /** Why the source's compression cannot be kept, when it cannot. */
  note?: string;
}

/** Zarr v3 bytes-to-bytes codecs kept as they are from a v3 source's chain. */
const KEPT_V3 = new Set(["blosc", "zstd", "gzip", "crc32c"]);
const BLOSC_SHUFFLES = ["noshuffle", "shuffle", "bitshuffle"];

/**
 * What `array` compresses its chunks with: a v3 array's bytes-to-bytes codecs
 * (the inner chain's, for sharded arrays), a v2 array's compressor translated
 * (blosc with its cname, clevel, shuffle and blocksize; zstd; gzip; zlib as
 * gzip of the same level, the same deflate stream in another frame). v2
 * filters are not compression: they are undone on reading.
 */
export function sourceCompression(array: ZarrArray, elementBytes: number): SourceCompression {
  const metadata = array.metadata;
  if (metadata.zarr_format === 2) {
    const compressor = metadata.compressor as Record<string, unknown> | null;
    if (!compressor) return { codecs: [] };
    const codec = fromNumcodecs(compressor, elementBytes);
    if (codec) return { codecs: [codec] };
    return { codecs: [], note: `the source's compressor ${JSON.stringify(compressor.id)} has no Zarr v3 codec here` };
  }
  const chain: CodecMetadata[] = shardingConfiguration(metadata.codecs)?.codecs ?? metadata.codecs;
  const serializer = chain.findIndex((c) => c.name === "bytes" || c.name.startsWith("vlen-"));
  const after = chain.slice(serializer + 1);
  const unknown = after.find((c) => !KEPT_V3.has(c.name));
  if (unknown)
    return { codecs: [], note: `the source's codec ${JSON.stringify(unknown.name)} is not one convert writes` };
  return {
    codecs: after.map((c) =>
      c.name === "blosc" ? { ...c, configuration: { ...c.configuration, typesize: elementBytes } } : c,
    ),
  };
}

function fromNumcodecs(compressor: Record<string, unknown>, elementBytes: number): CodecMetadata | undefined {
  const int = (value: unknown, fallback: number) =>
    typeof value === "number" && Number.isInteger(value) ? value : fallback;
  switch (compressor.id) {
    case "blosc": {
      // numcodecs: 0 no shuffle, 1 byte shuffle, 2 bit shuffle, -1 "auto"
      // (bit shuffle for 1-byte elements, else byte shuffle).
      const code = int(compressor.shuffle, 1);
      const shuffle = code === -1 ? (elementBytes === 1 ? "bitshuffle" : "shuffle") : BLOSC_SHUFFLES[code];
      if (shuffle === undefined || typeof compressor.cname !== "string") return undefined;
      const configuration = {
        cname: compressor.cname,
        clevel: int(compressor.clevel, 5),
        shuffle,
        typesize: elementBytes,
        blocksize: int(compressor.blocksize, 0),
      };
      return { name: "blosc", configuration };
    }
    case "zstd":
      return {
        name: "zstd",
        configuration: { level: int(compressor.level, 0), checksum: compressor.checksum === true },
      };
    case "gzip":
    case "zlib":
      return { name: "gzip", configuration: { level: int(compressor.level, 6) } };
    default:
      return undefined;
  }
}
