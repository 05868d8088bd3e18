export * from "./codec.js";
export * from "./errors.js";
export * from "./store.js";
export {
  type RegisterCodecOptions,
  registerCodec,
  resolveCodec,
  registeredCodecs,
  isCodecRegistered,
} from "./codec-registry.js";
export { codecWorkerModules, onCodecWorkerModule, registerCodecWorkerModule } from "./codec-worker-modules.js";
export { registerStore, registerPathStore, openStore, registeredStoreSchemes } from "./store-registry.js";
export type { CodecLoader, PathStoreFactory, StoreAdapter, StoreFactory } from "./global-state.js";
export {
  type PipelineSegment,
  type RegisterStoreAdapterOptions,
  parseStorePipeline,
  registerStoreAdapter,
  registeredStoreAdapters,
} from "./store-pipeline.js";
export { checkStoreKey, isWellFormed, keySegmentProblem, storeKeyProblem } from "./keys.js";
export { checkLent, checkRange, checkRangeInto, checkWindow, coalesceGapHint, rangeBounds } from "./ranges.js";
export { rangeReader, registerRangeReader } from "./range-reader.js";
export { normalizeStorePrefix } from "./prefix.js";
export {
  createOptionHook,
  layoutFor,
  registerCreateOption,
  registerLayout,
  unknownOptionError,
} from "./create-options.js";
export { renamedOption } from "./renamed-option.js";
export type {
  CreateOptionHook,
  CreateOptionRequest,
  GridAndCodecs,
  Layout,
  LayoutHook,
  LayoutRequest,
} from "./create-option-hook.js";
export type { ChunkGrid, ChunkGridMetadata, ChunkGridParser, DimChunking } from "./chunk-grid.js";
export { chunkGridParser, registerChunkGrid, registeredChunkGrids } from "./chunk-grid-registry.js";
export { showValue } from "./show.js";
export { configuredSecrets, redactError, redactText, redactUnparsedUrl, redactUrl } from "./redact.js";
