import { CorruptDataError } from "@zarrkit/registry";

// The variable-length layout of numcodecs' VLenUTF8 and VLenBytes (and
// zarr-python 3's vlen-utf8 and vlen-bytes): a uint32 LE item count, then per
// item a uint32 LE byte length and that many bytes.

/** Frame items of the given byte lengths; `write` puts item i's bytes at `at`. */
export function encodeFrames(
  lengths: readonly number[],
  write: (i: number, out: Uint8Array, at: number) => void,
): Uint8Array {
  const out = new Uint8Array(lengths.reduce((n, length) => n + 4 + length, 4));
  const view = new DataView(out.buffer);
  view.setUint32(0, lengths.length, true);
  let at = 4;
  lengths.forEach((length, i) => {
    view.setUint32(at, length, true);
    write(i, out, at + 4);
    at += 4 + length;
  });
  return out;
}

/**
 * The `expected` items of a framed chunk, each made by `read` from its bytes
 * (a `read` that throws means the item "is not valid <itemKind>"). Every way
 * the framing can lie is a CorruptDataError naming `key`; the payload is
 * checked against `maxDecodedBytes` before any item is made.
 */
export function decodeFrames<T>(
  bytes: Uint8Array,
  expected: number,
  key: string,
  name: string,
  maxDecodedBytes: number | undefined,
  itemKind: string,
  read: (bytes: Uint8Array, start: number, end: number) => T,
): T[] {
  const corrupt = (why: string, cause?: unknown) =>
    new CorruptDataError(`${name}: cannot decode ${key}: ${why}`, { key, cause });
  if (bytes.length < 4) throw corrupt(`${bytes.length} bytes is too short for the item count`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(0, true);
  if (count !== expected) throw corrupt(`it holds ${count} items where the chunk has ${expected} elements`);
  // Each item needs at least its 4-byte length: bounds the allocation by the buffer, not the header.
  if (count > (bytes.length - 4) / 4) throw corrupt(`${count} items cannot fit in ${bytes.length} bytes`);
  // What well-framed items hold together; checked before any is made.
  const payload = bytes.length - 4 - 4 * count;
  if (maxDecodedBytes !== undefined && payload > maxDecodedBytes) {
    throw corrupt(`its items hold ${payload} bytes, more than the ${maxDecodedBytes} the chunk may decode to`);
  }
  const items = new Array<T>(count);
  let at = 4;
  for (let i = 0; i < count; i++) {
    if (at + 4 > bytes.length) throw corrupt(`item ${i} starts past the end of the data`);
    const length = view.getUint32(at, true);
    at += 4;
    if (length > bytes.length - at)
      throw corrupt(`item ${i} declares ${length} bytes but only ${bytes.length - at} remain`);
    try {
      items[i] = read(bytes, at, at + length);
    } catch (cause) {
      throw corrupt(`item ${i} is not valid ${itemKind}`, cause);
    }
    at += length;
  }
  if (at !== bytes.length) throw corrupt(`${bytes.length - at} bytes follow the last item`);
  return items;
}

export function elementCount(shape: readonly number[]): number {
  return shape.reduce((n, d) => n * d, 1);
}
