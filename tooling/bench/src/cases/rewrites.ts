import { copyFileSync, cpSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import * as zk from "zarrkit";
import { gatherBlock } from "../blocks.js";
import { checkBox } from "../check.js";
import { contest } from "../contest.js";
import { BYTES_LE, definition, form } from "../forms.js";
import type { Box } from "../peers.js";
import type { CaseResult } from "../results.js";
import { LocalSource } from "../sources.js";
import type { SuiteContext } from "../suite-context.js";

type Strategy = "rewrite" | "append" | "in-place";
const STRATEGIES: readonly Strategy[] = ["rewrite", "append", "in-place"];

/**
 * Case 6, second half: overwrite one inner chunk of a full shard with each
 * write strategy. Two shards: the data set's own (zstd inside, so inner
 * chunks vary in size and "in-place" must fall back to "rewrite") and one
 * written here with uncompressed, crc32c-checked inner chunks (fixed size and
 * checksummed, where "in-place" applies). Each run starts from a fresh copy of the shard.
 */
export async function rewrites(ctx: SuiteContext, data: Uint16Array): Promise<CaseResult[]> {
  const { profile, content } = ctx;
  const sharded = form("sharded");
  const root = join(ctx.scratchRoot, "rewrite");
  const shardKey = join(sharded.path, "c", "0", "0", "0");
  const templates = { zstd: join(root, "template-zstd"), raw: join(root, "template-raw") };
  rmSync(root, { recursive: true, force: true });
  for (const file of [join(sharded.path, "zarr.json"), shardKey]) {
    mkdirSync(dirname(join(templates.zstd, file)), { recursive: true });
    copyFileSync(join(ctx.dataRoot, file), join(templates.zstd, file));
  }
  const edge = profile.shard;
  const rawDefinition = {
    ...definition(sharded, profile),
    shape: [edge, edge, edge],
    codecs: [BYTES_LE, { name: "crc32c" }],
  };
  const rawTemplate = await zk.createArray(new zk.FileSystemStore(templates.raw), sharded.path, rawDefinition);
  await rawTemplate.set(null, { data: gatherBlock(data, profile.size, edge, [0, 0, 0]), shape: [edge, edge, edge] });

  // An inner chunk inside shard 0, away from its first and last chunks.
  const inner = profile.inner;
  const box: Box = { start: [inner, 2 * inner, inner], stop: [2 * inner, 3 * inner, 2 * inner] };
  const values = gatherBlock(data, profile.size, inner, box.start).map((v) => v + 1);
  const selection = box.start.map((s, d) => zk.slice(s, box.stop[d]!));
  const work = join(root, "work");
  const results: CaseResult[] = [];
  for (const codec of ["zstd", "raw"] as const) {
    for (const strategy of STRATEGIES) {
      const source = new LocalSource(work);
      const contender = {
        name: "zarrkit",
        source,
        async prepare(checking: boolean) {
          rmSync(work, { recursive: true, force: true });
          cpSync(templates[codec], work, { recursive: true });
          const array = await zk.openArray(source.zarrkitStore(), sharded.path, {
            codecOptions: { sharding_indexed: { writeStrategy: strategy } },
          });
          return async () => {
            await array.set(selection, { data: values, shape: [inner, inner, inner] });
            if (!checking) return;
            const reopened = await zk.openArray(new zk.FileSystemStore(work), sharded.path);
            checkBox(content, (await reopened.get(selection)).data as Uint16Array, box, `${strategy} rewrite`, 1);
            const next: Box = { start: [0, 0, 0], stop: [edge, edge, inner] };
            const neighbours = await reopened.get(next.start.map((s, d) => zk.slice(s, next.stop[d]!)));
            checkBox(content, neighbours.data as Uint16Array, next, `${strategy} rewrite (untouched chunks)`);
          };
        },
      };
      const spec = {
        id: `rewrite/${codec}/${strategy}`,
        group: 6,
        title:
          `rewrite 1 inner chunk of a ${edge}^3 shard (${codec === "raw" ? "raw + crc32c" : codec} inner ` +
          `chunks), writeStrategy "${strategy}"`,
        source: "local",
        form: sharded.name,
      } as const;
      results.push(await contest(spec, [contender], profile, ctx.log));
    }
  }
  rmSync(root, { recursive: true, force: true });
  return results;
}
