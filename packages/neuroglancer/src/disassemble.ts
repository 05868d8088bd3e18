import { CorruptDataError } from "@zarrkit/registry";
import { decodeBytes } from "./encoding.js";
import { checkRangeSize, type ShardLimitOptions, shardLimits, storedIndexLimit } from "./limits.js";
import { decodeMinishardIndex } from "./minishard-index.js";
import { decodeShardIndex } from "./shard-index.js";
import { type ShardingSpec, shardIndexSize } from "./spec.js";

/**
 * Every chunk of a whole shard file, decoded per `data_encoding`. `key` names
 * the file in errors. Any layout is accepted; every range is checked against
 * the file length and an id stored twice is an error.
 */
export function disassembleShard(
  spec: ShardingSpec,
  bytes: Uint8Array,
  key = "shard",
  options: ShardLimitOptions = {},
): Map<bigint, Uint8Array> {
  const limits = shardLimits(options);
  const indexEnd = shardIndexSize(spec);
  if (bytes.length < indexEnd) {
    throw new CorruptDataError(`${key} has ${bytes.length} bytes, shorter than its ${indexEnd}-byte shard index`, {
      key,
    });
  }
  const inFile = (offset: number, length: number, what: string) => {
    if (offset + length > bytes.length) {
      throw new CorruptDataError(
        `${what} at bytes [${offset}, ${offset + length}) of ${key} lies past the end of the file ` +
          `(${bytes.length} bytes)`,
        { key },
      );
    }
    return bytes.subarray(offset, offset + length);
  };
  const chunks = new Map<bigint, Uint8Array>();
  const encoding = spec.minishard_index_encoding;
  for (const [minishard, range] of decodeShardIndex(bytes.subarray(0, indexEnd), key).entries()) {
    if (!range) continue;
    const what = `minishard ${minishard} index`;
    checkRangeSize(range, storedIndexLimit(limits, encoding), what, key, "maxMinishardIndexEntries");
    const stored = inFile(range.offset, range.length, what);
    const index = decodeMinishardIndex(decodeBytes(stored, encoding, what, key, limits.maxIndexBytes), indexEnd, key);
    for (const [id, chunk] of index) {
      if (chunks.has(id)) throw new CorruptDataError(`${key}: chunk ${id} occurs more than once`, { key });
      checkRangeSize(chunk, limits.maxChunkBytes, `chunk ${id}`, key, "maxChunkBytes");
      const data = inFile(chunk.offset, chunk.length, `chunk ${id}`);
      // Copies for raw data, so results do not keep the whole file alive.
      const decoded = decodeBytes(data, spec.data_encoding, `chunk ${id}`, key, limits.maxChunkBytes);
      chunks.set(id, spec.data_encoding === "raw" ? decoded.slice() : decoded);
    }
  }
  return chunks;
}
