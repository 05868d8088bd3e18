import { UnsupportedError } from "@zarrkit/registry";
import { tooLarge } from "../limits.js";
import { zstdDecompressLent } from "../zstd/decode.js";
import { blosclzDecompress } from "./blosclz.js";
import {
  FLAG_BITSHUFFLE,
  FLAG_DONT_SPLIT,
  FLAG_FUTURE,
  FLAG_MEMCPYED,
  FLAG_SHUFFLE,
  FORMAT_NAME,
  FORMAT_VERSION,
  HEADER_SIZE,
  STREAM_FORMAT_VERSION,
  splitsBlock,
} from "./format.js";
import { bitShuffle, byteShuffle } from "./shuffle.js";
import { snappyDecompress } from "./snappy.js";
import { bloscWasmDecompress } from "./wasm-decode.js";

/** Fills `dst` exactly from one compressed stream, or throws. */
type StreamDecoder = (src: Uint8Array, dst: Uint8Array) => void | Promise<void>;

function exactly(dst: Uint8Array, decoded: Uint8Array, name: string): void {
  if (decoded.length !== dst.length)
    throw new Error(`${name}: decoded ${decoded.length} bytes where ${dst.length} were expected`);
  dst.set(decoded);
}

/**
 * The stream decoders in TypeScript, by format code. LZ4 chunks (format 1,
 * lz4 and lz4hc) go to c-blosc's wasm instead, which decodes them 2.5-5x
 * faster; BloscLZ gains less than 2x on shuffled data and stays here.
 */
const DECODERS: Readonly<Record<number, StreamDecoder>> = {
  0: blosclzDecompress,
  2: snappyDecompress,
  // A stream decodes to exactly its part of the block: that is the cap its decoder stops at.
  3: async (src, dst) => exactly(dst, await (await import("#deflate")).zlibDecode(src, dst.length), "zlib"),
  // Copied from the decoder's memory straight into the block: no buffer per stream.
  4: (src, dst) => zstdDecompressLent(src, dst.length, (decoded) => exactly(dst, decoded, "zstd")),
};
const LZ4_FORMAT = 1;

// The most bytes one compressed byte can stand for in each stream format
// (LZ4/BloscLZ length bytes, Snappy copies, deflate, zstd RLE blocks): a
// header claiming more is corrupt and must not size an allocation.
const MAX_RATIO = [256, 256, 32, 1032, 32768];

interface Stream {
  /** Where the stream's bytes are in the chunk. */
  start: number;
  end: number;
  /** Where its decoded bytes go in the block. */
  offset: number;
  length: number;
}

interface Block {
  offset: number;
  size: number;
  streams: Stream[];
}

function int32le(src: Uint8Array, at: number): number {
  return src[at]! | (src[at + 1]! << 8) | (src[at + 2]! << 16) | (src[at + 3]! << 24);
}

/** Every block and stream of a compressed (not memcpyed) chunk, bounds-checked before anything is allocated. */
function layout(
  src: Uint8Array,
  cbytes: number,
  nbytes: number,
  blocksize: number,
  typesize: number,
  flags: number,
): Block[] {
  const nblocks = Math.ceil(nbytes / blocksize);
  const tableEnd = HEADER_SIZE + 4 * nblocks;
  if (tableEnd > cbytes) throw new Error(`the table of ${nblocks} block starts does not fit in ${cbytes} bytes`);
  const maxRatio = MAX_RATIO[flags >> 5]!;
  const blocks: Block[] = [];
  for (let b = 0; b < nblocks; b++) {
    const offset = b * blocksize;
    const size = Math.min(blocksize, nbytes - offset);
    const split = !(flags & FLAG_DONT_SPLIT) && size === blocksize && splitsBlock(typesize, blocksize);
    const count = split ? typesize : 1;
    if (split && size % typesize !== 0)
      throw new Error(`block size ${size} is not a multiple of the type size ${typesize}`);
    const length = size / count;
    let at = int32le(src, HEADER_SIZE + 4 * b);
    const streams: Stream[] = [];
    for (let s = 0; s < count; s++) {
      if (at < tableEnd || at > cbytes - 4) throw new Error(`stream ${s} of block ${b} starts outside the chunk`);
      const csize = int32le(src, at);
      at += 4;
      if (csize < 0 || csize > cbytes - at) throw new Error(`stream ${s} of block ${b} overruns the chunk`);
      if (csize !== length && length > csize * maxRatio + 64) {
        throw new Error(`stream ${s} of block ${b} claims ${length} bytes from only ${csize}`);
      }
      streams.push({ start: at, end: at + csize, offset: s * length, length });
      at += csize;
    }
    blocks.push({ offset, size, streams });
  }
  return blocks;
}

