import { join } from "node:path";
import * as zk from "zarrkit";
import { blockOrigins } from "../blocks.js";
import { checkBox, wholeBox } from "../check.js";
import { type Contender, contest } from "../contest.js";
import { form } from "../forms.js";
import { type Box, READ_PEERS, type Reader } from "../peers.js";
import { prng } from "@zarrkit/test-utils/noise";
import { readContender } from "../read-contender.js";
import type { CaseResult } from "../results.js";
import type { Source } from "../sources.js";
import type { SuiteContext } from "../suite-context.js";
import { runningChild, tensorstoreReads } from "../tensorstore/contenders.js";

/**
 * Case 3 (and 5): `randomChunks` inner chunks of the sharded form, picked
 * with a fixed seed, each read by its own call, `concurrency` at a time.
 * Cold: every read on a fresh array object, so no shard index is cached
 * (metadata already in hand, so no zarr.json request). Warm: one array
 * whose index cache was filled, untimed, by one read per shard. tensorstore
 * (locally, warm only) reads the same boxes one by one after the same untimed
 * reads, on an array opened afresh each run with its default context (no
 * chunk cache: it reads each shard's index again).
 */
export async function randomReads(ctx: SuiteContext, source: Source, concurrency: number): Promise<CaseResult[]> {
  const { profile, content } = ctx;
  const sharded = form("sharded");
  const edge = profile.inner;
  const all = [...blockOrigins(profile.size, edge)];
  const random = prng(7);
  const boxes: Box[] = Array.from({ length: profile.randomChunks }, () => {
    const origin = all[Math.floor(random() * all.length)]!;
    return { start: origin, stop: origin.map((s) => s + edge) };
  });
  const oneInnerChunkPerShard: Box[] = [...blockOrigins(profile.size, profile.shard)].map((o) => ({ start: o, stop: o.map((s) => s + edge) }));
  const readAll = (reader: Reader | undefined, fresh: () => Promise<Reader>, checking: boolean, what: string) =>
    zk.forEachConcurrent(boxes, concurrency, async (box) => {
      const data = await (reader ?? (await fresh())).read(box);
      if (checking) checkBox(content, data, box, what);
    });
  const results: CaseResult[] = [];
  for (const temperature of ["cold", "warm"] as const) {
    const contenders: Contender[] = READ_PEERS.map((peer) =>
      temperature === "cold"
        ? readContender(peer, source, sharded.path, (_, checking, fresh) => readAll(undefined, fresh, checking, `${peer.name} cold read`))
        : readContender(
            peer,
            source,
            sharded.path,
            (reader, checking, fresh) => readAll(reader, fresh, checking, `${peer.name} warm read`),
            (reader) => Promise.all(oneInnerChunkPerShard.map((box) => reader.read(box))),
          ),
    );
    const tensorstore = runningChild(ctx.tensorstore);
    if (temperature === "warm" && source.kind === "local" && tensorstore) {
      contenders.push(
        tensorstoreReads(tensorstore, {
          arrayDir: join(ctx.dataRoot, sharded.path),
          scratch: ctx.scratchRoot,
          boxes,
          whole: wholeBox(profile.size),
          setup: oneInnerChunkPerShard,
          check: (data, box) => checkBox(content, data, box, "tensorstore warm read"),
        }),
      );
    }
    const spec = {
      id: `random-${temperature}/${source.kind}`,
      group: 3,
      title: `${boxes.length} random inner chunks, index cache ${temperature}, ${concurrency} in flight`,
      source: source.kind,
      form: sharded.name,
    } as const;
    results.push(await contest(spec, contenders, profile, ctx.log));
  }
  return results;
}
