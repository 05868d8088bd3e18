/**
 * `@zarrkit/core/internal`: the machinery zarrkit's own packages share (the codec pipeline, chunk walking and copying,
 * chunk grids, metadata parsing, stored values). Unstable: any release may change or remove any of it, so code
 * outside zarrkit's packages uses the main entry point, `@zarrkit/core`, whose API is kept.
 * @packageDocumentation
 */
import "./register.js";

export { forEachConcurrent, settleAll } from "./concurrency.js";
export { blockSlices, copyIntoSelection, copySelection, copyStrided, fillSelection, transposeChunk } from "./copy.js";
export { ConsolidatedView, type NodeSource } from "./consolidated.js";
export { fixedStringType, objectDataType } from "./data-types.js";
export { fillData, isAllFill, sameBytes } from "./fill-value.js";
export { parseChunkGrid, positiveIntegers } from "./grid/chunk-grid.js";
export { parseChunkKeyEncoding } from "./grid/chunk-key-encoding.js";
export {
  parseRectangularChunkGrid,
  parseRectilinearChunkGrid,
  type RectilinearGridName,
  rectilinearChunkGrid,
} from "./grid/rectilinear.js";
export { regularChunkGrid } from "./grid/regular.js";
export { withKeyLock } from "./keyed-lock.js";
export { encodeJson, parseJson, stringifyJson } from "./metadata/json.js";
export { parseArrayMetadata, parseGroupMetadata } from "./metadata/node-metadata.js";
export {
  parseArrayMetadataV2,
  parseFillValueV2,
  parseNumpyDtype,
  serializeFillValueV2,
} from "./metadata/v2.js";
export {
  type ArrayPipelineContext,
  type ArrayToArrayStep,
  CodecChain,
  type CodecChainOptions,
  expansionBound,
  normalizeCodecMetadata,
} from "./codec-chain.js";
export { arrayPipelineContext, type ChunkWriteOptions, CodecPipeline, type StoredPart } from "./pipeline.js";
export {
  cartesian,
  type DimChunkPart,
  dimensionParts,
  dimensionPartsOf,
  type NormalizedSelection,
  normalizeSelection,
  product,
  range,
  sliceCount,
} from "./selection.js";
export { namedMemoryStore } from "./store/memory-store.js";
export { withRangeRead, withScratch } from "./read-buffers.js";
export { bytesValue, storedValue } from "./store/stored-value.js";
