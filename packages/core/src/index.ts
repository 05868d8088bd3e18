// The public API of @zarrkit/core: arrays and groups, opening and creating them, data types, selections, stores,
// errors and codec worker settings. What only zarrkit's own packages use is in ./internal.ts
// (`@zarrkit/core/internal`).
import "./register.js";

export {
  AuthError,
  type ArrayData,
  ChecksumError,
  type CodecMetadata,
  type CodecOptions,
  CorruptDataError,
  type DataTypeInfo,
  type DataTypeKind,
  type ErrorContext,
  type ChunkGrid,
  type ChunkGridMetadata,
  type DimChunking,
  InvalidMetadataError,
  InvalidOptionError,
  InvalidSelectionError,
  isWritable,
  type ListDirResult,
  NodeExistsError,
  NotFoundError,
  type NumericArray,
  type ObjectArray,
  openStore,
  PreconditionFailedError,
  QuotaExceededError,
  type RangeQuery,
  type ReadOptions,
  type RequestOptions,
  ResponseTooLargeError,
  type Scalar,
  type SetOptions,
  type SizedValue,
  type Store,
  StoreError,
  StoreTimeoutError,
  UnsupportedError,
  type VersionedValue,
  type WindowQuery,
  type WritableStore,
  type WriteSource,
  ZarrkitError,
} from "@zarrkit/registry";
export { type ArrayOptions, type ChunkRegion, type GetOptions, type NdArray, ZarrArray } from "./array.js";
export type { ArrayMetadataV2Definition, CreateArrayOptions, CreateArrayOptionsV2 } from "./create-options.js";
export { consolidateMetadata } from "./consolidated.js";
export type { DataTypeArrays, DataTypeName } from "./data-type-arrays.js";
export { type DataType, dataType, dataTypeJSON, isDataOfType } from "./data-types.js";
export { parseScalar, serializeScalar } from "./fill-value.js";
export { type StructField, type StructLayout, structColumns, structFromColumns } from "./struct-type.js";
export { float16BitsToNumber, numberToFloat16Bits } from "./float16.js";
export { type ChunkKeyEncoding, chunkKeyEncoding } from "./grid/chunk-key-encoding.js";
export type { ChunkEdges } from "./grid/rectilinear.js";
export { type GroupExtras, ZarrGroup } from "./group.js";
export {
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
export type { ArrayMetadata, ArrayMetadataV2, GroupMetadata, GroupMetadataV2 } from "./metadata/documents.js";
export type { ParsedArrayMetadata } from "./metadata/node-metadata.js";
export { type NumpyType, numpyDescrOf, numpyDtypeOf } from "./metadata/v2.js";
export { DEFAULT_MAX_DECODED_CHUNK_BYTES } from "./codec-chain.js";
export { type Selection, type Slice, slice } from "./selection.js";
export { MemoryStore } from "./store/memory-store.js";
export { type CountedStore, countRequests, isRead, type StoreRequest, withRequestLog } from "./store/request-log.js";
export { type AsZarritaStore, fromZarritaStore, toZarritaStore, type ZarritaStore } from "./store/zarrita-adapter.js";
export { type CodecWorkerStats, closeCodecWorkers, codecWorkerStats, startCodecWorkers } from "./workers/pool.js";
export type { CodecWebWorker } from "./workers/protocol.js";
export {
  type CodecWorkerDefaults,
  type CodecWorkerOptions,
  type CodecWorkerSetting,
  configureCodecWorkers,
} from "./workers/settings.js";
