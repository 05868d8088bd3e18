import { describeShard, shardingConfiguration } from "@zarrkit/sharding";
import {
  FileSystemStore,
  open,
  type Slice,
  type Store,
  slice,
  UnsupportedError,
  ZarrArray,
  ZarrkitError,
  type ZarrGroup,
  type ZarrNode,
} from "zarrkit";
import { forEachConcurrent } from "@zarrkit/core/internal";
import { rangeBounds } from "@zarrkit/registry";
import { parseCommand, positiveIntegerFlag } from "../args.js";
import type { Output } from "../output.js";
import { createProgress, type ProgressMode, progressMode } from "../progress.js";
import { candidateChunks } from "../shards.js";
import { type SweepReport, sweepTemporaryFiles } from "../temp-files.js";
import { openSource } from "../source.js";
import { resolveUrl } from "../url.js";

export const VERIFY_HELP = `Usage: zarrkit verify <url> [--deep] [--json] [--concurrency N] [--progress MODE]

Check every present shard of every sharded array at <url> (an array, or a
group and everything below it): its index decodes and its checksum holds,
every entry lies inside the shard's data, no two entries overlap each other
or the index, and nothing points past the end. With --deep, also decode every
inner chunk (checksum codecs of the inner chain are checked then), and every
chunk of unsharded arrays; shards and chunks whose codecs hold no checksum
(crc32c, gzip's CRC-32, zlib's Adler-32, zstd's with checksum) are listed as
unchecked: bit flips in them cannot be seen. Prints each bad key and why;
exits 1 when anything is wrong, 0 when all is well. On the filesystem it also
removes the temporary files of writes interrupted before it started (unchanged
for a minute, open in no process here) and lists the ones it keeps.

Options:
  --deep            decode every inner chunk (and every chunk of unsharded arrays)
  --json            print one JSON object: {ok, checked: {shards, innerChunks,
                    chunks}, problems: [{key, error, message}], unchecked:
                    [{key, reason}], temporaryFiles: {removed, kept}}
  --concurrency N   shards checked at once (default 16); memory: one shard per worker
  --progress MODE   auto (a bar on a TTY, else a line every few seconds), bar,
                    plain, json (one {"done","total"} object per line), none;
                    progress goes to stderr
  --debug           print stack traces of errors
  -h, --help        show this help

Examples:
  zarrkit verify data/image.zarr
  zarrkit verify data/collection.zarr --deep --concurrency 4
  zarrkit verify https://example.org/data/image.zarr --json --progress none
  zarrkit verify s3://bucket/image.zarr --deep --progress json`;

const OPTIONS = {
  deep: { type: "boolean" },
  json: { type: "boolean" },
  concurrency: { type: "string" },
  progress: { type: "string" },
} as const;

/** One bad key: the store key, the typed error's name and its message. */
export interface VerifyProblem {
  /** The store key of the bad shard or chunk (the node's path for a node that did not open). */
  key: string;
  /** The error's class name, e.g. "CorruptDataError". */
  error: string;
  /** The error's message, on one line. */
  message: string;
}

/** What `verify` found: the report `zarrkit verify --json` prints. */
export interface VerifyReport {
  /** No problems. */
  ok: boolean;
  /** How much was checked. */
  checked: {
    /** Present shards whose index was checked. */
    shards: number;
    /** Inner chunks of shards decoded (`deep` only). */
    innerChunks: number;
    /** Chunks of unsharded arrays decoded (`deep` only). */
    chunks: number;
  };
  /** The bad keys, sorted by key. */
  problems: VerifyProblem[];
  /** With `deep`: the shards and chunks decoded without a checksum (bit flips in them go unseen), sorted by key. */
  unchecked: {
    /** The shard's or chunk's key. */
    key: string;
    /** Why it could not be checked (its codecs hold no checksum). */
    reason: string;
  }[];
}

