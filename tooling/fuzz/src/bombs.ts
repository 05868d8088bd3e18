// Small compressed inputs that claim or expand to far more than a chunk can
// hold. A decoder that honours maxDecodedBytes rejects each with a typed error
// after a few KiB; one that does not allocates beyond the fuzzer's bound.
import { createGzip } from "node:zlib";

/** Decoded size of the bombs: above the runner's per-case memory bound (256 MiB). */
export const BOMB_BYTES = 320 * 2 ** 20;

let gzipBomb: Promise<Uint8Array> | undefined;

/** A gzip member of BOMB_BYTES zeros (about 320 KiB), compressed as a stream (never held decoded). */
export function gzipZerosBomb(): Promise<Uint8Array> {
  gzipBomb ??= new Promise((resolve, reject) => {
    const gzip = createGzip({ level: 9, chunkSize: 1 << 20 });
    const parts: Buffer[] = [];
    gzip.on("data", (b: Buffer) => parts.push(b));
    gzip.on("end", () => resolve(new Uint8Array(Buffer.concat(parts))));
    gzip.on("error", reject);
    const block = Buffer.alloc(1 << 20);
    let left = BOMB_BYTES / block.length;
    const write = () => {
      while (left > 0) {
        left--;
        if (!gzip.write(block)) return void gzip.once("drain", write);
      }
      gzip.end();
    };
    write();
  });
  return gzipBomb;
}

const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

/** A zstd frame of BOMB_BYTES zeros as RLE blocks of 128 KiB (4 bytes each; about 10 KiB), no content size. */
export function zstdZerosBomb(): Uint8Array {
  const blocks = BOMB_BYTES / 2 ** 17;
  const out = new Uint8Array(6 + 4 * blocks);
  // Frame header descriptor 0 (no content size, not single segment), window 2^17.
  out.set([...ZSTD_MAGIC, 0x00, 0x38]);
  for (let b = 0; b < blocks; b++) {
    const last = b === blocks - 1 ? 1 : 0;
    const header = ((2 ** 17) << 3) | (1 << 1) | last; // RLE block of 128 KiB
    out.set([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff, 0], 6 + 4 * b);
  }
  return out;
}

/** A single-segment zstd frame whose header claims `contentSize` bytes but holds one RLE byte. */
export function zstdContentSizeLie(contentSize: bigint = 2n ** 40n): Uint8Array {
  const fcs = new Uint8Array(8);
  new DataView(fcs.buffer).setBigUint64(0, contentSize, true);
  const header = (1 << 3) | (1 << 1) | 1; // last RLE block of 1 byte
  return Uint8Array.from([...ZSTD_MAGIC, 0xe0, ...fcs, header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff, 0]);
}
