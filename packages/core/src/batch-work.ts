// The work of one batch of chunks, the same on a codec worker and on the
// calling thread: decoding stored chunks that lie side by side in one buffer
// into a result, and encoding chunks taken out of a larger array.
import type { Chunk, CodecContext, NumericArray } from "@zarrkit/registry";
import type { CodecChain } from "./codec-chain.js";
import { blockSlices, copyIntoSelection } from "./copy.js";
import { isAllFill } from "./fill-value.js";
import { product } from "./selection.js";
import type { SourcePart, StoredPart } from "./workers/protocol.js";

/** Decode each part (its stored bytes inside `bytes`) into its place in `out`. */
export async function decodeParts(
  chain: CodecChain,
  bytes: Uint8Array,
  parts: readonly StoredPart[],
  out: Chunk,
  ctx: CodecContext,
): Promise<void> {
  for (const part of parts) {
    const stored = bytes.subarray(part.offset, part.offset + part.length);
    await chain.decodeRegion(stored, { ...ctx, key: part.key }, part.selection, { chunk: out, offset: part.outOffset });
  }
}

/**
 * Each part's chunk copied out of `source` and encoded (null: all fill value, left out unless `keepEmpty`). With
 * `room`, part i is laid out in its i-th slot of `room` (see `chunkSlot`), so an encoding that views its chunk (the
 * `bytes` codec's) is a view of `room`, valid as long as the caller keeps `room`.
 */
export async function encodeParts(
  chain: CodecChain,
  source: Chunk,
  parts: readonly SourcePart[],
  keepEmpty: boolean,
  ctx: CodecContext,
  room?: Uint8Array,
): Promise<(Uint8Array | null)[]> {
  const type = chain.dataType;
  const shape = [...chain.spec.shape];
  const whole = blockSlices(
    shape.map(() => 0),
    shape,
  );
  const outputs: (Uint8Array | null)[] = [];
  const slot = room ? chunkSlot(chain) : undefined;
  // Without room, one chunk serves every part whose encoding does not keep it (a fresh buffer per part costs page
  // faults).
  let chunk: Chunk | undefined;
  for (const [i, part] of parts.entries()) {
    if (slot) chunk = { data: slot.view(room!, i), shape };
    chunk ??= { data: type.allocate(product(shape)), shape };
    copyIntoSelection({ chunk: source, offset: part.offset }, chunk, whole, type);
    if (!keepEmpty && isAllFill(chunk.data, chain.spec.fillValue, type)) {
      outputs.push(null);
      continue;
    }
    const bytes = await chain.encode(chunk, { ...ctx, key: part.key });
    if (bytes.buffer === (chunk.data as ArrayBufferView).buffer) chunk = undefined;
    outputs.push(bytes);
  }
  return outputs;
}

/** A chunk's slot in a byte buffer: its size, and its elements as the data type's array over slot i of a buffer. */
export interface ChunkSlot {
  bytes: number;
  view(buffer: Uint8Array, i: number): NumericArray;
}

/** The slot of one chunk of `chain` held in memory; undefined for data types held in JS arrays. */
export function chunkSlot(chain: CodecChain): ChunkSlot | undefined {
  const arrayType = chain.dataType.arrayType;
  if (!arrayType) return undefined;
  const ArrayType = arrayType as new (buffer: ArrayBufferLike, offset: number, length: number) => NumericArray;
  const slots = product(chain.spec.shape) * chain.dataType.lanes;
  const bytes = slots * arrayType.BYTES_PER_ELEMENT;
  return {
    bytes,
    view: (buffer, i) => new ArrayType(buffer.buffer, buffer.byteOffset + i * bytes, slots),
  };
}