export async function verifyCommand(args: readonly string[], out: Output): Promise<number> {
  const runStart = Date.now();
  const { values, positionals } = parseCommand("verify", args, OPTIONS, { min: 1, max: 1, names: "<url>" });
  if (values.help) return out.help(VERIFY_HELP);
  const concurrency = positiveIntegerFlag(values.concurrency, "--concurrency", "verify") ?? 16;
  const mode = progressMode(values.progress, "verify");
  const source = await openSource(await resolveUrl(positionals[0]!, "verify"));
  if (source.kind === "precomputed") {
    throw new UnsupportedError(`verify checks Zarr arrays and groups; ${source.url.display} is a precomputed volume`);
  }
  const store = source.url.store;
  const temporaryFiles: SweepReport =
    store instanceof FileSystemStore ? await sweepTemporaryFiles(store.root, runStart) : { removed: [], kept: [] };
  const report = await verify(source.kind === "array" ? source.array : source.group, {
    deep: values.deep === true,
    concurrency,
    progress: mode,
  });
  if (values.json) {
    out.write(JSON.stringify({ ...report, temporaryFiles }));
  } else {
    for (const p of report.problems) out.write(`BAD ${p.key}: ${p.error}: ${p.message}`);
    for (const u of report.unchecked.slice(0, UNCHECKED_LINES)) out.write(`UNCHECKED ${u.key}: ${u.reason}`);
    const more = report.unchecked.length - UNCHECKED_LINES;
    if (more > 0) out.write(`UNCHECKED ... ${more} more (--json lists them all)`);
    for (const key of temporaryFiles.removed) {
      out.write(`REMOVED ${key}: a temporary file left by an interrupted write`);
    }
    for (const k of temporaryFiles.kept) out.write(`KEPT ${k.key}: temporary file ${k.reason}`);
    const { shards, innerChunks, chunks } = report.checked;
    const what = [
      `${shards} shard${shards === 1 ? "" : "s"}`,
      values.deep && `${innerChunks} inner chunk${innerChunks === 1 ? "" : "s"}`,
      chunks > 0 && `${chunks} chunk${chunks === 1 ? "" : "s"}`,
    ];
    const n = report.problems.length;
    const u = report.unchecked.length;
    const unchecked = u > 0 ? `; ${u} without a checksum (bit flips unseen)` : "";
    const problems = `${n} problem${n === 1 ? "" : "s"}`;
    out.write(`${report.ok ? "ok" : "FAILED"}: checked ${what.filter(Boolean).join(", ")}; ${problems}${unchecked}`);
  }
  return report.ok ? 0 : 1;
}

/** Unchecked keys printed one per line; the rest are counted (--json lists every one). */
const UNCHECKED_LINES = 10;

interface Work {
  array: ZarrArray;
  coords: number[];
  key: string;
}

/**
 * Check an array, or a group and every array below it, as `zarrkit verify`
 * does: every present shard's index (offsets inside the shard, nothing past
 * its end), and with `deep` every inner chunk and every chunk of unsharded
 * arrays decoded. Typed errors become problems in the report; other errors
 * (a bug, a lost connection) are thrown.
 */
export async function verify(
  node: ZarrArray | ZarrGroup<ZarrNode>,
  options: {
    /** Decode every chunk too (default false: shard indexes only). */
    deep?: boolean;
    /** Keys checked at once (default 16). */
    concurrency?: number;
    /** Progress on stderr (default "none"). */
    progress?: ProgressMode;
  },
): Promise<VerifyReport> {
  const problems: VerifyProblem[] = [];
  const unchecked: VerifyReport["unchecked"] = [];
  const checked = { shards: 0, innerChunks: 0, chunks: 0 };
  const arrays: ZarrArray[] = [];
  if (node instanceof ZarrArray) arrays.push(node);
  else await collectArrays(node, "", arrays, problems);
  const deep = options.deep === true;
  const work: Work[] = [];
  for (const opened of arrays) {
    const array = opened.store.getRangeWithSize
      ? opened
      : ((await open(sizedStore(opened.store), opened.path)) as ZarrArray);
    // Unsharded arrays have nothing to check without --deep: their chunks have no index.
    if (array.shardShape === undefined && !deep) continue;
    try {
      for (const { coords, key } of await candidateChunks(array)) work.push({ array, coords, key });
    } catch (error) {
      problems.push(problem(array.path || "/", error));
    }
  }
  const progress = createProgress({ mode: options.progress ?? "none", total: work.length, unit: "shards" });
  try {
    await forEachConcurrent(work, Math.max(1, Math.min(options.concurrency ?? 16, work.length)), async (item) => {
      try {
        const sharded = item.array.shardShape !== undefined;
        const present = sharded ? await checkShard(item, deep, checked) : await checkChunk(item, checked);
        const checksum = checksumCodec(item.array);
        if (deep && present && checksum !== true) unchecked.push({ key: item.key, reason: checksum });
      } catch (error) {
        if (!(error instanceof ZarrkitError)) throw error;
        problems.push(problem(item.key, error));
      }
      progress.advance();
    });
  } finally {
    progress.finish();
  }
  const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  problems.sort(byKey);
  unchecked.sort(byKey);
  return { ok: problems.length === 0, checked, problems, unchecked };
}

function problem(key: string, error: unknown): VerifyProblem {
  if (error instanceof Error) return { key, error: error.name, message: error.message.replace(/\s+/g, " ") };
  return { key, error: "Error", message: String(error) };
}

