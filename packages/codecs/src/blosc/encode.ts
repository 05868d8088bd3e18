import { UnsupportedError } from "@zarrkit/registry";
import { zstdCompress } from "../zstd/encode.js";
import { blosclzCompress } from "./blosclz.js";
import {
  type Cname,
  FLAG_BITSHUFFLE,
  FLAG_DONT_SPLIT,
  FLAG_MEMCPYED,
  FLAG_SHUFFLE,
  FORMAT_CODE,
  FORMAT_VERSION,
  HEADER_SIZE,
  MAX_TYPESIZE,
  MIN_BUFFERSIZE,
  type Shuffle,
  STREAM_FORMAT_VERSION,
  splitsBlock,
} from "./format.js";
import { lz4Compress } from "./lz4.js";
import { bitShuffle, byteShuffle } from "./shuffle.js";
import { snappyCompress } from "./snappy.js";

export interface BloscOptions {
  cname: Cname;
  clevel: number;
  shuffle: Shuffle;
  typesize: number;
  /** 0: chosen from clevel, cname and typesize as c-blosc does. */
  blocksize: number;
}

const MAX_BUFFERSIZE = 2 ** 31 - 1 - HEADER_SIZE;
const MAX_BLOCKSIZE = 2 ** 31 - 1 - MAX_TYPESIZE * 4;
const L1 = 32 * 1024;

/**
 * One stream per compressor. lz4hc searches deeper as clevel grows, like LZ4HC's levels; zstd/zlib get c-blosc's
 * levels.
 */
const COMPRESS: Readonly<Record<Cname, (src: Uint8Array, clevel: number) => Uint8Array | Promise<Uint8Array>>> = {
  blosclz: (src) => blosclzCompress(src),
  lz4: (src) => lz4Compress(src, 1),
  lz4hc: (src, clevel) => lz4Compress(src, 2 ** (clevel - 1)),
  snappy: (src) => snappyCompress(src),
  zlib: async (src, clevel) => (await import("#deflate")).zlibEncode(src, clevel),
  zstd: (src, clevel) => zstdCompress(src, clevel < 9 ? 2 * clevel - 1 : 22),
};

/** c-blosc's forward-compatible split rule: split blocks into byte streams, except for zstd. */
function splits(cname: Cname, typesize: number, blocksize: number): boolean {
  return cname !== "zstd" && splitsBlock(typesize, blocksize);
}

/** c-blosc 1.x's compute_blocksize, so blocks (and thus ratios and speed) match what c-blosc writes. */
export function computeBlocksize(options: BloscOptions, typesize: number, nbytes: number): number {
  const { cname, clevel } = options;
  if (nbytes < typesize) return 1;
  const hcr = cname === "lz4hc" || cname === "zlib" || cname === "zstd";
  let blocksize = nbytes;
  if (options.blocksize) {
    blocksize = Math.min(Math.max(options.blocksize, MIN_BUFFERSIZE), MAX_BLOCKSIZE);
  } else if (nbytes >= L1) {
    const factor = [1 / 4, 1 / 2, 1, 2, 4, 4, 8, 8, 8, hcr ? 16 : 8][clevel]!;
    blocksize = L1 * (hcr ? 2 : 1) * factor;
  }
  if (clevel > 0 && splits(cname, typesize, blocksize)) {
    blocksize = Math.min(Math.max(Math.min(blocksize, 1 << 18) * typesize, 1 << 16), 1 << 20);
  }
  blocksize = Math.min(blocksize, nbytes);
  return blocksize > typesize ? Math.floor(blocksize / typesize) * typesize : blocksize;
}

function header(
  flags: number,
  typesize: number,
  nbytes: number,
  blocksize: number,
  cbytes: number,
  out: Uint8Array,
): void {
  out.set([FORMAT_VERSION, STREAM_FORMAT_VERSION, flags, typesize]);
  const view = new DataView(out.buffer, out.byteOffset, HEADER_SIZE);
  view.setInt32(4, nbytes, true);
  view.setInt32(8, blocksize, true);
  view.setInt32(12, cbytes, true);
}

function stored(src: Uint8Array, flags: number, typesize: number, blocksize: number): Uint8Array {
  const out = new Uint8Array(HEADER_SIZE + src.length);
  header(flags | FLAG_MEMCPYED, typesize, src.length, blocksize, out.length, out);
  out.set(src, HEADER_SIZE);
  return out;
}

/** Encode a Blosc 1 chunk as c-blosc lays it out; data that does not compress is stored raw, as c-blosc does. */
export async function bloscCompress(src: Uint8Array, options: BloscOptions): Promise<Uint8Array> {
  const nbytes = src.length;
  if (nbytes > MAX_BUFFERSIZE)
    throw new UnsupportedError(`blosc chunks hold at most ${MAX_BUFFERSIZE} bytes, not ${nbytes}`);
  // c-blosc treats types larger than a header byte can hold as bytes.
  const typesize = options.typesize > MAX_TYPESIZE ? 1 : options.typesize;
  const { cname, clevel, shuffle } = options;
  const blocksize = computeBlocksize(options, typesize, nbytes);
  const split = splits(cname, typesize, blocksize);
  const flags =
    (shuffle === "shuffle" ? FLAG_SHUFFLE : 0) |
    (shuffle === "bitshuffle" ? FLAG_BITSHUFFLE : 0) |
    (split ? 0 : FLAG_DONT_SPLIT) |
    (FORMAT_CODE[cname] << 5);
  if (clevel === 0 || nbytes < MIN_BUFFERSIZE) return stored(src, flags, typesize, blocksize);
  const nblocks = Math.ceil(nbytes / blocksize);
  // Like c-blosc, give up on compression once the output would exceed the input plus a header.
  const out = new Uint8Array(nbytes + HEADER_SIZE);
  const view = new DataView(out.buffer);
  const scratch = shuffle === "noshuffle" ? undefined : new Uint8Array(blocksize);
  let at = HEADER_SIZE + 4 * nblocks;
  for (let b = 0; b < nblocks; b++) {
    view.setInt32(HEADER_SIZE + 4 * b, at, true);
    const size = Math.min(blocksize, nbytes - b * blocksize);
    let block = src.subarray(b * blocksize, b * blocksize + size);
    if (shuffle === "shuffle" && typesize > 1) {
      byteShuffle(block, scratch!, typesize, false);
      block = scratch!.subarray(0, size);
    } else if (shuffle === "bitshuffle" && size >= typesize) {
      bitShuffle(block, scratch!, typesize, false);
      block = scratch!.subarray(0, size);
    }
    const count = split && size === blocksize ? typesize : 1;
    const length = size / count;
    for (let s = 0; s < count; s++) {
      const stream = block.subarray(s * length, (s + 1) * length);
      const compressed = await COMPRESS[cname](stream, clevel);
      const bytes = compressed.length > 0 && compressed.length < length ? compressed : stream;
      if (at + 4 + bytes.length > out.length) return stored(src, flags, typesize, blocksize);
      view.setInt32(at, bytes.length, true);
      out.set(bytes, at + 4);
      at += 4 + bytes.length;
    }
  }
  header(flags, typesize, nbytes, blocksize, at, out);
  return out.slice(0, at);
}
