import {
  encodeMinishardIndex,
  encodeShardIndex,
  type ShardingSpec,
  shardIndexSize,
  shardLocation,
} from "@zarrkit/neuroglancer";
import { gzipSync, zlibSync } from "fflate";

/**
 * Writes shard files the way no canonical writer does, to prove readers only
 * rely on the format: data blobs in random order with junk bytes between
 * them, minishard indexes with ids in random order (wrapping deltas), placed
 * before or after the data, and optionally "gzip" that is really zlib (as
 * neuroglancer-scripts writes).
 */
export function scrambledShards(
  spec: ShardingSpec,
  chunks: ReadonlyMap<bigint, Uint8Array>,
  random: () => number,
  options: { zlib?: boolean } = {},
): Map<string, Uint8Array> {
  const encode = (bytes: Uint8Array, encoding: "raw" | "gzip") =>
    encoding === "raw" ? bytes : options.zlib ? zlibSync(bytes) : gzipSync(bytes);
  const shuffle = <T>(items: T[]) => {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [items[i], items[j]] = [items[j]!, items[i]!]; // 0 <= j <= i < items.length
    }
    return items;
  };
  const gap = () => (random() < 0.5 ? 0 : Math.floor(random() * 20));

  const byFile = new Map<string, { id: bigint; minishard: bigint; stored: Uint8Array; start: number }[]>();
  for (const [id, data] of chunks) {
    const { key, minishard } = shardLocation(spec, id);
    const list = byFile.get(key) ?? [];
    list.push({ id, minishard, stored: encode(data, spec.data_encoding), start: 0 });
    byFile.set(key, list);
  }
  const files = new Map<string, Uint8Array>();
  for (const [key, blobs] of byFile) {
    shuffle(blobs);
    const indexFirst = random() < 0.5;
    // Indexes placed first need their (compressed) size before data positions are known: grow until it fits.
    let reserved = 0;
    for (;;) {
      let position = indexFirst ? reserved : 0;
      for (const blob of blobs) {
        position += gap();
        blob.start = position;
        position += blob.stored.length;
      }
      const minishards = shuffle([...new Set(blobs.map((b) => b.minishard))]);
      const indexes = minishards.map((minishard) => {
        const entries = shuffle(blobs.filter((b) => b.minishard === minishard)).map((b) => ({
          id: b.id,
          start: b.start,
          end: b.start + b.stored.length,
        }));
        return { minishard, bytes: encode(encodeMinishardIndex(entries), spec.minishard_index_encoding), start: 0 };
      });
      let indexPosition = indexFirst ? 0 : position;
      for (const index of indexes) {
        indexPosition += gap();
        index.start = indexPosition;
        indexPosition += index.bytes.length;
      }
      if (indexFirst && indexPosition > reserved) {
        reserved = indexPosition;
        continue;
      }
      const indexEnd = shardIndexSize(spec);
      const file = Uint8Array.from({ length: indexEnd + Math.max(position, indexPosition) + gap() }, () =>
        Math.floor(random() * 256),
      );
      const entries: [number, number][] = Array.from({ length: 2 ** spec.minishard_bits }, () => [0, 0]);
      for (const index of indexes) {
        entries[Number(index.minishard)] = [index.start, index.start + index.bytes.length];
        file.set(index.bytes, indexEnd + index.start);
      }
      file.set(encodeShardIndex(entries), 0);
      for (const blob of blobs) file.set(blob.stored, indexEnd + blob.start);
      files.set(key, file);
      break;
    }
  }
  return files;
}
