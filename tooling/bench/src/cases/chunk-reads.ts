import { forEachConcurrent } from "@zarrkit/core/internal";
import { blockOrigins } from "../blocks.js";
import { checkBox } from "../check.js";
import { contest } from "../contest.js";
import { form, formTitle, unitEdge } from "../forms.js";
import { type Box, READ_PEERS } from "../peers.js";
import { readContender } from "../read-contender.js";
import type { CaseResult } from "../results.js";
import type { Source } from "../sources.js";
import type { SuiteContext } from "../suite-context.js";

/** Case 2 (and 5): every chunk (inner chunk, when sharded) read by its own call, `concurrency` calls in flight. */
export async function chunkReads(
  ctx: SuiteContext,
  source: Source,
  concurrencies: readonly number[],
): Promise<CaseResult[]> {
  const { profile, content } = ctx;
  const results: CaseResult[] = [];
  for (const target of profile.chunkForms.map(form)) {
    const edge = unitEdge(target, profile);
    const boxes: Box[] = [...blockOrigins(profile.size, edge)].map((o) => ({ start: o, stop: o.map((s) => s + edge) }));
    const unit = target.sharded ? "inner chunk" : "chunk";
    for (const concurrency of concurrencies) {
      const contenders = READ_PEERS.map((peer) =>
        readContender(peer, source, target.path, (reader, checking) =>
          forEachConcurrent(boxes, concurrency, async (box) => {
            const data = await reader.read(box);
            if (checking) checkBox(content, data, box, `${peer.name} ${unit} read of ${target.name}`);
          }),
        ),
      );
      const spec = {
        id: `chunks/${target.name}/c${concurrency}/${source.kind}`,
        group: 2,
        title: `${unit} by ${unit} (${boxes.length}), ${formTitle(target, profile)}, ${concurrency} in flight`,
        source: source.kind,
        form: target.name,
      } as const;
      results.push(await contest(spec, contenders, profile, ctx.log));
    }
  }
  return results;
}
