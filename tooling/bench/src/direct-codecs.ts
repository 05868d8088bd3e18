import * as zk from "zarrkit";
import { type BytesToBytesCodec, type ChunkSpec, resolveCodec } from "@zarrkit/registry";

export interface BytesCodec {
  encode(bytes: Uint8Array): Promise<Uint8Array>;
  decode(bytes: Uint8Array): Promise<Uint8Array>;
}

/**
 * The zstd library zarrkit uses (its own libzstd wasm, tooling/zstd-wasm),
 * through zarrkit's codec, which adds only a frame-header walk. zarrkit
 * writes zstd's default, 3, for level 0, numcodecs (so zarrita) its own
 * default, 1 — pass the level to compare at explicitly (>= 1).
 */
export async function zarrkitZstd(level: number): Promise<BytesCodec> {
  const codec = await bytesCodec("zstd", { level, checksum: false });
  const ctx = { key: "floor" };
  return { encode: async (bytes) => codec.encode(bytes, ctx), decode: async (bytes) => codec.decode(bytes, ctx) };
}

/**
 * zarrkit's crc32c codec (the library its shard indexes are checksummed with): encode appends the checksum, decode
 * checks it.
 */
export function zarrkitCrc32c(): Promise<BytesToBytesCodec> {
  return bytesCodec("crc32c", {});
}

/** One of zarrkit's registered bytes-to-bytes codecs, built as an array would build it. */
async function bytesCodec(name: string, configuration: Record<string, unknown>): Promise<BytesToBytesCodec> {
  const factory = await resolveCodec(name, "bench");
  const spec: ChunkSpec = { shape: [1], dataType: zk.dataType("uint8"), fillValue: 0 };
  return (await factory(configuration, {
    spec,
    field: name,
    options: {},
    pipeline: { codecOptions: {} },
  })) as BytesToBytesCodec;
}
