import * as zarr from "zarrita";
import * as zk from "zarrkit";

export interface BytesCodec {
  encode(bytes: Uint8Array): Promise<Uint8Array>;
  decode(bytes: Uint8Array): Promise<Uint8Array>;
}

/**
 * numcodecs' zstd, which zarrkit and zarrita both decode with, reached
 * through zarrita's codec registry (numcodecs is not a dependency here).
 * numcodecs turns level 0 into its own default, 1; zarrkit writes zstd's
 * default, 3, for level 0 — pass the level to compare at explicitly.
 */
export async function numcodecsZstd(level: number): Promise<BytesCodec> {
  const entry = await zarr.registry.get("zstd")!();
  const codec = entry.fromConfig({ level }, { dataType: "uint8", shape: [1], codecs: [], fillValue: 0 });
  return {
    encode: async (bytes) => codec.encode(bytes),
    decode: async (bytes) => (await codec.decode(bytes)) as Uint8Array,
  };
}

/** zarrkit's crc32c codec (the library its shard indexes are checksummed with): encode appends the checksum, decode checks it. */
export async function zarrkitCrc32c(): Promise<zk.BytesToBytesCodec> {
  const factory = await zk.resolveCodec("crc32c", "bench");
  const spec: zk.ChunkSpec = { shape: [1], dataType: zk.dataType("uint8"), fillValue: 0 };
  return (await factory({}, { spec, field: "crc32c", options: {}, allOptions: {} })) as zk.BytesToBytesCodec;
}
