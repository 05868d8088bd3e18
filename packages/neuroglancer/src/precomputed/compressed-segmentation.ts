import { CorruptDataError } from "@zarrkit/registry";
import type { Vec3 } from "./info.js";

const VALID_BITS = new Set([0, 1, 2, 4, 8, 16, 32]);

/**
 * Decode one chunk of neuroglancer's compressed_segmentation encoding into
 * little-endian voxel bytes ([channel][z][y][x], x fastest). The chunk starts
 * with one uint32 offset per channel; each channel holds a grid of 64-bit
 * block headers (24-bit lookup-table offset, 8-bit bit width, 32-bit values
 * offset; offsets in words from the channel start), the bit-packed per-voxel
 * table indices of every block and the tables of uint32 or uint64 values.
 * Every offset is bounds-checked, so corrupt data raises instead of reading
 * garbage.
 */
export function decodeCompressedSegmentation(
  bytes: Uint8Array,
  shape: Vec3,
  numChannels: number,
  blockSize: Vec3,
  dataType: "uint32" | "uint64",
  key: string,
): Uint8Array {
  const corrupt = (why: string) => new CorruptDataError(`compressed_segmentation chunk ${key}: ${why}`, { key });
  if (bytes.length % 4 !== 0) throw corrupt(`length ${bytes.length} is not a multiple of 4`);
  const words =
    bytes.byteOffset % 4 === 0
      ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4)
      : new Uint32Array(bytes.slice().buffer);
  const width = dataType === "uint64" ? 2 : 1;
  const [sx, sy, sz] = shape;
  const [bx, by, bz] = blockSize;
  const voxels = sx * sy * sz;
  const [gridX, gridY, gridZ] = [Math.ceil(sx / bx), Math.ceil(sy / by), Math.ceil(sz / bz)];
  // Every channel needs its offset and two header words per block: check before allocating the output.
  const headerWords = numChannels * (1 + 2 * gridX * gridY * gridZ);
  if (words.length < headerWords) {
    throw corrupt(
      `${words.length} words is too short for the offsets and block headers of ${numChannels} channel(s) ` +
        `(${headerWords})`,
    );
  }
  const out = new Uint32Array(voxels * numChannels * width);

  for (let c = 0; c < numChannels; c++) {
    // c < numChannels <= headerWords <= words.length, checked above.
    const base = words[c]!;
    let header = base;
    for (let gz = 0; gz < gridZ; gz++) {
      for (let gy = 0; gy < gridY; gy++) {
        for (let gx = 0; gx < gridX; gx++, header += 2) {
          if (header + 2 > words.length) throw corrupt(`block header at word ${header} is past the end`);
          const first = words[header]!;
          const table = base + (first & 0xffffff);
          const bits = first >>> 24;
          const values = base + words[header + 1]!;
          if (!VALID_BITS.has(bits)) throw corrupt(`block encoded with ${bits} bits`);
          if (values + Math.ceil((bx * by * bz * bits) / 32) > words.length) {
            throw corrupt(`values of block (${gx}, ${gy}, ${gz}) run past the end`);
          }
          const mask = bits === 32 ? 0xffffffff : (1 << bits) - 1;
          const x0 = gx * bx;
          const y0 = gy * by;
          const z0 = gz * bz;
          for (let z = z0; z < Math.min(z0 + bz, sz); z++) {
            for (let y = y0; y < Math.min(y0 + by, sy); y++) {
              for (let x = x0; x < Math.min(x0 + bx, sx); x++) {
                // Indices are packed over the full block, even where it overhangs the chunk;
                // the check of `values` above keeps every word of them in range.
                const bit = (x - x0 + bx * (y - y0 + by * (z - z0))) * bits;
                const index = bits === 0 ? 0 : ((words[values + (bit >>> 5)]! >>> (bit & 31)) & mask) >>> 0;
                const entry = table + index * width;
                if (entry + width > words.length)
                  throw corrupt(`table entry ${index} at word ${entry} is past the end`);
                const at = (c * voxels + x + sx * (y + sy * z)) * width;
                out[at] = words[entry]!;
                if (width === 2) out[at + 1] = words[entry + 1]!;
              }
            }
          }
        }
      }
    }
  }
  return new Uint8Array(out.buffer);
}
