import {
  type CodecMetadata,
  countRequests,
  createArray,
  MemoryStore,
  type SetOptions,
  type Store,
} from "@zarrkit/core";
import { concatBytes } from "@zarrkit/util";
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

/**
 * A memory store that also takes a value in pieces (as a file store does), recording how many each write had and the
 * buffers they lay in.
 */
export function piecewise(): { store: Store; inner: MemoryStore; pieceCounts: number[]; buffers: ArrayBufferLike[][] } {
  const inner = new MemoryStore();
  const pieceCounts: number[] = [];
  const buffers: ArrayBufferLike[][] = [];
  const store: Store = Object.assign(Object.create(inner) as MemoryStore, {
    async setParts(key: string, parts: readonly Uint8Array[], options?: SetOptions) {
      pieceCounts.push(parts.length);
      buffers.push(parts.map((part) => part.buffer));
      await inner.set(key, concatBytes(parts), options);
    },
  });
  return { store, inner, pieceCounts, buffers };
}

export { createArray, MemoryStore };
