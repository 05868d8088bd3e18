import type { FuzzTarget } from "../target.js";
import { bz2LzmaTarget } from "./bz2-lzma.js";
import { metadataTarget } from "./metadata.js";
import { neuroglancerTarget } from "./neuroglancer.js";
import { shardTarget } from "./shard.js";
import { zipTarget } from "./zip.js";
import { xmlTarget } from "./xml.js";
import { zstdTarget } from "./zstd.js";

/** Every target by name, in the order the runner runs them. */
export const TARGETS: Record<string, FuzzTarget<never>> = {
  shard: shardTarget as FuzzTarget<never>,
  metadata: metadataTarget as FuzzTarget<never>,
  neuroglancer: neuroglancerTarget as FuzzTarget<never>,
  zstd: zstdTarget as FuzzTarget<never>,
  "bz2-lzma": bz2LzmaTarget as FuzzTarget<never>,
  zip: zipTarget as FuzzTarget<never>,
  xml: xmlTarget as FuzzTarget<never>,
};

/** The target called `name`; an unknown name is an error that lists the targets. */
export function getTarget(name: string): FuzzTarget<never> {
  const target = TARGETS[name];
  if (!target) throw new Error(`unknown target ${name}; targets: ${Object.keys(TARGETS).join(", ")}`);
  return target;
}
