import { join } from "node:path";
import { forEachConcurrent } from "@zarrkit/core/internal";
import { blockOrigins } from "../blocks.js";
import { checkBox, wholeBox } from "../check.js";
import { type Contender, contest } from "../contest.js";
import { FORMS, type Form, form, innerEdge } from "../forms.js";
import { type Box, READ_PEERS, type ReadPeer, type Reader } from "../peers.js";
import { prng } from "@zarrkit/test-utils/noise";
import { readContender } from "../read-contender.js";
import type { Profile } from "../profile.js";
import type { CaseResult } from "../results.js";
import type { Source } from "../sources.js";
import type { SuiteContext } from "../suite-context.js";
import { comparedRounds, runningChild, tensorstoreReads } from "../tensorstore/contenders.js";

/** Which inner chunks a run of case 3 reads: how many, of which form, and whether cold, warm or both. */
export interface RandomPick {
  /** Prefix of the cases' ids: "random" gives "random-cold/local", "random-warm/local". */
  id: string;
  form: Form;
  count: number;
  temperatures: readonly ("cold" | "warm")[];
  /** The JavaScript libraries reading them. */
  peers: readonly ReadPeer[];
  /** Only for the comparison with tensorstore, which reads them too (locally, warm only). */
  tensorstore: boolean;
}

/** Issue 7's pick: `randomChunks` inner chunks of the sharded form, cold and warm. */
export function issue7Pick(profile: Profile): RandomPick {
  const count = profile.randomChunks;
  const temperatures = ["cold", "warm"] as const;
  return { id: "random", form: form("sharded"), count, temperatures, peers: READ_PEERS, tensorstore: false };
}

/** Issue 20's: 120 inner chunks of 64^3 (zstd), warm, as zarrkit was measured against tensorstore. */
export function issue20Pick(profile: Profile): RandomPick {
  const zstd64 = FORMS.find((f) => f.sharded && f.compressed && innerEdge(f, profile) === 64);
  if (!zstd64) throw new Error(`the ${profile.name} profile has no sharded form of 64^3 zstd inner chunks`);
  const peers = READ_PEERS.filter((p) => p.name === "zarrkit");
  return { id: "random-64", form: zstd64, count: 120, temperatures: ["warm"], peers, tensorstore: true };
}

/**
 * Case 3 (and 5): `pick.count` inner chunks of `pick.form`, picked with a
 * fixed seed, each read by its own call, `concurrency` at a time.
 * Cold: every read on a fresh array object, so no shard index is cached
 * (metadata already in hand, so no zarr.json request). Warm: one array
 * whose index cache was filled, untimed, by one read per shard. tensorstore
 * (locally, warm only, where the pick says) reads the same boxes one by one
 * after the same untimed reads, on an array opened afresh each run with its
 * default context (no chunk cache: it reads each shard's index again).
 */
export async function randomReads(
  ctx: SuiteContext,
  source: Source,
  concurrency: number,
  pick = issue7Pick(ctx.profile),
): Promise<CaseResult[]> {
  const { profile, content } = ctx;
  const sharded = pick.form;
  const edge = innerEdge(sharded, profile);
  const all = [...blockOrigins(profile.size, edge)];
  const random = prng(7);
  const boxes: Box[] = Array.from({ length: pick.count }, () => {
    const origin = all[Math.floor(random() * all.length)]!;
    return { start: origin, stop: origin.map((s) => s + edge) };
  });
  const oneInnerChunkPerShard: Box[] = [...blockOrigins(profile.size, profile.shard)].map((o) => ({
    start: o,
    stop: o.map((s) => s + edge),
  }));
  const readAll = (reader: Reader | undefined, fresh: () => Promise<Reader>, checking: boolean, what: string) =>
    forEachConcurrent(boxes, concurrency, async (box) => {
      const data = await (reader ?? (await fresh())).read(box);
      if (checking) checkBox(content, data, box, what);
    });
  const results: CaseResult[] = [];
  for (const temperature of pick.temperatures) {
    const contenders: Contender[] = pick.peers.map((peer) =>
      temperature === "cold"
        ? readContender(peer, source, sharded.path, (_, checking, fresh) =>
            readAll(undefined, fresh, checking, `${peer.name} cold read`),
          )
        : readContender(
            peer,
            source,
            sharded.path,
            (reader, checking, fresh) => readAll(reader, fresh, checking, `${peer.name} warm read`),
            (reader) => Promise.all(oneInnerChunkPerShard.map((box) => reader.read(box))),
          ),
    );
    const tensorstore =
      pick.tensorstore && temperature === "warm" && source.kind === "local" ? runningChild(ctx.tensorstore) : undefined;
    if (tensorstore) {
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
      id: `${pick.id}-${temperature}/${source.kind}`,
      group: 3,
      title: `${boxes.length} random ${edge}^3 inner chunks, index cache ${temperature}, ${concurrency} in flight`,
      source: source.kind,
      form: sharded.name,
      forTensorstore: pick.tensorstore,
    } as const;
    results.push(await contest(spec, contenders, comparedRounds(profile, tensorstore !== undefined), ctx.log));
  }
  return results;
}
