// The "#deflate" implementation for browsers and other non-Node runtimes,
// on fflate; decoding checks the gzip/zlib trailers (inflate-checked.ts).
import { gzipSync, zlibSync } from "fflate";
import { inflateChecked } from "./inflate-checked.js";

type Level = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

export async function gzipEncode(data: Uint8Array, level: number): Promise<Uint8Array> {
  // mtime 0 (as node:zlib writes) keeps the output a function of the input alone.
  return gzipSync(data, { level: level as Level, mtime: 0 });
}

/**
 * Single-member gzip only (every Zarr writer produces one member); node:zlib handles several. Stops past `maxBytes`.
 */
export async function gzipDecode(data: Uint8Array, maxBytes?: number): Promise<Uint8Array> {
  return inflateChecked(data, { format: "gzip", maxBytes });
}

export async function zlibEncode(data: Uint8Array, level: number): Promise<Uint8Array> {
  return zlibSync(data, { level: level as Level });
}

/** Stops past `maxBytes` of output. */
export async function zlibDecode(data: Uint8Array, maxBytes?: number): Promise<Uint8Array> {
  return inflateChecked(data, { format: "zlib", maxBytes });
}
