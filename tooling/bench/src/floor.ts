/**
 * The floor: the least code that does each job, on one thread, with the same
 * codec libraries as the peers — read every file, decompress every chunk,
 * copy it into one buffer; or cut, compress and write every chunk. No
 * pipelines, no selection logic, no concurrency: what the hardware and the
 * libraries cost, to measure the engines against.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { blockOrigins, copyBlockInto, gatherBlock, uint16View } from "./blocks.js";
import type { BytesCodec } from "./direct-codecs.js";
import { type Form, innerEdge } from "./forms.js";
import type { Profile } from "./profile.js";

/** Shard index entries for chunks never written: offset and nbytes both 2^64-1. */
const EMPTY = 2n ** 64n - 1n;

/** Checksums of shard indexes, appended by `encode` (zarrkit's crc32c codec). */
export interface Checksum {
  encode(bytes: Uint8Array): Promise<Uint8Array> | Uint8Array;
}

/** The file of the chunk (or shard) at `origin` of the array at `path` under `root`, default key encoding. */
function chunkPath(root: string, path: string, origin: readonly number[], edge: number): string {
  return join(root, path, "c", ...origin.map((o) => String(o / edge)));
}

function bytesOf(block: Uint16Array): Uint8Array {
  return new Uint8Array(block.buffer, block.byteOffset, block.byteLength);
}

/** The whole array of `form`, stored under `root`, read the minimal way. */
export async function floorRead(root: string, form: Form, profile: Profile, zstd: BytesCodec): Promise<Uint16Array> {
  const { size } = profile;
  const out = new Uint16Array(size ** 3);
  if (!form.sharded) {
    for (const origin of blockOrigins(size, profile.chunk)) {
      const stored = readFileSync(chunkPath(root, form.path, origin, profile.chunk));
      const bytes = form.compressed ? await zstd.decode(stored) : stored;
      copyBlockInto(out, size, uint16View(bytes), profile.chunk, origin);
    }
    return out;
  }
  const edge = innerEdge(form, profile);
  const perShard = (profile.shard / edge) ** 3;
  const indexSize = perShard * 16 + 4;
  for (const shardOrigin of blockOrigins(size, profile.shard)) {
    const shard = readFileSync(chunkPath(root, form.path, shardOrigin, profile.shard));
    const index = new DataView(shard.buffer, shard.byteOffset + shard.length - indexSize, indexSize - 4);
    let i = 0;
    for (const inner of blockOrigins(profile.shard, edge)) {
      const offset = index.getBigUint64(16 * i, true);
      const length = index.getBigUint64(16 * i + 8, true);
      i++;
      if (offset === EMPTY) continue; // the output is already zero, the fill value
      const stored = shard.subarray(Number(offset), Number(offset + length));
      const bytes = form.compressed ? await zstd.decode(stored) : stored;
      copyBlockInto(
        out,
        size,
        uint16View(bytes),
        edge,
        inner.map((o, d) => o + shardOrigin[d]!),
      );
    }
  }
  return out;
}

function writeFile(path: string, bytes: Uint8Array, fsync: boolean): void {
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, "w");
  try {
    writeSync(fd, bytes);
    if (fsync) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export interface FloorWriteOptions {
  /** zstd at the level the peer writes with. */
  zstd: BytesCodec;
  checksum: Checksum;
  /** fsync each file, as zarrkit's atomic writes do. */
  fsync: boolean;
}

/** Write `data` as `form` under `root` (chunk files only, no metadata), the minimal way. */
export async function floorWrite(
  root: string,
  form: Form,
  profile: Profile,
  data: Uint16Array,
  options: FloorWriteOptions,
): Promise<void> {
  const { size } = profile;
  if (!form.sharded) {
    for (const origin of blockOrigins(size, profile.chunk)) {
      const block = bytesOf(gatherBlock(data, size, profile.chunk, origin));
      writeFile(
        chunkPath(root, form.path, origin, profile.chunk),
        form.compressed ? await options.zstd.encode(block) : block,
        options.fsync,
      );
    }
    return;
  }
  for (const shardOrigin of blockOrigins(size, profile.shard)) {
    const edge = innerEdge(form, profile);
    const shard = await encodeShard(data, size, shardOrigin, profile, options, edge, form.compressed);
    writeFile(chunkPath(root, form.path, shardOrigin, profile.shard), shard, options.fsync);
  }
}

/**
 * The shard at `shardOrigin` of `source` (a cube of edge `size`): each inner
 * chunk cut out and compressed, the index (offset, length per inner chunk)
 * checksummed, all in one buffer, index at the end. Inner chunks of edge
 * `edge`, compressed or stored as they are.
 */
async function encodeShard(
  source: Uint16Array,
  size: number,
  shardOrigin: readonly number[],
  profile: Profile,
  options: FloorWriteOptions,
  edge = profile.inner,
  compressed = true,
): Promise<Uint8Array> {
  const perShard = (profile.shard / edge) ** 3;
  const parts: Uint8Array[] = [];
  const index = new DataView(new ArrayBuffer(perShard * 16));
  let position = 0;
  let i = 0;
  for (const inner of blockOrigins(profile.shard, edge)) {
    const block = bytesOf(
      gatherBlock(
        source,
        size,
        edge,
        inner.map((o, d) => o + shardOrigin[d]!),
      ),
    );
    const encoded = compressed ? await options.zstd.encode(block) : block;
    index.setBigUint64(16 * i, BigInt(position), true);
    index.setBigUint64(16 * i + 8, BigInt(encoded.length), true);
    parts.push(encoded);
    position += encoded.length;
    i++;
  }
  parts.push(await options.checksum.encode(new Uint8Array(index.buffer)));
  const shard = new Uint8Array(position + perShard * 16 + 4);
  let at = 0;
  for (const part of parts) {
    shard.set(part, at);
    at += part.length;
  }
  return shard;
}

/**
 * The conversion floor: the unsharded zstd `form` under `sourceRoot` (chunks
 * of `profile.chunk`, at most one shard's edge) rewritten as shards under
 * `destRoot` (the array at its root, chunk files only), one shard at a time:
 * read and decode the chunks inside the shard into one buffer, then encode
 * and write the shard as `floorWrite` does.
 */
export async function floorConvert(
  sourceRoot: string,
  form: Form,
  destRoot: string,
  profile: Profile,
  options: FloorWriteOptions,
): Promise<void> {
  const { size, shard: edge, chunk } = profile;
  const buffer = new Uint16Array(edge ** 3);
  for (const shardOrigin of blockOrigins(size, edge)) {
    for (const origin of blockOrigins(edge, chunk)) {
      const stored = readFileSync(
        chunkPath(
          sourceRoot,
          form.path,
          origin.map((o, d) => o + shardOrigin[d]!),
          chunk,
        ),
      );
      copyBlockInto(buffer, edge, uint16View(await options.zstd.decode(stored)), chunk, origin);
    }
    writeFile(
      chunkPath(destRoot, "", shardOrigin, edge),
      await encodeShard(buffer, edge, [0, 0, 0], profile, options),
      options.fsync,
    );
  }
}
