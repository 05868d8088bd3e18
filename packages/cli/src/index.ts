// The zarrkit command line as a library: the commands and the machinery they share
// (URL resolution, argument parsing, selections, NPY output, shard statistics).
export { COMMON_OPTIONS, type OptionSpec, type ParsedCommand, parseCommand } from "./args.js";
export { getCommand } from "./commands/get.js";
export { arrayReport, infoCommand, positiveInt } from "./commands/info.js";
export { treeCommand } from "./commands/tree.js";
export { UsageError } from "./errors.js";
export { elementText, formatValues } from "./format.js";
export { type Command, COMMANDS, main, report } from "./main.js";
export { type ByteOrder, npyFile, rawBytes } from "./npy.js";
export { type Output, processOutput } from "./output.js";
export { parseSelection } from "./select.js";
export { candidateChunks, gridCoords, innerChunksPerDimension, listedKeys, type ShardStatistics, shardStatistics } from "./shards.js";
export { codecsOf, dataTypeOf, formatName, openSource, type Source, storedByteOrder } from "./source.js";
export { type ResolvedUrl, resolveUrl, s3OptionsFromEnv, writableStore } from "./url.js";
export { cellSelection, sizedStore, type VerifyProblem, type VerifyReport, verify, verifyCommand } from "./commands/verify.js";
export { createProgress, type Progress, type ProgressCounters, type ProgressMode, type ProgressOptions, progressMode } from "./progress.js";
export { CONVERT_HELP, convertCommand } from "./commands/convert.js";
export { type Part, parseBytes, parseCodec, parseShape, resolvePart, shardShapeForBytes } from "./convert-options.js";
