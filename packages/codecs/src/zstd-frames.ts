// Walks the frames of a zstd stream (RFC 8878) to learn the decoded size
// before decoding, so the output can be allocated once at its exact size.

const FRAME_MAGIC = 0xfd2fb528;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
const DICTIONARY_ID_BYTES = [0, 1, 2, 4];
const BLOCK_RLE = 1;
const BLOCK_RESERVED = 3;

/**
 * The total decoded size of every frame in `data`, or undefined when a frame
 * does not declare its content size (streamed frames) or the stream is
 * malformed; the decoder then finds out, and reports corruption itself.
 */
export function declaredContentSize(data: Uint8Array): number | undefined {
  if (data.length === 0) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let pos = 0;
  let total = 0;
  while (pos < data.length) {
    if (pos + 4 > data.length) return undefined;
    const magic = view.getUint32(pos, true);
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      if (pos + 8 > data.length) return undefined;
      pos += 8 + view.getUint32(pos + 4, true);
      continue;
    }
    if (magic !== FRAME_MAGIC) return undefined;
    const frame = frameHeader(view, pos + 4);
    if (!frame || frame.contentSize === undefined) return undefined;
    const end = skipBlocks(view, frame.blocksStart);
    if (end === undefined) return undefined;
    pos = end + (frame.checksum ? 4 : 0);
    total += frame.contentSize;
  }
  return pos === data.length ? total : undefined;
}

function frameHeader(
  view: DataView,
  at: number,
): { contentSize: number | undefined; checksum: boolean; blocksStart: number } | undefined {
  if (at >= view.byteLength) return undefined;
  const descriptor = view.getUint8(at);
  const sizeFlag = descriptor >> 6;
  const singleSegment = (descriptor & 0x20) !== 0;
  const checksum = (descriptor & 0x04) !== 0;
  const sizeBytes = sizeFlag === 0 ? (singleSegment ? 1 : 0) : 1 << sizeFlag;
  const sizeAt = at + 1 + (singleSegment ? 0 : 1) + DICTIONARY_ID_BYTES[descriptor & 0x03]!;
  const blocksStart = sizeAt + sizeBytes;
  if (blocksStart > view.byteLength) return undefined;
  let contentSize: number | undefined;
  if (sizeBytes === 1) contentSize = view.getUint8(sizeAt);
  else if (sizeBytes === 2) contentSize = view.getUint16(sizeAt, true) + 256;
  else if (sizeBytes === 4) contentSize = view.getUint32(sizeAt, true);
  else if (sizeBytes === 8) {
    const size = view.getBigUint64(sizeAt, true);
    contentSize = size <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(size) : undefined;
  }
  return { contentSize, checksum, blocksStart };
}

/** The offset just past the last block of a frame, or undefined when the blocks run past the data. */
function skipBlocks(view: DataView, at: number): number | undefined {
  let pos = at;
  for (;;) {
    if (pos + 3 > view.byteLength) return undefined;
    const header = view.getUint8(pos) | (view.getUint8(pos + 1) << 8) | (view.getUint8(pos + 2) << 16);
    const type = (header >> 1) & 0x03;
    if (type === BLOCK_RESERVED) return undefined;
    // An RLE block stores one byte; raw and compressed blocks store their size.
    pos += 3 + (type === BLOCK_RLE ? 1 : header >>> 3);
    if (pos > view.byteLength) return undefined;
    if (header & 1) return pos;
  }
}
