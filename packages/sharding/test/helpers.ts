import { type CodecMetadata, createArray, MemoryStore, type Store, type StoreRequest, withRequestLog } from "@zarrkit/core";
import "../src/index.js";

export const BYTES: CodecMetadata = { name: "bytes", configuration: { endian: "little" } };
export const CRC: CodecMetadata = { name: "crc32c" };

/** A store that counts requests; `reads()` is the number of get/getRange calls since the last reset. */
export function counted(inner: Store = new MemoryStore()) {
  const log: StoreRequest[] = [];
  const store = withRequestLog(inner, (r) => log.push(r));
  return {
    store,
    inner,
    log,
    reads: () => log.filter((r) => r.method === "get" || r.method === "getRange" || r.method === "getVersioned").length,
    reset: () => {
      log.length = 0;
    },
  };
}

export function iota(n: number, scale = 1): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => (i + 1) * scale);
}

export { createArray, MemoryStore };