async function collectArrays(
  group: ZarrGroup<ZarrNode>,
  prefix: string,
  arrays: ZarrArray[],
  problems: VerifyProblem[],
): Promise<void> {
  for (const name of await group.childNames()) {
    const path = `${prefix}${name}`;
    let child: ZarrNode;
    try {
      child = await group.open(name);
    } catch (error) {
      if (!(error instanceof ZarrkitError)) throw error;
      problems.push(problem(path, error));
      continue;
    }
    if (child instanceof ZarrArray) arrays.push(child);
    else await collectArrays(child as ZarrGroup<ZarrNode>, `${path}/`, arrays, problems);
  }
}

/** The part of the array the grid cell at `coords` covers, clipped to the array (rectilinear grids included). */
export function cellSelection(array: ZarrArray, coords: readonly number[]): Slice[] {
  return coords.map((c, d) => {
    let start = 0;
    for (let i = 0; i < c; i++) start += array.chunkSpec(coords.map((x, e) => (e === d ? i : x))).shape[d]!;
    const extent = array.chunkSpec(coords).shape[d]!;
    return slice(Math.min(start, array.shape[d]!), Math.min(start + extent, array.shape[d]!));
  });
}

/** Check a shard's index (and with `deep` decode its chunks); whether the shard is present. */
async function checkShard(item: Work, deep: boolean, checked: VerifyReport["checked"]): Promise<boolean> {
  const { array, coords } = item;
  // describeShard reads the index through the codec: its checksum, offsets inside the data, no overlaps, and,
  // the shard's size being known (sizedStore), nothing past the end.
  const shard = await describeShard(array, coords);
  if (!shard.exists) return false;
  checked.shards++;
  if (!deep) return true;
  // One shard at a time per worker: read and decode its region (every present inner chunk).
  await array.get(cellSelection(array, coords));
  checked.innerChunks += shard.chunks.filter((c) => !("empty" in c)).length;
  return true;
}

/** Codecs whose decoding checks a checksum of the bytes, whatever their configuration. */
const CHECKED = new Set(["crc32c", "gzip", "zlib"]);

/**
 * True when decoding the array's chunks checks a checksum of their bytes
 * (crc32c, gzip's CRC-32, zlib's Adler-32, zstd frames written with their
 * checksum), else why not: then a flipped bit decodes to wrong values unseen.
 */
export function checksumCodec(array: ZarrArray): true | string {
  const chain = codecChain(array);
  const checks = chain.some((c) => {
    const config = (c.configuration ?? {}) as Record<string, unknown>;
    return CHECKED.has(c.name.replace(/^numcodecs\./, "")) || (c.name.endsWith("zstd") && config.checksum === true);
  });
  if (checks) return true;
  const names = chain.map((c) => c.name).join(", ") || "none";
  return (
    `decoded, but its codecs (${names}) hold no checksum: bit flips in it cannot be seen ` +
    "(convert with --codec ...+crc32c to add one)"
  );
}

/** The codecs that encode the array's chunks (for sharded arrays, the inner chunks') as {name, configuration}. */
function codecChain(array: ZarrArray): { name: string; configuration?: unknown }[] {
  const metadata = array.metadata;
  if (metadata.zarr_format === 2) {
    const entries = [...(metadata.filters ?? []), ...(metadata.compressor ? [metadata.compressor] : [])];
    return (entries as Record<string, unknown>[]).map((e) => ({ name: String(e.id), configuration: e }));
  }
  return shardingConfiguration(metadata.codecs)?.codecs ?? metadata.codecs;
}

/**
 * The store as one whose ranged reads report the value's size (read whole when
 * the store cannot say), so the index check covers "nothing past the end".
 */
export function sizedStore(store: Store): Store {
  if (store.getRangeWithSize) return store;
  const getRangeWithSize: Store["getRangeWithSize"] = async (key, range, options) => {
    const bytes = await store.get(key, options);
    if (!bytes) return undefined;
    const [start, end] = rangeBounds(range, bytes.length);
    return { value: bytes.subarray(start, end), size: bytes.length };
  };
  return new Proxy(store, {
    get(target, prop) {
      if (prop === "getRangeWithSize") return getRangeWithSize;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
    has: (target, prop) => prop === "getRangeWithSize" || Reflect.has(target, prop),
  });
}

/** Decode a chunk of an unsharded array; whether it is present. */
async function checkChunk({ array, coords, key }: Work, checked: VerifyReport["checked"]): Promise<boolean> {
  const store = array.store;
  const size = store.size ? await store.size(key) : (await store.get(key))?.length;
  if (size === undefined) return false;
  await array.get(cellSelection(array, coords));
  checked.chunks++;
  return true;
}
