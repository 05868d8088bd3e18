// The zarrkit command line as a library. `convert` and its parts (downsampling, OME-Zarr multiscale metadata, the
// precomputed writer) for programs; `main` runs any command as `zarrkit` would; `resolveUrl` and `verify` are the
// pieces a wrapper needs beyond that.
export {
  type ConvertInput,
  type ConvertOptions,
  type ConvertOutput,
  type ConvertProgress,
  type ConvertResult,
  convert,
  DEFAULT_JOBS,
  DEFAULT_SHARD_BYTES,
  writePrecomputed,
} from "./convert.js";
export { type ConvertSource, precomputedSource, zarrSource } from "./convert-source.js";
export { downsample, downsampledSource, levelShape, type Reduction } from "./downsample.js";
export { ConvertOptionError, type ConvertOptionName, UsageError } from "./errors.js";
export { main } from "./main.js";
export { multiscaleAttributes, type OmeAxis, omeAxes } from "./ome.js";
export { type Output, processOutput } from "./output.js";
export {
  type PrecomputedOptions,
  type PrecomputedPlan,
  type PrecomputedScale,
  type PrecomputedShard,
  planPrecomputed,
  precomputedShardComplete,
  writePrecomputedShard,
} from "./precomputed-target.js";
export type { ProgressMode } from "./progress.js";
export type { SourceCompression } from "./source-compression.js";
export type { SweepReport } from "./temp-files.js";
export { type ResolvedUrl, resolveUrl } from "./url.js";
export { type VerifyProblem, type VerifyReport, verify } from "./commands/verify.js";
