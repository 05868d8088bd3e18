/**
 * Copies between a cubic array of edge `size` (C order) and a cubic block of edge `edge` at `origin`, row by row with
 * `set`.
 */

export function copyBlockInto(
  out: Uint16Array,
  size: number,
  block: Uint16Array,
  edge: number,
  origin: readonly number[],
): void {
  const [z0, y0, x0] = origin as [number, number, number];
  for (let z = 0; z < edge; z++) {
    for (let y = 0; y < edge; y++) {
      const from = (z * edge + y) * edge;
      out.set(block.subarray(from, from + edge), ((z0 + z) * size + y0 + y) * size + x0);
    }
  }
}

export function gatherBlock(source: Uint16Array, size: number, edge: number, origin: readonly number[]): Uint16Array {
  const [z0, y0, x0] = origin as [number, number, number];
  const block = new Uint16Array(edge ** 3);
  for (let z = 0; z < edge; z++) {
    for (let y = 0; y < edge; y++) {
      const from = ((z0 + z) * size + y0 + y) * size + x0;
      block.set(source.subarray(from, from + edge), (z * edge + y) * edge);
    }
  }
  return block;
}

/** Little-endian uint16 elements of `bytes` (copied only when misaligned). */
export function uint16View(bytes: Uint8Array): Uint16Array {
  const aligned = bytes.byteOffset % 2 === 0 ? bytes : bytes.slice();
  return new Uint16Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 2);
}

/** Origins of the blocks of edge `edge` tiling a cube of edge `size`, in C order. */
export function* blockOrigins(size: number, edge: number): Generator<[number, number, number]> {
  for (let z = 0; z < size; z += edge)
    for (let y = 0; y < size; y += edge) for (let x = 0; x < size; x += edge) yield [z, y, x];
}
