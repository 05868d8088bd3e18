// The work of one batch of chunks, the same on a codec worker and on the
// calling thread: decoding stored chunks that lie side by side in one buffer
// into a result, and encoding chunks taken out of a larger array.
import type { Chunk, CodecContext } from "@zarrkit/registry";
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

/** Each part's chunk copied out of `source` and encoded (null: all fill value, left out unless `keepEmpty`). */
export async function encodeParts(
  chain: CodecChain,
  source: Chunk,
  parts: readonly SourcePart[],
  keepEmpty: boolean,
  ctx: CodecContext,
): Promise<(Uint8Array | null)[]> {
  const type = chain.dataType;
  const shape = [...chain.spec.shape];
  const whole = blockSlices(
    shape.map(() => 0),
    shape,
  );
  const outputs: (Uint8Array | null)[] = [];
  // One chunk serves every part whose encoding does not keep it (a fresh buffer per part costs page faults).
  let chunk: Chunk | undefined;
  for (const part of parts) {
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
