import type { FuzzTarget } from "../target.js";
import { metadataTarget } from "./metadata.js";
import { neuroglancerTarget } from "./neuroglancer.js";
import { shardTarget } from "./shard.js";

/** Every target by name, in the order the runner runs them. */
export const TARGETS: Record<string, FuzzTarget<never>> = {
  shard: shardTarget as FuzzTarget<never>,
  metadata: metadataTarget as FuzzTarget<never>,
  neuroglancer: neuroglancerTarget as FuzzTarget<never>,
};
