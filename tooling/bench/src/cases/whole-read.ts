import { join } from "node:path";
import { checkBox, wholeBox } from "../check.js";
import { type Contender, contest } from "../contest.js";
import { floorRead } from "../floor.js";
import { type Form, formTitle } from "../forms.js";
import { READ_PEERS } from "../peers.js";
import { readContender } from "../read-contender.js";
import type { CaseResult } from "../results.js";
import type { Source } from "../sources.js";
import type { SuiteContext } from "../suite-context.js";
import { comparedRounds, runningChild, tensorstoreReads } from "../tensorstore/contenders.js";

/**
 * Case 1 (and 5 over HTTP): read the whole array, each of `forms`; the floor
 * too, from local files, and tensorstore the forms of issue 20's comparison.
 */
export async function wholeReads(ctx: SuiteContext, source: Source, forms: readonly Form[]): Promise<CaseResult[]> {
  const { profile, content } = ctx;
  const box = wholeBox(profile.size);
  const results: CaseResult[] = [];
  for (const form of forms) {
    const check = (data: Uint16Array, what: string) =>
      checkBox(content, data, box, `${what} whole read of ${form.name}`);
    const contenders: Contender[] = READ_PEERS.map((peer) =>
      readContender(peer, source, form.path, async (reader, checking) => {
        const data = await reader.read();
        if (checking) check(data, peer.name);
      }),
    );
    if (source.kind === "local") {
      contenders.push({
        name: "floor",
        async prepare(checking) {
          return async () => {
            const data = await floorRead(ctx.dataRoot, form, profile, ctx.zstd);
            if (checking) check(data, "floor");
          };
        },
      });
    }
    const tensorstore =
      source.kind === "local" && profile.tensorstoreForms.includes(form.name)
        ? runningChild(ctx.tensorstore)
        : undefined;
    if (tensorstore) {
      const arrayDir = join(ctx.dataRoot, form.path);
      const byTensorstore = (data: Uint16Array) => check(data, "tensorstore");
      const scratch = ctx.scratchRoot;
      contenders.push(tensorstoreReads(tensorstore, { arrayDir, scratch, whole: box, check: byTensorstore }));
    }
    const spec = {
      id: `whole/${form.name}/${source.kind}`,
      group: 1,
      title: `whole array, ${formTitle(form, profile)}`,
      source: source.kind,
      form: form.name,
    } as const;
    results.push(await contest(spec, contenders, comparedRounds(profile, tensorstore !== undefined), ctx.log));
  }
  return results;
}
