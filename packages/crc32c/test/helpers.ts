import type { ChunkSpec, CodecContext, CodecCreateContext } from "@zarrkit/registry";

// A stand-in for a core ChunkSpec: crc32c never looks at it.
const spec: ChunkSpec = {
  shape: [4],
  dataType: { name: "uint8", kind: "uint", byteSize: 1, lanes: 1, allocate: (n) => new Uint8Array(n) },
  fillValue: 0,
};

export const FIELD = "codecs[2]";
export const createCtx: CodecCreateContext = { spec, field: FIELD, options: {}, pipeline: { codecOptions: {} } };
export const ctx: CodecContext = { key: "arr/c/0/1" };

/** Bit-at-a-time CRC32C, the definition the wasm implementation is checked against. */
export function referenceCrc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
