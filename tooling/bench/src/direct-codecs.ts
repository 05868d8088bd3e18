import * as zk from "zarrkit";

export interface BytesCodec {
  encode(bytes: Uint8Array): Promise<Uint8Array>;
  decode(bytes: Uint8Array): Promise<Uint8Array>;
}

/**
 * The zstd libraries zarrkit uses (zstddec decodes, numcodecs encodes),
 * through zarrkit's codec, which adds only a frame-header walk. zarrkit
 * writes zstd's default, 3, for level 0, numcodecs (so zarrita) its own
 * default, 1 — pass the level to compare at explicitly (>= 1).
 */
export async function zarrkitZstd(level: number): Promise<BytesCodec> {
  const factory = await zk.resolveCodec("zstd", "bench");
  const spec: zk.ChunkSpec = { shape: [1], dataType: zk.dataType("uint8"), fillValue: 0 };
  const codec = (await factory({ level, checksum: false }, { spec, field: "zstd", options: {}, allOptions: {} })) as zk.BytesToBytesCodec;
  const ctx = { key: "floor" };
  return { encode: async (bytes) => codec.encode(bytes, ctx), decode: async (bytes) => codec.decode(bytes, ctx) };
}

/** zarrkit's crc32c codec (the library its shard indexes are checksummed with): encode appends the checksum, decode checks it. */
export async function zarrkitCrc32c(): Promise<zk.BytesToBytesCodec> {
  const factory = await zk.resolveCodec("crc32c", "bench");
  const spec: zk.ChunkSpec = { shape: [1], dataType: zk.dataType("uint8"), fillValue: 0 };
  return (await factory({}, { spec, field: "crc32c", options: {}, allOptions: {} })) as zk.BytesToBytesCodec;
}
