import { type CodecMetadata, countRequests, createArray, MemoryStore, type Store } from "@zarrkit/core";
import "../src/index.js";

export const BYTES: CodecMetadata = { name: "bytes", configuration: { endian: "little" } };
export const CRC: CodecMetadata = { name: "crc32c" };

/** A counted store over `inner`, which stays reachable for direct inspection. */
export function counted(inner: Store = new MemoryStore()) {
  const store = countRequests(inner);
  return { store, inner, log: store.log, reads: () => store.reads(), reset: () => store.reset() };
}

export function iota(n: number, scale = 1): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => (i + 1) * scale);
}

export { createArray, MemoryStore };
