import { describeShard } from "@zarrkit/sharding";
import {
  type CodecMetadata,
  createArray,
  createGroup,
  forEachConcurrent,
  MemoryStore,
  NodeExistsError,
  openArray,
  serializeScalar,
  StoreError,
  UnsupportedError,
  withRequestLog,
  type WritableStore,
  ZarrArray,
  type ZarrGroup,
  ZarrkitError,
  type ZarrNode,
} from "zarrkit";
import { parseCommand } from "../args.js";
import { parseBytes, parseCodec, parseShape, type Part, resolvePart, shardShapeForBytes } from "../convert-options.js";
import { createProgress, progressMode } from "../progress.js";
import { UsageError } from "../errors.js";
import type { Output } from "../output.js";
import { dataTypeOf, openSource } from "../source.js";
import { resolveUrl, writableStore } from "../url.js";

export const CONVERT_HELP = `Usage: zarrkit convert <src> <dst> [options]

Copy the array or group (everything below it, attributes kept) at <src> into
a sharded Zarr v3 array or group at <dst>. Sources: Zarr v2 and v3 (unsharded,
sharded, rectilinear). Each destination shard is read, encoded in memory and
stored with one write, so a shard is absent or complete: run the same command
again after a failure or kill and it skips every shard already present and
valid, writing only the rest. Shards that are all fill value are not stored.

Options:
  --chunk-shape a,b,c   inner chunk shape (default: the source's chunk shape)
  --shard-shape a,b,c   shard shape, a multiple of the chunk shape
  --shard-bytes SIZE    or: shards of about SIZE decoded bytes (default 1GiB),
                        a multiple of the chunk shape
  --codec CODEC         inner compressor: zstd[:LEVEL] (default zstd:3),
                        gzip[:LEVEL], blosc[:CNAME[:CLEVEL[:SHUFFLE]]], none
  --index-location L    start or end (default end)
  --jobs N              shards in flight (default 2); memory is about
                        2 x N decoded shards
  --part i/N            write part i of N: the shards whose linear index in
                        the grid is i modulo N (metadata is written by every
                        part, idempotently, so parts may run in any order)
  --parts N             the number of parts, with the index from the batch
                        engine: JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs)
                        or AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch array jobs);
                        SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT need no flag
  --overwrite           replace a destination that is not this conversion
                        (a matching one is resumed); do not combine with
                        parts running at once
  --progress MODE       auto (bar on a terminal, else plain), bar, plain,
                        json (one object per shard on stderr, with its key
                        and shard: written, present or empty), none
  --debug               print stack traces of errors
  -h, --help            show this help

Examples:
  zarrkit convert data/raw.zarr data/sharded.zarr --shard-shape 256,256,256 --chunk-shape 64,64,64
  zarrkit convert data/v2.zarr s3://bucket/v3.zarr --codec blosc:zstd:5:shuffle --jobs 4
  zarrkit convert data/raw.zarr data/sharded.zarr --part 3/8`;

const OPTIONS = {
  "chunk-shape": { type: "string" },
  "shard-shape": { type: "string" },
  "shard-bytes": { type: "string" },
  codec: { type: "string" },
  "index-location": { type: "string" },
  jobs: { type: "string" },
  part: { type: "string" },
  parts: { type: "string" },
  overwrite: { type: "boolean" },
  progress: { type: "string" },
} as const;

const C = "convert";
const DEFAULT_SHARD_BYTES = 2 ** 30;
/** The default index codecs (bytes + crc32c): 16 bytes per inner chunk and a 4-byte checksum. */
const INDEX_ENTRY_BYTES = 16;
const INDEX_CHECKSUM_BYTES = 4;

interface Layout {
  chunkShape?: number[];
  shardShape?: number[];
  shardBytes: number;
  codec: string;
  indexLocation: "start" | "end";
}

/** One node of the destination: its path, its metadata document, and for arrays the source. */
interface PlannedNode {
  path: string;
  metadata: Uint8Array;
  source?: ZarrArray;
}

