import { CorruptDataError } from "@zarrkit/registry";
import type { ByteRange } from "@zarrkit/util";
import { addU64 } from "./uint64.js";

/** One chunk of a minishard index. */
export interface MinishardEntry {
  /** The chunk id. */
  id: bigint;
  /** Chunk byte range [start, end), relative to the same origin as the decode/encode base. */
  start: number;
  /** End of the chunk's byte range (exclusive). */
  end: number;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Decode a (decompressed) minishard index: a C-order [3][n] uint64 array of
 * delta-encoded ids, offsets relative to the previous chunk's end, and sizes.
 * `base` is the end of the shard index, so returned ranges are absolute file
 * offsets. Entries may come in any order (sums wrap modulo 2^64); an id that
 * occurs twice is ambiguous and rejected.
 */
export function decodeMinishardIndex(bytes: Uint8Array, base: number, key: string): Map<bigint, ByteRange> {
  if (bytes.length % 24 !== 0) {
    throw new CorruptDataError(`minishard index in ${key} has ${bytes.length} bytes, not a multiple of 24`, { key });
  }
  const n = bytes.length / 24;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = new Map<bigint, ByteRange>();
  let id = 0n;
  let end = BigInt(base);
  for (let i = 0; i < n; i++) {
    id = addU64(id, view.getBigUint64(i * 8, true));
    const start = addU64(end, view.getBigUint64((n + i) * 8, true));
    const size = view.getBigUint64((2 * n + i) * 8, true);
    end = addU64(start, size);
    if (end - start !== size || end > MAX_SAFE) {
      throw new CorruptDataError(
        `minishard index in ${key}: chunk ${id} has byte range [${start}, +${size}) past any file`,
        {
          key,
        },
      );
    }
    if (entries.has(id)) {
      throw new CorruptDataError(`minishard index in ${key}: chunk ${id} occurs more than once`, { key });
    }
    entries.set(id, { offset: Number(start), length: Number(size) });
  }
  return entries;
}

/** Encode entries in the given order, delta-encoding ids and offsets (relative to origin 0). */
export function encodeMinishardIndex(entries: readonly MinishardEntry[]): Uint8Array {
  const n = entries.length;
  const bytes = new Uint8Array(24 * n);
  const view = new DataView(bytes.buffer);
  let prevId = 0n;
  let prevEnd = 0n;
  entries.forEach((entry, i) => {
    const start = BigInt(entry.start);
    const end = BigInt(entry.end);
    view.setBigUint64(i * 8, BigInt.asUintN(64, entry.id - prevId), true);
    view.setBigUint64((n + i) * 8, BigInt.asUintN(64, start - prevEnd), true);
    view.setBigUint64((2 * n + i) * 8, end - start, true);
    prevId = entry.id;
    prevEnd = end;
  });
  return bytes;
}
