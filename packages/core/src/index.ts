import "./register.js";

export * from "@zarrkit/registry";
export { type ArrayOptions, type ChunkRegion, type GetOptions, type NdArray, ZarrArray } from "./array.js";
export { forEachConcurrent, settleAll } from "./concurrency.js";
export { blockSlices, copyIntoSelection, copySelection, copyStrided, fillSelection, transposeChunk } from "./copy.js";
export type { CreateArrayOptions } from "./create-options.js";
export { ConsolidatedView, type NodeSource } from "./consolidated.js";
export type { DataTypeArrays, DataTypeName } from "./data-type-arrays.js";
export { type DataType, dataType, dataTypeJSON, fixedStringType, isDataOfType, objectDataType } from "./data-types.js";
export { fillData, isAllFill, parseScalar, serializeScalar } from "./fill-value.js";
export { type StructField, type StructLayout, structColumns, structFromColumns } from "./struct-type.js";
export { float16BitsToNumber, numberToFloat16Bits } from "./float16.js";
export { parseChunkGrid, positiveIntegers } from "./grid/chunk-grid.js";
export { type ChunkKeyEncoding, chunkKeyEncoding, parseChunkKeyEncoding } from "./grid/chunk-key-encoding.js";
export {
  type ChunkEdges,
  parseRectangularChunkGrid,
  parseRectilinearChunkGrid,
  type RectilinearGridName,
  rectilinearChunkGrid,
} from "./grid/rectilinear.js";
export { regularChunkGrid } from "./grid/regular.js";
export { type GroupExtras, ZarrGroup } from "./group.js";
export {
  type ArrayMetadataV2Definition,
  consolidateMetadata,
  type CreateNodeOptions,
  createArray,
  type FindOptions,
  type OpenOptions,
  createGroup,
  open,
  openArray,
  openGroup,
  type ZarrNode,
} from "./hierarchy.js";
export { withKeyLock } from "./keyed-lock.js";
export { encodeJson, parseJson, stringifyJson } from "./metadata/json.js";
export {
  type ArrayMetadata,
  type ArrayMetadataV2,
  type GroupMetadata,
  type GroupMetadataV2,
  type ParsedArrayMetadata,
  parseArrayMetadata,
  parseGroupMetadata,
} from "./metadata/node-metadata.js";
export {
  type CreateArrayOptionsV2,
  type NumpyType,
  numpyDescrOf,
  numpyDtypeOf,
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
  DEFAULT_MAX_DECODED_CHUNK_BYTES,
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
  type Selection,
  type Slice,
  slice,
  sliceCount,
} from "./selection.js";
export { MemoryStore, namedMemoryStore } from "./store/memory-store.js";
export { type CountedStore, countRequests, isRead, type StoreRequest, withRequestLog } from "./store/request-log.js";
export { withRangeRead } from "./read-buffers.js";
export { bytesValue, storedValue } from "./store/stored-value.js";
export { type AsZarritaStore, fromZarritaStore, toZarritaStore, type ZarritaStore } from "./store/zarrita-adapter.js";
export { type CodecWorkerStats, closeCodecWorkers, codecWorkerStats, startCodecWorkers } from "./workers/pool.js";
export {
  type CodecWebWorker,
  type CodecWorkerDefaults,
  type CodecWorkerOptions,
  type CodecWorkerSetting,
  configureCodecWorkers,
} from "./workers/settings.js";
