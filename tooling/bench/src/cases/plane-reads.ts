import { checkBox } from "../check.js";
import { contest } from "../contest.js";
import { form } from "../forms.js";
import { type Box, READ_PEERS } from "../peers.js";
import { readContender } from "../read-contender.js";
import type { CaseResult } from "../results.js";
import type { Source } from "../sources.js";
import type { SuiteContext } from "../suite-context.js";

/** The z index of the plane: inside a shard and inside an inner chunk, away from every edge. */
export function planeZ(size: number): number {
  return Math.floor((size * 3) / 8) + 5;
}

/** Case 4 (and 5): one z-plane across the sharded volume, on a fresh array (indexes not cached). */
export async function planeReads(ctx: SuiteContext, source: Source): Promise<CaseResult> {
  const { profile, content } = ctx;
  const sharded = form("sharded");
  const z = planeZ(profile.size);
  const box: Box = { start: [z, 0, 0], stop: [z + 1, profile.size, profile.size] };
  const shards = (profile.size / profile.shard) ** 2;
  const contenders = READ_PEERS.map((peer) =>
    readContender(peer, source, sharded.path, async (reader, checking) => {
      const data = await reader.read(box);
      if (checking) checkBox(content, data, box, `${peer.name} z-plane`);
    }),
  );
  const spec = {
    id: `plane/${source.kind}`,
    group: 4,
    title: `z-plane ${z} across the sharded volume (${shards} shards touched)`,
    source: source.kind,
    form: sharded.name,
  } as const;
  return contest(spec, contenders, profile, ctx.log);
}
