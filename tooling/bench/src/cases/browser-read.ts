import { statSync } from "node:fs";
import { join } from "node:path";
import { BrowserPage, browserSkipReason } from "../browser/browser-page.js";
import { buildPage } from "../browser/build-page.js";
import { type BrowserPeer, FETCH_ONLY } from "../browser/page.js";
import { type Contender, contest } from "../contest.js";
import { form, formTitle } from "../forms.js";
import { LatencyServer } from "../http/latency-server-client.js";
import { DATA_DIR } from "../paths.js";
import type { CaseResult } from "../results.js";
import { HttpSource } from "../sources.js";
import type { SuiteContext } from "../suite-context.js";

/**
 * The whole sharded array is read over HTTP from 127.0.0.1 as it is: the issue asks for local HTTP, no added latency.
 */
const LATENCY_MS = 0;

/**
 * Case 9: in Chromium, one page holding zarrkit (default settings: codec
 * workers on; and, to see what they bring, zarrkit with them off) and
 * zarrita.js (its FetchStore) reads the whole sharded array over local HTTP,
 * alternating with the shard files fetched whole, undecoded (the I/O alone); the page is bundled by esbuild here
 * and served with COOP/COEP, so it is cross-origin isolated. Each read also
 * gives the page thread's busy share (Chromium's task time on it, over the
 * read). Skipped, with the reason logged, without Chromium.
 */
export async function browserReads(ctx: SuiteContext): Promise<CaseResult[]> {
  const skip = browserSkipReason();
  if (skip) {
    ctx.log(`9: browser case skipped: ${skip}`);
    return [];
  }
  const { profile } = ctx;
  const sharded = form("sharded");
  const pageDir = "browser-page";
  await buildPage(join(DATA_DIR, pageDir));
  const server = await LatencyServer.start(DATA_DIR, LATENCY_MS);
  let page: BrowserPage | undefined;
  try {
    const opened = await BrowserPage.open(`${server.url}${pageDir}/index.html`);
    page = opened;
    const base = `${server.url}${profile.name}/`;
    const source = new HttpSource(server, `${profile.name}/`);
    const prepared = new Set<BrowserPeer>();
    const contenders: Contender[] = (["zarrkit", "zarrkit, workers off", "zarrita"] as const).map((peer) => ({
      name: peer,
      source,
      busy: opened.busy,
      async prepare(checking) {
        if (!prepared.has(peer)) {
          await opened.prepare(peer, base, sharded.path);
          prepared.add(peer);
        }
        await opened.collect();
        return async () => {
          const read = await opened.read(peer, checking ? profile.size : undefined);
          if (checking && read.mismatch !== -1) {
            throw new Error(
              `${peer} in Chromium, whole read of ${sharded.name}: wrong data at element ${read.mismatch} ` +
                `(${read.elements} elements)`,
            );
          }
        };
      },
    }));
    // The I/O alone, for scale: every shard file fetched whole in the same page, nothing decoded.
    const shardsPerEdge = profile.size / profile.shard;
    const shardKeys = Array.from({ length: shardsPerEdge ** 3 }, (_, i) => {
      const coords = [
        Math.floor(i / shardsPerEdge ** 2),
        Math.floor(i / shardsPerEdge) % shardsPerEdge,
        i % shardsPerEdge,
      ];
      return `${sharded.path}/c/${coords.join("/")}`;
    });
    const shardBytes = shardKeys.reduce((sum, key) => sum + statSync(join(ctx.dataRoot, key)).size, 0);
    contenders.push({
      name: FETCH_ONLY,
      source,
      async prepare(checking) {
        await opened.collect();
        return async () => {
          const received = await opened.fetchOnly(base, shardKeys);
          if (checking && received !== shardBytes)
            throw new Error(`fetch only: received ${received} bytes of shards holding ${shardBytes}`);
        };
      },
    });
    const spec = {
      id: `browser/${sharded.name}/http`,
      group: 9,
      title: `whole array in Chromium, ${formTitle(sharded, profile)}`,
      source: "http",
      form: sharded.name,
    } as const;
    const result = await contest(spec, contenders, profile, ctx.log);
    const facts = await opened.facts();
    if (opened.errors.length) throw new Error(`the benchmark page threw: ${opened.errors.join("; ")}`);
    const { workers, dispatched, failure } = facts.workers;
    ctx.log(
      `9: Chromium ${opened.version()}, crossOriginIsolated ${facts.crossOriginIsolated}, ` +
        `hardwareConcurrency ${facts.hardwareConcurrency}, ` +
        `zarrkit: ${workers} codec worker(s), ${dispatched} chunks decoded there${failure ? ` (${failure})` : ""}`,
    );
    return [
      {
        ...result,
        browser: {
          chromium: opened.version(),
          crossOriginIsolated: facts.crossOriginIsolated,
          hardwareConcurrency: facts.hardwareConcurrency,
          latencyMs: LATENCY_MS,
          codecWorkers: workers,
          chunksOnWorkers: dispatched,
          ...(failure !== undefined && { workerFailure: failure }),
        },
      },
    ];
  } finally {
    await page?.close();
    await server.stop();
  }
}