/**
 * Decode a Blosc 1 chunk; Errors for corrupt input, UnsupportedError for
 * valid chunks this reader cannot handle. A header declaring more than
 * `maxBytes` is refused before anything is allocated.
 */
export async function bloscDecompress(src: Uint8Array, maxBytes?: number): Promise<Uint8Array> {
  if (src.length < HEADER_SIZE) throw new Error(`${src.length} bytes is too short for a blosc header`);
  const [version, streamVersion, flags, typesize] = src as unknown as [number, number, number, number];
  const nbytes = int32le(src, 4);
  const blocksize = int32le(src, 8);
  const cbytes = int32le(src, 12);
  if (version !== FORMAT_VERSION) {
    if (version > FORMAT_VERSION && version <= 5) {
      throw new UnsupportedError(
        `blosc format version ${version} (a Blosc2 chunk) is not supported; only Blosc 1 chunks are`,
      );
    }
    throw new Error(`unknown blosc format version ${version}`);
  }
  // Bytes past cbytes are ignored, as c-blosc does; fewer means truncation.
  if (cbytes < HEADER_SIZE || cbytes > src.length) {
    throw new Error(`the header declares ${cbytes} bytes but the chunk has ${src.length}`);
  }
  if (nbytes < 0) throw new Error(`negative decoded size ${nbytes}`);
  if (maxBytes !== undefined && nbytes > maxBytes) throw tooLarge("blosc", maxBytes, `the header declares ${nbytes}`);
  if (nbytes === 0) return new Uint8Array(0);
  if (flags & FLAG_FUTURE) throw new UnsupportedError("the chunk uses blosc header flags newer than Blosc 1");
  if (typesize === 0 || blocksize <= 0 || blocksize > nbytes)
    throw new Error(`bad header (typesize ${typesize}, blocksize ${blocksize})`);
  if (flags & FLAG_MEMCPYED) {
    if (cbytes !== nbytes + HEADER_SIZE)
      throw new Error(`a stored chunk of ${nbytes} bytes must be ${nbytes + HEADER_SIZE} bytes, not ${cbytes}`);
    return src.slice(HEADER_SIZE, cbytes);
  }
  const format = flags >> 5;
  const decode = DECODERS[format];
  if (!decode && format !== LZ4_FORMAT) throw new UnsupportedError(`unknown blosc compressor format ${format}`);
  if (streamVersion !== STREAM_FORMAT_VERSION) {
    throw new UnsupportedError(`${FORMAT_NAME[format]} stream format version ${streamVersion} is not supported`);
  }
  const blocks = layout(src, cbytes, nbytes, blocksize, typesize, flags);
  if (!decode) return bloscWasmDecompress(src.subarray(0, cbytes), nbytes);
  return decodeBlocks(src, blocks, nbytes, blocksize, typesize, flags, decode);
}

/** Each block's streams, then its unshuffle. */
async function decodeBlocks(
  src: Uint8Array,
  blocks: readonly Block[],
  nbytes: number,
  blocksize: number,
  typesize: number,
  flags: number,
  decode: StreamDecoder,
): Promise<Uint8Array> {
  const out = new Uint8Array(nbytes);
  const shuffle = flags & FLAG_SHUFFLE && typesize > 1 ? byteShuffle : flags & FLAG_BITSHUFFLE ? bitShuffle : undefined;
  const scratch = shuffle ? new Uint8Array(blocksize) : undefined;
  for (const block of blocks) {
    const target = out.subarray(block.offset, block.offset + block.size);
    // Bitshuffle only applies to blocks of at least one element.
    const unshuffle = shuffle === bitShuffle && block.size < typesize ? undefined : shuffle;
    const streamsInto = unshuffle ? scratch!.subarray(0, block.size) : target;
    for (const stream of block.streams) {
      const dst = streamsInto.subarray(stream.offset, stream.offset + stream.length);
      const bytes = src.subarray(stream.start, stream.end);
      if (bytes.length === stream.length) dst.set(bytes);
      else await decode(bytes, dst);
    }
    unshuffle?.(streamsInto, target, typesize, true);
  }
  return out;
}
