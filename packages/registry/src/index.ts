export * from "./codec.js";
export * from "./errors.js";
export * from "./store.js";
export { registerCodec, resolveCodec, registeredCodecs, isCodecRegistered } from "./codec-registry.js";
export { registerStore, openStore, registeredStoreSchemes } from "./store-registry.js";
export type { CodecLoader, StoreFactory } from "./global-state.js";
export { checkStoreKey, keySegmentProblem, storeKeyProblem } from "./keys.js";
export { coalesceGapHint, rangeBounds } from "./ranges.js";