export async function convertCommand(args: readonly string[], out: Output): Promise<number> {
  const { values, positionals } = parseCommand(C, args, OPTIONS, { min: 2, max: 2, names: "<src> <dst>" });
  if (values.help) return out.help(CONVERT_HELP);
  if (values["shard-shape"] !== undefined && values["shard-bytes"] !== undefined) {
    throw new UsageError("--shard-shape and --shard-bytes exclude each other", C);
  }
  const indexLocation = values["index-location"] ?? "end";
  if (indexLocation !== "start" && indexLocation !== "end") {
    throw new UsageError(`--index-location ${JSON.stringify(indexLocation)}: expected start or end`, C);
  }
  const jobs = values.jobs === undefined ? 2 : Number(values.jobs);
  if (!/^\d+$/.test(values.jobs ?? "2") || jobs < 1) throw new UsageError(`--jobs ${JSON.stringify(values.jobs)}: expected a positive integer`, C);
  const shardBytes = values["shard-bytes"] === undefined ? DEFAULT_SHARD_BYTES : parseBytes(values["shard-bytes"], "--shard-bytes");
  const codec = values.codec ?? "zstd:3";
  parseCodec(codec, 1); // the form is checked before anything is opened
  const part = resolvePart(values.part, values.parts, process.env);
  const mode = progressMode(values.progress, C);
  const [srcUrl, dstUrl] = positionals as [string, string];

  const source = await openSource(await resolveUrl(srcUrl, C));
  if (source.kind === "precomputed") throw new UnsupportedError(`${srcUrl}: converting precomputed volumes is not supported yet`);
  const dst = await resolveUrl(dstUrl, C);
  if (dst.precomputed) throw new UsageError(`${dstUrl}: the destination must be a Zarr store (--to precomputed is not supported yet)`, C);
  const store = writableStore(dst);

  const layout: Layout = { shardBytes, codec, indexLocation };
  if (values["chunk-shape"] !== undefined) layout.chunkShape = parseShape(values["chunk-shape"], "--chunk-shape", rankOf(source));
  if (values["shard-shape"] !== undefined) layout.shardShape = parseShape(values["shard-shape"], "--shard-shape", rankOf(source));

  // Everything is planned (and every flag checked against every array) before the first write.
  const nodes: PlannedNode[] = [];
  if (source.kind === "array") nodes.push(await planArray("", source.array, layout));
  else await planGroup("", source.group, layout, nodes);

  await prepareDestination(store, dstUrl, nodes, values.overwrite === true);
  if (part.from !== "") out.error(`part ${part.index}/${part.count} (from ${part.from})`);

  // Metadata first, by every part, idempotently: a shard is never stored without its array's zarr.json.
  for (const node of nodes) {
    const key = metadataKey(node.path);
    const existing = await store.get(key);
    if (!existing || !sameBytes(existing, node.metadata)) await store.set(key, node.metadata);
  }

  // Bytes stored per key, taken by the shard that wrote them (shards in flight write concurrently).
  const storedBytes = new Map<string, number>();
  const counting = withRequestLog(store, (request) => {
    if (request.method === "set") storedBytes.set(request.key, (storedBytes.get(request.key) ?? 0) + request.bytes);
  }) as WritableStore;
  const arrays: { source: ZarrArray; dest: ZarrArray }[] = [];
  let total = 0;
  for (const node of nodes) {
    if (!node.source) continue;
    const dest = await openArray(counting, node.path);
    arrays.push({ source: node.source, dest });
    total += partSize(dest.gridShape.reduce((a, b) => a * b, 1), part);
  }
  const c = { done: 0, written: 0, skipped: 0, empty: 0 };
  const progress = createProgress({ mode, total, unit: "shards" });

  let interrupted = false;
  const onInterrupt = () => {
    interrupted = true;
    out.error("zarrkit: interrupted: finishing the shards in flight (Ctrl-C again to stop at once)");
    process.once("SIGINT", () => process.exit(130));
  };
  process.once("SIGINT", onInterrupt);
  try {
    for (const { source: src, dest } of arrays) {
      if (interrupted) break;
      await forEachConcurrent(partRegions(dest, part, () => interrupted), jobs, async (region) => {
        // A killed run may have left this shard's write half-done (the store's lock, a journal): settle it first.
        await dest.store.recover?.(region.key);
        if (await shardComplete(dest, region.coords, region.key)) {
          c.done++;
          c.skipped++;
          progress.advance(1, { skipped: 1 }, { key: region.key, shard: "present" });
          return;
        }
        const data = await src.get(region.selection);
        const read = data.data.length * (dataTypeOf(src).byteSize ?? 0);
        await dest.set(region.selection, data);
        // A shard all of fill value is not stored (the sharding codec deletes it instead).
        const stored = storedBytes.get(region.key) ?? 0;
        storedBytes.delete(region.key);
        c.done++;
        if (stored > 0) c.written++;
        else c.empty++;
        const shard = stored > 0 ? "written" : "empty";
        progress.advance(1, { [shard]: 1, bytesRead: read, bytesWritten: stored }, { key: region.key, shard });
      });
    }
  } finally {
    process.removeListener("SIGINT", onInterrupt);
    progress.finish();
  }
  const what = nodes.length === 1 ? "1 array" : `${arrays.length} arrays, ${nodes.length - arrays.length} groups`;
  const partText = part.count > 1 ? ` (part ${part.index}/${part.count})` : "";
  out.error(`${interrupted ? "interrupted" : "converted"} ${srcUrl} -> ${dstUrl}: ${what}; shards: ${c.written} written, ${c.skipped} already present, ${c.done} of ${total}${partText}${c.empty ? `; ${c.empty} all fill value, not stored` : ""}`);
  return interrupted ? 130 : 0;
}

