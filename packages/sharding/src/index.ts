import "@zarrkit/crc32c"; // the default index codecs end in crc32c
import { registerCodec } from "@zarrkit/registry";
import "./create-options.js";

// The codec itself loads on first use of a sharded array.
registerCodec("sharding_indexed", () => import("./sharding-codec.js").then((m) => m.shardingCodecFactory));

export { describeShard, type InnerChunkEntry, plannedReads, type ShardDescription } from "./introspection.js";
export { DEFAULT_INDEX_CODECS } from "./create-options.js";
export type { ShardingOptions } from "./options.js";
export {
  packedShardByteSize,
  type ShardingConfiguration,
  shardIndexByteSize,
  shardingConfiguration,
} from "./shard-size.js";
export type { ShardReadPlan } from "./sharding-codec.js";
