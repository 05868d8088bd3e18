// The Blosc 1 chunk format (c-blosc 1.x, format version 2): a 16-byte
// header, then either the raw data ("memcpyed") or a table of block starts
// followed by the blocks. Each block is one stream, or one stream per byte
// of the type ("split"), each prefixed by its int32 LE compressed size; a
// stream whose size equals its decoded size is stored raw.

export const HEADER_SIZE = 16;
export const FORMAT_VERSION = 2;
export const STREAM_FORMAT_VERSION = 1;
export const MIN_BUFFERSIZE = 128;
export const MAX_TYPESIZE = 255;
const MAX_SPLITS = 16;

export const FLAG_SHUFFLE = 0x01;
export const FLAG_MEMCPYED = 0x02;
export const FLAG_BITSHUFFLE = 0x04;
export const FLAG_FUTURE = 0x08;
export const FLAG_DONT_SPLIT = 0x10;

export const CNAMES = ["lz4", "lz4hc", "blosclz", "zstd", "snappy", "zlib"] as const;
export type Cname = (typeof CNAMES)[number];
export const SHUFFLES = ["noshuffle", "shuffle", "bitshuffle"] as const;
export type Shuffle = (typeof SHUFFLES)[number];

/** The stream format code (header flags bits 5-7) of each compressor; lz4hc writes plain LZ4 streams. */
export const FORMAT_CODE: Readonly<Record<Cname, number>> = {
  blosclz: 0,
  lz4: 1,
  lz4hc: 1,
  snappy: 2,
  zlib: 3,
  zstd: 4,
};
export const FORMAT_NAME = ["blosclz", "lz4", "snappy", "zlib", "zstd"] as const;

/** Whether a block of `blocksize` bytes is split into one stream per byte of the type (c-blosc's rule). */
export function splitsBlock(typesize: number, blocksize: number): boolean {
  return typesize <= MAX_SPLITS && blocksize >= MIN_BUFFERSIZE * typesize;
}