function rankOf(source: { kind: "array"; array: ZarrArray } | { kind: "group" }): number {
  if (source.kind === "array") return source.array.shape.length;
  throw new UsageError("--chunk-shape and --shard-shape apply to arrays; a group's arrays keep their own chunk shape (or use --shard-bytes)", C);
}

/** The destination array's zarr.json, built (and so validated) in memory. */
async function planArray(path: string, src: ZarrArray, layout: Layout): Promise<PlannedNode> {
  const type = dataTypeOf(src);
  if (type.byteSize === undefined) throw new UnsupportedError(`${path || "the array"}: converting ${type.name} arrays (variable-length elements) is not supported`);
  const chunkShape = layout.chunkShape ?? src.chunkShape;
  let shardShape = layout.shardShape;
  if (shardShape) {
    const bad = shardShape.findIndex((n, d) => n % chunkShape[d]! !== 0);
    if (bad >= 0) {
      throw new UsageError(
        `--shard-shape ${shardShape.join(",")} is not a multiple of the chunk shape ${chunkShape.join(",")} (dimension ${bad}: ${shardShape[bad]} is not a multiple of ${chunkShape[bad]})`,
        C,
      );
    }
  } else {
    shardShape = shardShapeForBytes(src.shape, chunkShape, type.byteSize, layout.shardBytes);
  }
  const codecs: CodecMetadata[] = parseCodec(layout.codec, type.byteSize);
  const memory = new MemoryStore();
  try {
    await createArray(memory, "", {
      shape: src.shape,
      dataType: src.dataType,
      chunkShape,
      shardShape,
      indexLocation: layout.indexLocation,
      codecs,
      fillValue: serializeScalar(src.fillValue, type),
      attributes: src.attributes,
      ...(src.dimensionNames && { dimensionNames: src.dimensionNames }),
    });
  } catch (error) {
    if (error instanceof ZarrkitError && !(error instanceof UsageError)) {
      throw new UsageError(`cannot create ${path || "the destination array"} with these options: ${error.message}`, C);
    }
    throw error;
  }
  return { path, metadata: (await memory.get("zarr.json"))!, source: src };
}

