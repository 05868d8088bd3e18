import { InvalidMetadataError, InvalidSelectionError } from "@zarrkit/registry";

/** Bits per dimension of the compressed Morton code: ceil(log2(gridSize[d])), i.e. bit_width(gridSize[d] - 1). */
export function compressedMortonBits(gridSize: ArrayLike<number>): number[] {
  return Array.from(gridSize, (size) => {
    let bits = 0;
    while (2 ** bits < size) bits++;
    return bits;
  });
}

/**
 * The compressed Morton code of a chunk grid position (relative to the
 * scale's voxel_offset) in a grid of `gridSize` chunks: for bit i from 0 up
 * and each dimension d in order, bit i of position[d] is appended while
 * i < bits[d]. Sharded precomputed images use it as the chunk id; at any rank
 * it is also neuroglancer's annotation spatial-index id.
 */
export function compressedMortonCode(gridPosition: ArrayLike<number>, gridSize: ArrayLike<number>): bigint {
  if (gridPosition.length !== gridSize.length) {
    throw new InvalidSelectionError(`grid position has ${gridPosition.length} dimensions, the grid ${gridSize.length}`);
  }
  const bits = compressedMortonBits(gridSize);
  const total = bits.reduce((a, b) => a + b, 0);
  if (total > 64) {
    throw new InvalidMetadataError(
      `a grid of [${Array.from(gridSize)}] chunks needs ${total} Morton bits, more than 64`,
    );
  }
  // Array.from visits holes (as undefined); an undefined or NaN size fails `g < size` too.
  const position = Array.from(gridPosition, (g, d) => {
    const size = gridSize[d];
    if (!Number.isInteger(g) || g < 0 || size === undefined || !(g < size)) {
      throw new InvalidSelectionError(
        `grid position [${Array.from(gridPosition)}] is outside the grid [${Array.from(gridSize)}] (dimension ${d})`,
      );
    }
    return g;
  });
  // Two 32-bit halves in plain numbers; one BigInt at the end.
  let low = 0;
  let high = 0;
  let j = 0;
  const maxBits = Math.max(0, ...bits);
  for (let i = 0; i < maxBits; i++) {
    const scale = 2 ** i;
    // position and bits both have gridSize.length entries.
    for (let d = 0; d < bits.length; d++) {
      if (i >= bits[d]!) continue;
      if (Math.floor(position[d]! / scale) % 2 === 1) {
        if (j < 32) low += 2 ** j;
        else high += 2 ** (j - 32);
      }
      j++;
    }
  }
  return (BigInt(high) << 32n) | BigInt(low);
}
