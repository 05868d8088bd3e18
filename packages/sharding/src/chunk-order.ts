/**
 * Orders of inner chunks within a shard, as linear C-order indices. Morton
 * (Z-order) keeps spatial neighbours close in the file; for grids that are not
 * powers of two, dimensions drop out of the interleaving once their bits are
 * used up, as zarr-python does.
 */
const cache = new Map<string, Uint32Array>();

export function chunkOrder(gridShape: readonly number[], order: "morton" | "c"): Uint32Array {
  const id = `${order}:${gridShape.join(",")}`;
  let result = cache.get(id);
  if (!result) {
    result = order === "c" ? cOrder(gridShape) : mortonOrder(gridShape);
    cache.set(id, result);
  }
  return result;
}

function cOrder(gridShape: readonly number[]): Uint32Array {
  const n = gridShape.reduce((a, b) => a * b, 1);
  return Uint32Array.from({ length: n }, (_, i) => i);
}

function mortonOrder(gridShape: readonly number[]): Uint32Array {
  const rank = gridShape.length;
  const n = gridShape.reduce((a, b) => a * b, 1);
  const bits = gridShape.map((s) => Math.ceil(Math.log2(Math.max(1, s))));
  const maxBits = Math.max(0, ...bits);
  const strides = new Array<number>(rank);
  let stride = 1;
  for (let d = rank - 1; d >= 0; d--) {
    strides[d] = stride;
    stride *= gridShape[d]!;
  }
  const keys = new Array<bigint>(n);
  const coords = new Array<number>(rank).fill(0);
  for (let linear = 0; linear < n; linear++) {
    let rest = linear;
    for (let d = 0; d < rank; d++) {
      coords[d] = Math.floor(rest / strides[d]!);
      rest -= coords[d]! * strides[d]!;
    }
    let key = 0n;
    let keyBit = 0n;
    for (let bit = 0; bit < maxBits; bit++) {
      for (let d = 0; d < rank; d++) {
        if (bit >= bits[d]!) continue;
        if ((coords[d]! >> bit) & 1) key |= 1n << keyBit;
        keyBit++;
      }
    }
    keys[linear] = key;
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) =>
    keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0,
  );
  return Uint32Array.from(order);
}
