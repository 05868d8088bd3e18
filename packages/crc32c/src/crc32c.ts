import { ZarrkitError } from "@zarrkit/registry";
import { createCRC32, type IHasher } from "hash-wasm";

/** The Castagnoli polynomial (reversed), RFC 3720. */
const CASTAGNOLI = 0x82f63b78;

let hasher: IHasher | undefined;
let loading: Promise<void> | undefined;

/**
 * Load the WebAssembly behind `crc32c()`. hash-wasm can only instantiate it
 * asynchronously; once this resolves, `crc32c()` is synchronous. Idempotent;
 * a failed load (e.g. a CSP without wasm) can be retried.
 */
export function initCrc32c(): Promise<void> {
  loading ??= createCRC32(CASTAGNOLI).then(
    (created) => {
      hasher = created;
    },
    (cause: unknown) => {
      loading = undefined;
      throw cause;
    },
  );
  return loading;
}

/** CRC32C (Castagnoli) of `bytes`, unsigned. Synchronous: call `await initCrc32c()` once before. */
export function crc32c(bytes: Uint8Array): number {
  if (!hasher)
    throw new ZarrkitError("crc32c() needs `await initCrc32c()` first: its WebAssembly loads asynchronously");
  // One shared hasher is safe: init-update-digest runs without yielding.
  const digest = hasher.init().update(bytes).digest("binary");
  return ((digest[0]! << 24) | (digest[1]! << 16) | (digest[2]! << 8) | digest[3]!) >>> 0;
}

/** CRC32C of `bytes`, loading the WebAssembly first when needed. */
export async function crc32cAsync(bytes: Uint8Array): Promise<number> {
  await initCrc32c();
  return crc32c(bytes);
}
