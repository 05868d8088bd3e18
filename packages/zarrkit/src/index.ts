// zarrkit for every runtime: the core API plus every built-in codec. Stores
// that need Node are added by the "node" entry point.
import "@zarrkit/codecs";
import "@zarrkit/crc32c";
import "@zarrkit/sharding";

export * from "@zarrkit/core";
export { describeShard, type InnerChunkEntry, plannedReads, type ShardDescription, type ShardingOptions, type ShardReadPlan } from "@zarrkit/sharding";
