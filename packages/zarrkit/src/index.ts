// zarrkit for every runtime: the core API, every built-in codec, and the
// stores that need no Node built-ins (http(s)://, s3://, idb://, zip archives, the |reference: adapter). The "node"
// entry point adds file:// (here FileSystemStore only throws, so both entries
// export the same names).
import "@zarrkit/codecs";
import "@zarrkit/crc32c";
import "@zarrkit/sharding";
import "@zarrkit/store-fetch";
import "@zarrkit/store-idb";
import "@zarrkit/store-reference";
import "@zarrkit/store-s3";
import "@zarrkit/store-zip";
import { configureCodecWorkers } from "@zarrkit/core";

// Browsers: codec workers run this package's worker entry, which knows every built-in codec. Bundlers emit it from
// this pattern (Vite, webpack); esbuild users build it as an entry of its own (README). Node ignores this.
configureCodecWorkers({
  createWorker: () =>
    new Worker(new URL("./codec-worker.js", import.meta.url), { type: "module", name: "zarrkit codec worker" }),
});

// The public API of @zarrkit/core, by name: its internals stay out of this package's promise.
export {
  type ArrayData,
  type ArrayMetadata,
  type ArrayMetadataV2,
  type ArrayMetadataV2Definition,
  type ArrayOptions,
  type AsZarritaStore,
  AuthError,
  ChecksumError,
  type ChunkEdges,
  type ChunkGrid,
  type ChunkGridMetadata,
  type DimChunking,
  type ChunkKeyEncoding,
  chunkKeyEncoding,
  type ChunkRegion,
  closeCodecWorkers,
  type CodecMetadata,
  type CodecOptions,
  type CodecWebWorker,
  type CodecWorkerDefaults,
  type CodecWorkerOptions,
  type CodecWorkerSetting,
  type CodecWorkerStats,
  codecWorkerStats,
  configureCodecWorkers,
  consolidateMetadata,
  CorruptDataError,
  type CountedStore,
  countRequests,
  createArray,
  type CreateArrayOptions,
  type CreateArrayOptionsV2,
  createGroup,
  type CreateNodeOptions,
  type DataType,
  dataType,
  type DataTypeArrays,
  type DataTypeInfo,
  dataTypeJSON,
  type DataTypeKind,
  type DataTypeName,
  DEFAULT_MAX_DECODED_CHUNK_BYTES,
  type ErrorContext,
  type FindOptions,
  float16BitsToNumber,
  fromZarritaStore,
  type GetOptions,
  type GroupExtras,
  type GroupMetadata,
  type GroupMetadataV2,
  InvalidMetadataError,
  InvalidOptionError,
  InvalidSelectionError,
  isDataOfType,
  isRead,
  isWritable,
  type ListDirResult,
  MemoryStore,
  type NdArray,
  NodeExistsError,
  NotFoundError,
  numberToFloat16Bits,
  type NumericArray,
  numpyDescrOf,
  numpyDtypeOf,
  type NumpyType,
  type ObjectArray,
  open,
  openArray,
  openGroup,
  type OpenOptions,
  openStore,
  type ParsedArrayMetadata,
  parseScalar,
  PreconditionFailedError,
  QuotaExceededError,
  type RangeQuery,
  type ReadOptions,
  type RequestOptions,
  ResponseTooLargeError,
  type Scalar,
  type Selection,
  serializeScalar,
  type SetOptions,
  type SizedValue,
  type Slice,
  slice,
  startCodecWorkers,
  type Store,
  StoreError,
  type StoreRequest,
  StoreTimeoutError,
  structColumns,
  type StructField,
  structFromColumns,
  type StructLayout,
  toZarritaStore,
  UnsupportedError,
  type VersionedValue,
  type WindowQuery,
  withRequestLog,
  type WritableStore,
  type WriteSource,
  ZarrArray,
  ZarrGroup,
  type ZarritaStore,
  ZarrkitError,
  type ZarrNode,
} from "@zarrkit/core";
export {
  describeShard,
  type InnerChunkEntry,
  plannedReads,
  type ShardDescription,
  type ShardingOptions,
  type ShardReadPlan,
} from "@zarrkit/sharding";
export { FetchStore, type FetchStoreOptions } from "@zarrkit/store-fetch";
export { FileSystemStore } from "./file-system-store-elsewhere.js";
export { IdbStore } from "@zarrkit/store-idb";
export {
  openReferenceStore,
  type Reference,
  ReferenceStore,
  type ReferenceStoreOptions,
  type ReferenceTable,
} from "@zarrkit/store-reference";
export { S3Store } from "@zarrkit/store-s3";
export {
  BlobStore,
  ZipStore,
  type ZipStoreOptions,
  type ZipWriteOptions,
  zipBlob,
  zipChunks,
} from "@zarrkit/store-zip";