async function planGroup(path: string, group: ZarrGroup<ZarrNode>, layout: Layout, nodes: PlannedNode[]): Promise<void> {
  const memory = new MemoryStore();
  await createGroup(memory, "", { attributes: group.attributes });
  nodes.push({ path, metadata: (await memory.get("zarr.json"))! });
  for (const name of await group.childNames()) {
    const child = await group.open(name);
    const childPath = path === "" ? name : `${path}/${name}`;
    if (child instanceof ZarrArray) nodes.push(await planArray(childPath, child, layout));
    else await planGroup(childPath, child as ZarrGroup<ZarrNode>, layout, nodes);
  }
}

function metadataKey(path: string): string {
  return path === "" ? "zarr.json" : `${path}/zarr.json`;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * A destination is this conversion (resumed) when every metadata document
 * already there equals the planned one; anything else there (other
 * documents, or keys without a zarr.json at the root) is another node:
 * refused, or with --overwrite deleted first.
 */
async function prepareDestination(store: WritableStore, display: string, nodes: PlannedNode[], overwrite: boolean): Promise<void> {
  let conflict: string | undefined;
  for (const node of nodes) {
    for (const key of [metadataKey(node.path), ...v2Keys(node.path)]) {
      const existing = await store.get(key);
      if (existing === undefined) continue;
      if (key === metadataKey(node.path) && sameBytes(existing, node.metadata)) continue;
      conflict = key;
      break;
    }
    if (conflict !== undefined) break;
  }
  let keys: string[] | undefined;
  if (conflict === undefined && (await store.get("zarr.json")) === undefined && store.list) {
    keys = [];
    for await (const key of store.list("")) {
      keys.push(key);
      if (!overwrite) break;
    }
    // Another part of this conversion, starting at the same time, may have stored its metadata (the root's first) since.
    const root = await store.get("zarr.json");
    if (keys.length > 0 && !(root && sameBytes(root, nodes[0]!.metadata))) conflict = keys[0];
  }
  if (conflict === undefined) return;
  if (!overwrite) {
    throw new NodeExistsError(`destination ${display} already holds other data (${conflict}); pass --overwrite to replace it, or choose another destination`, {
      key: conflict,
    });
  }
  if (!store.delete || !store.list) throw new StoreError(`cannot overwrite ${display}: the store cannot list and delete its keys`);
  const remove = store.delete.bind(store);
  const all: string[] = [];
  for await (const key of store.list("")) all.push(key);
  await forEachConcurrent(all, 16, (key) => remove(key));
}

function v2Keys(path: string): string[] {
  const prefix = path === "" ? "" : `${path}/`;
  return [`${prefix}.zarray`, `${prefix}.zgroup`, `${prefix}.zattrs`];
}

/** How many of `cells` (linear indices 0..cells-1) are i modulo N. */
function partSize(cells: number, part: Part): number {
  return cells > part.index ? Math.floor((cells - 1 - part.index) / part.count) + 1 : 0;
}

/** The regions of the part's shards (linear index i modulo N), lazily, until `stop` says so. */
function* partRegions(array: ZarrArray, part: Part, stop: () => boolean) {
  const grid = array.gridShape;
  for (const region of array.chunkRegions()) {
    if (stop()) return;
    const linear = region.coords.reduce((acc, c, d) => acc * grid[d]! + c, 0);
    if (linear % part.count === part.index) yield region;
  }
}

/**
 * A shard already present and complete: its index decodes (checksum included)
 * and the stored size is exactly the index plus the chunks it lists, as
 * convert writes them. Anything else is written again.
 */
async function shardComplete(array: ZarrArray, coords: number[], key: string): Promise<boolean> {
  try {
    const shard = await describeShard(array, coords);
    if (!shard.exists) return false;
    let data = 0;
    for (const chunk of shard.chunks) if (!("empty" in chunk)) data += chunk.nbytes;
    const entries = shard.chunksPerShard.reduce((a, b) => a * b, 1);
    const size = array.store.size ? await array.store.size(key) : (await array.store.get(key))?.length;
    return size === data + entries * INDEX_ENTRY_BYTES + INDEX_CHECKSUM_BYTES;
  } catch (error) {
    if (error instanceof ZarrkitError) return false;
    throw error;
  }
}
