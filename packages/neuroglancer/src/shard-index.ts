import { CorruptDataError } from "@zarrkit/registry";
import type { ByteRange } from "@zarrkit/util";

/**
 * Decode one 16-byte shard index entry at `at` in `bytes`: the minishard
 * index's [start, end) relative to `indexEnd` (the end of the shard index).
 * Returns the absolute file range, or undefined when the minishard is empty.
 */
export function decodeShardIndexEntry(
  bytes: Uint8Array,
  at: number,
  indexEnd: number,
  key: string,
  minishard: bigint | number,
): ByteRange | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const start = view.getBigUint64(at, true);
  const end = view.getBigUint64(at + 8, true);
  if (start > end) {
    throw new CorruptDataError(`shard index of ${key}: minishard ${minishard} has start ${start} > end ${end}`, {
      key,
    });
  }
  if (start === end) return undefined;
  const absoluteEnd = BigInt(indexEnd) + end;
  if (absoluteEnd > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new CorruptDataError(`shard index of ${key}: minishard ${minishard} ends at ${absoluteEnd}, past any file`, {
      key,
    });
  }
  return { offset: indexEnd + Number(start), length: Number(end - start) };
}

/** Decode a whole shard index: one absolute range (or undefined when empty) per minishard. */
export function decodeShardIndex(bytes: Uint8Array, key: string): (ByteRange | undefined)[] {
  const entries: (ByteRange | undefined)[] = [];
  for (let at = 0; at < bytes.length; at += 16) {
    entries.push(decodeShardIndexEntry(bytes, at, bytes.length, key, at / 16));
  }
  return entries;
}

/** Encode `[start, end)` pairs (relative to the end of the shard index), one per minishard. */
export function encodeShardIndex(entries: readonly (readonly [number | bigint, number | bigint])[]): Uint8Array {
  const bytes = new Uint8Array(entries.length * 16);
  const view = new DataView(bytes.buffer);
  entries.forEach(([start, end], i) => {
    view.setBigUint64(i * 16, BigInt(start), true);
    view.setBigUint64(i * 16 + 8, BigInt(end), true);
  });
  return bytes;
}
