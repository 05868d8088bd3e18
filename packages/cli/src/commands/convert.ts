import { describeShard } from "@zarrkit/sharding";
import {
  type CodecMetadata,
  createArray,
  createGroup,
  FileSystemStore,
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
import { forEachConcurrent } from "@zarrkit/core/internal";
import { parseCommand, positiveIntegerFlag } from "../args.js";
import {
  DEFAULT_CODEC,
  parseBytes,
  parseCodec,
  parseShape,
  type Part,
  resolvePart,
  shardShapeForBytes,
} from "../convert-options.js";
import { type ConvertSource, precomputedSource, zarrSource } from "../convert-source.js";
import { checkFootprint, downsampledSource, levelShape } from "../downsample.js";
import { multiscaleAttributes, omeAxes } from "../ome.js";
import {
  type PrecomputedPlan,
  type PrecomputedScale,
  planPrecomputed,
  precomputedShardComplete,
  writePrecomputedShard,
} from "../precomputed-target.js";
import { createProgress, type ProgressMode, progressMode } from "../progress.js";
import { type SweepReport, sweepTemporaryFiles } from "../temp-files.js";
import { explainWriteError } from "../write-errors.js";
import { UsageError } from "../errors.js";
import type { Output } from "../output.js";
import { openSource } from "../source.js";
import { resolveUrl, writableStore } from "../url.js";
import { type ArchiveDestination, archiveDestination } from "../archive-destination.js";

export const CONVERT_HELP = `Usage: zarrkit convert <src> <dst> [options]

Copy the array or group (everything below it, attributes kept) at <src> into
a sharded Zarr v3 array or group at <dst>, or with --to precomputed into a
sharded Neuroglancer precomputed volume. Sources: Zarr v2 and v3 (unsharded,
sharded, rectilinear, variable-length strings) and precomputed://<url>
volumes (sharded or not; read as a [c, z, y, x] array). Each destination
shard is read, encoded in memory and stored with one write, so a shard is
absent or complete: run the same command again after a failure or kill and it
skips every shard already present and valid, writing only the rest. Shards
that are all fill value are not stored. Temporary files that killed runs left
in <dst> are removed when unchanged for 60 s before the run and open in no
process here (others are kept and reported).

Options:
  --chunk-shape a,b,c   inner chunk shape (default: the source's chunk shape)
  --shard-shape a,b,c   shard shape, a multiple of the chunk shape
  --shard-bytes SIZE    or: shards of about SIZE decoded bytes (default 1GiB),
                        a multiple of the chunk shape
  --codec CODEC         inner compressor: zstd[:LEVEL], gzip[:LEVEL],
                        blosc[:CNAME[:CLEVEL[:SHUFFLE]]] or none, each
                        optionally +crc32c (a checksum verify --deep checks),
                        e.g. zstd:3+crc32c; default: the source's compression
                        kept (v2 blosc, zstd, gzip, zlib; v3 blosc, zstd, gzip,
                        crc32c), zstd:3 for an uncompressed source;
                        with --to precomputed: gzip (default) or none
  --index-location L    start or end (default end)
  --multiscale N        also write N downsampled levels: <dst> becomes an
                        OME-Zarr 0.5 image (group; arrays 0 = the source,
                        1..N halved on the space axes, each computed from the
                        source: the mean of its 2^k block, integers rounded
                        to nearest, ties away from zero); with --to
                        precomputed, scales s0..sN of one volume
  --labels              with --multiscale: the most frequent value instead
                        of the mean (label images); with --to precomputed:
                        a segmentation volume
  --to FORMAT           zarr (default) or precomputed: one sharded scale
                        (neuroglancer_uint64_sharded_v1, raw chunks), its
                        parameters chosen from --shard-bytes; arrays of
                        [y, x], [z, y, x] or [c, z, y, x]
  --jobs N              shards in flight (default 2, at most the shards to
                        write); memory is about 2 x N decoded shards
  --part i/N            write part i of N: the shards whose linear index in
                        the grid is i modulo N (metadata is written by every
                        part, idempotently, so parts may run in any order;
                        with --multiscale, every level is split this way)
  --parts N             the number of parts, with the index from the batch
                        engine: JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs)
                        or AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch array jobs);
                        SLURM job arrays need no flag (the part is then the
                        task id minus the first id, of the task count); with
                        --parts N, the SLURM task id itself is the part
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
  zarrkit convert data/raw.zarr data/sharded.zarr --part 3/8
  zarrkit convert data/em.zarr data/em.ome.zarr --multiscale 5
  zarrkit convert data/seg.zarr data/seg.ome.zarr --multiscale 5 --labels
  zarrkit convert data/em.zarr precomputed://data/em --to precomputed
  zarrkit convert data/em.zarr precomputed://data/em --to precomputed --multiscale 4
  zarrkit convert precomputed://https://example.org/volume data/volume.zarr`;

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
  to: { type: "string" },
  multiscale: { type: "string" },
  labels: { type: "boolean" },
} as const;

const C = "convert";
const DEFAULT_SHARD_BYTES = 2 ** 30;
const DEFAULT_JOBS = 2;
/** The default index codecs (bytes + crc32c): 16 bytes per inner chunk and a 4-byte checksum. */
const INDEX_ENTRY_BYTES = 16;
const INDEX_CHECKSUM_BYTES = 4;
/** Shard sizing of variable-length elements (strings, bytes) assumes this many bytes each. */
const VARIABLE_ELEMENT_BYTES = 16;

interface Layout {
  chunkShape?: number[];
  shardShape?: number[];
  shardBytes: number;
  /** --codec; undefined: keep each source's compression. */
  codec: string | undefined;
  indexLocation: "start" | "end";
  /** What could not be kept from a source (printed before converting). */
  notes: string[];
}

/** One node of the destination: its metadata document's key and bytes, and for arrays the source. */
interface PlannedNode {
  path: string;
  key: string;
  metadata: Uint8Array;
  source?: ConvertSource;
}

/** One destination shard: settled, checked, and written when not already complete. */
interface Task {
  key: string;
  complete(): Promise<boolean>;
  /** Decoded bytes read and bytes stored (0: all fill value, nothing stored). */
  write(): Promise<{ read: number; stored: number }>;
}

export async function convertCommand(args: readonly string[], out: Output): Promise<number> {
  const runStart = Date.now();
  const { values, positionals } = parseCommand(C, args, OPTIONS, { min: 2, max: 2, names: "<src> <dst>" });
  if (values.help) return out.help(CONVERT_HELP);
  if (values["shard-shape"] !== undefined && values["shard-bytes"] !== undefined) {
    throw new UsageError("--shard-shape and --shard-bytes exclude each other", C);
  }
  const indexLocation = values["index-location"] ?? "end";
  if (indexLocation !== "start" && indexLocation !== "end") {
    throw new UsageError(`--index-location ${JSON.stringify(indexLocation)}: expected start or end`, C);
  }
  const jobs = positiveIntegerFlag(values.jobs, "--jobs", C) ?? DEFAULT_JOBS;
  const shardBytes =
    values["shard-bytes"] === undefined ? DEFAULT_SHARD_BYTES : parseBytes(values["shard-bytes"], "--shard-bytes");
  const to = values.to ?? "zarr";
  if (to !== "zarr" && to !== "precomputed")
    throw new UsageError(`--to ${JSON.stringify(to)}: expected zarr or precomputed`, C);
  // Unset for Zarr: each array keeps its source's compression (the default codec when it has none).
  const codec = values.codec ?? (to === "precomputed" ? "gzip" : undefined);
  if (to === "precomputed") {
    if (codec !== "gzip" && codec !== "none")
      throw new UsageError(
        `--codec ${JSON.stringify(codec)} with --to precomputed: expected gzip or none (the format's data encodings)`,
        C,
      );
    if (values["shard-shape"] !== undefined || values["index-location"] !== undefined) {
      throw new UsageError(
        `--${values["shard-shape"] !== undefined ? "shard-shape" : "index-location"} does not apply to --to precomputed (its sharding parameters are chosen from --shard-bytes)`,
        C,
      );
    }
  } else if (codec !== undefined) {
    parseCodec(codec, 1); // the form is checked before anything is opened
  }
  const levels = positiveIntegerFlag(values.multiscale, "--multiscale", C) ?? 0;
  if (values.labels && levels === 0 && to !== "precomputed")
    throw new UsageError(
      "--labels applies to --multiscale (mode instead of mean) and --to precomputed (a segmentation)",
      C,
    );
  const part = resolvePart(values.part, values.parts, process.env);
  const mode = progressMode(values.progress, C);
  const [srcUrl, dstUrl] = positionals as [string, string];

  const source = await openSource(await resolveUrl(srcUrl, C));
  const archive = archiveDestination(dstUrl, values.overwrite === true, part.count, C);
  const dst = await resolveUrl(archive?.staging ?? dstUrl, C);
  if (dst.precomputed && to !== "precomputed")
    throw new UsageError(`${dstUrl}: a precomputed:// destination needs --to precomputed`, C);
  const store = writableStore(dst);
  const single: ConvertSource | undefined =
    source.kind === "array"
      ? zarrSource(source.array, srcUrl)
      : source.kind === "precomputed"
        ? precomputedSource(source.image, srcUrl)
        : undefined;
  const rank = () => {
    if (single) return single.shape.length;
    throw new UsageError(
      "--chunk-shape and --shard-shape apply to arrays; a group's arrays keep their own chunk shape (or use --shard-bytes)",
      C,
    );
  };

  const layout: Layout = { shardBytes, codec, indexLocation, notes: [] };
  if (values["chunk-shape"] !== undefined)
    layout.chunkShape = parseShape(values["chunk-shape"], "--chunk-shape", rank());
  if (values["shard-shape"] !== undefined)
    layout.shardShape = parseShape(values["shard-shape"], "--shard-shape", rank());

  // Everything is planned (and every flag checked against every array) before the first write.
  const nodes: PlannedNode[] = [];
  let precomputed: PrecomputedPlan | undefined;
  if (to === "precomputed") {
    if (!single) throw new UsageError(`${srcUrl} is a group: --to precomputed converts one array`, C);
    precomputed = planPrecomputed(single, {
      ...(layout.chunkShape && { chunkShape: layout.chunkShape }),
      shardBytes,
      dataEncoding: codec === "none" ? "raw" : "gzip",
      labels: values.labels === true,
      levels,
    });
    nodes.push({ path: "", key: "info", metadata: precomputed.info });
  } else if (levels > 0) {
    if (!single) throw new UsageError(`${srcUrl} is a group: --multiscale makes a pyramid of one array`, C);
    await planPyramid(single, levels, layout, values.labels === true, nodes, srcUrl);
  } else if (single) {
    nodes.push(await planArray("", single, layout));
  } else if (source.kind === "group") {
    await planGroup("", source.group, layout, nodes);
  }

  for (const note of layout.notes) out.error(`zarrkit: ${note}`);
  const overwrite = values.overwrite === true;
  const conversion: Conversion = { store, srcUrl, dstUrl, nodes, overwrite, part, jobs, mode, levels, runStart, out };
  if (precomputed) conversion.precomputed = precomputed;
  if (archive) conversion.archive = archive;
  try {
    return await execute(conversion);
  } catch (error) {
    throw await explainWriteError(error, dst);
  }
}

/** A planned conversion: what to write where, and how. */
interface Conversion {
  store: WritableStore;
  srcUrl: string;
  dstUrl: string;
  nodes: PlannedNode[];
  precomputed?: PrecomputedPlan;
  overwrite: boolean;
  part: Part;
  jobs: number;
  mode: ProgressMode;
  levels: number;
  /** When the command started: temporary files unchanged since well before are an interrupted run's. */
  runStart: number;
  out: Output;
  /** A .zip/.ozx destination: the conversion writes into its staging folder, packed into the archive at the end. */
  archive?: ArchiveDestination;
}

/** Write the planned metadata and the part's shards (skipping complete ones); the exit code. */
async function execute(conversion: Conversion): Promise<number> {
  const { store, srcUrl, dstUrl, nodes, precomputed, part, jobs, mode, levels, out, archive } = conversion;
  await prepareDestination(store, dstUrl, nodes, conversion.overwrite);
  if (part.from !== "") out.error(`part ${part.index}/${part.count} (from ${part.from})`);
  if (store instanceof FileSystemStore) reportSweep(await sweepTemporaryFiles(store.root, conversion.runStart), out);

  // Metadata first, by every part, idempotently: a shard is never stored without its array's zarr.json.
  for (const node of nodes) {
    const existing = await store.get(node.key);
    if (!existing || !sameBytes(existing, node.metadata)) await store.set(node.key, node.metadata);
  }

  // Bytes stored per key, taken by the shard that wrote them (shards in flight write concurrently).
  const storedBytes = new Map<string, number>();
  const counting = withRequestLog(store, (request) => {
    if (request.method === "set") storedBytes.set(request.key, (storedBytes.get(request.key) ?? 0) + request.bytes);
  }) as WritableStore;
  const taskLists: { total: number; tasks: (stop: () => boolean) => Iterable<Task> }[] = [];
  for (const scale of precomputed?.scales ?? []) {
    const total = partSize(scale.shards.length, part);
    taskLists.push({ total, tasks: (stop) => precomputedTasks(store, scale, part, stop) });
  }
  for (const node of nodes) {
    if (!node.source || precomputed) continue;
    const dest = await openArray(counting, node.path);
    const src = node.source;
    taskLists.push({
      total: partSize(
        dest.gridShape.reduce((a, b) => a * b, 1),
        part,
      ),
      tasks: (stop) => zarrTasks(src, dest, storedBytes, part, stop),
    });
  }
  const total = taskLists.reduce((a, t) => a + t.total, 0);
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
    for (const list of taskLists) {
      if (interrupted) break;
      // Never more workers than shards: each would hold a shard's memory, and a huge --jobs would allocate them all.
      await forEachConcurrent(
        list.tasks(() => interrupted),
        Math.max(1, Math.min(jobs, list.total)),
        async (task) => {
          // A killed run may have left this shard's write half-done (the store's lock, a journal): settle it first.
          await store.recover?.(task.key);
          if (await task.complete()) {
            c.done++;
            c.skipped++;
            progress.advance(1, { skipped: 1 }, { key: task.key, shard: "present" });
            return;
          }
          const { read, stored } = await task.write();
          c.done++;
          if (stored > 0) c.written++;
          else c.empty++;
          const shard = stored > 0 ? "written" : "empty";
          progress.advance(1, { [shard]: 1, bytesRead: read, bytesWritten: stored }, { key: task.key, shard });
        },
      );
    }
  } finally {
    process.removeListener("SIGINT", onInterrupt);
    progress.finish();
  }
  const arrays = nodes.filter((n) => n.source).length;
  const what = precomputed
    ? `1 precomputed volume${levels > 0 ? ` of ${levels + 1} scales` : ""}`
    : levels > 0
      ? `1 multiscale image of ${arrays} arrays`
      : nodes.length === 1
        ? "1 array"
        : `${arrays} arrays, ${nodes.length - arrays} ${nodes.length - arrays === 1 ? "group" : "groups"}`;
  const partText = part.count > 1 ? ` (part ${part.index}/${part.count})` : "";
  if (archive && !interrupted) out.error(`wrote ${archive.path}: ${await archive.finish()} bytes`);
  out.error(
    `${interrupted ? "interrupted" : "converted"} ${srcUrl} -> ${dstUrl}: ${what}; shards: ${c.written} written, ${c.skipped} already present, ${c.done} of ${total}${partText}${c.empty ? `; ${c.empty} all fill value, not stored` : ""}`,
  );
  return interrupted ? 130 : 0;
}

/** One line each for the temporary files removed and those kept (none: nothing printed). */
function reportSweep(sweep: SweepReport, out: Output): void {
  const files = (n: number) => `${n} temporary file${n === 1 ? "" : "s"}`;
  if (sweep.removed.length > 0) out.error(`removed ${files(sweep.removed.length)} left by interrupted writes`);
  const first = sweep.kept[0];
  const others = sweep.kept.length > 1 ? "; ..." : "";
  if (first) out.error(`kept ${files(sweep.kept.length)} (${first.key}: ${first.reason}${others})`);
}

/** The part's shards of a Zarr destination array, each read from the source region it covers. */
function* zarrTasks(
  src: ConvertSource,
  dest: ZarrArray,
  storedBytes: Map<string, number>,
  part: Part,
  stop: () => boolean,
): Generator<Task> {
  for (const region of partRegions(dest, part, stop)) {
    yield {
      key: region.key,
      complete: () => shardComplete(dest, region.coords, region.key),
      async write() {
        const start = region.selection.map((s) => s.start ?? 0);
        const data = await src.read(
          start,
          start.map((s, d) => s + region.shape[d]!),
        );
        await dest.set(region.selection, data);
        // A shard all of fill value is not stored (the sharding codec deletes it instead).
        const stored = storedBytes.get(region.key) ?? 0;
        storedBytes.delete(region.key);
        return { read: data.data.length * (src.type.byteSize ?? VARIABLE_ELEMENT_BYTES), stored };
      },
    };
  }
}

/** The part's shard files of a precomputed destination (the i-th of the sorted keys, i modulo N). */
function* precomputedTasks(
  store: WritableStore,
  scale: PrecomputedScale,
  part: Part,
  stop: () => boolean,
): Generator<Task> {
  for (const [i, shard] of scale.shards.entries()) {
    if (stop()) return;
    if (i % part.count !== part.index) continue;
    yield {
      key: shard.key,
      complete: () => precomputedShardComplete(store, scale, shard.key),
      write: () => writePrecomputedShard(store, scale, shard),
    };
  }
}

/**
 * An OME-Zarr 0.5 multiscale image: a group whose attributes describe the
 * pyramid, array "0" (the source, sharded as asked) and arrays "1".."N", each
 * halved on the space axes and computed from the source (see downsampledSource).
 * Levels keep level 0's chunk and shard shapes, clipped to their own shape.
 */
async function planPyramid(
  source: ConvertSource,
  levels: number,
  layout: Layout,
  labels: boolean,
  nodes: PlannedNode[],
  srcUrl: string,
): Promise<void> {
  const axes = omeAxes(source.shape.length, source.dimensionNames, source.label);
  const spatial = axes.map((a) => a.type === "space");
  if (!checkFootprint(levels, spatial)) {
    throw new UsageError(
      `--multiscale ${levels}: an element of the last level would cover ${2 ** levels} elements per space axis, more than one read may hold; use fewer levels`,
      C,
    );
  }
  const method = labels ? "mode" : "mean";
  const names = axes.map((a) => a.name);
  // Named after the source (parts and reruns into another destination agree on it).
  const name =
    srcUrl
      .replace(/\/+$/, "")
      .split("/")
      .at(-1)!
      .replace(/\.ome\.zarr$|\.zarr$/, "") || "image";
  const memory = new MemoryStore();
  await createGroup(memory, "", { attributes: multiscaleAttributes(name, axes, levels, method, source.voxelSize) });
  nodes.push({ path: "", key: "zarr.json", metadata: (await memory.get("zarr.json"))! });
  const base = await planArray("0", { ...source, dimensionNames: names }, layout);
  nodes.push(base);
  const chunk = base.chunkShape!;
  const shard = base.shardShape!;
  for (let k = 1; k <= levels; k++) {
    const level = downsampledSource({ ...source, dimensionNames: names }, k, spatial, method);
    const shape = levelShape(source.shape, k, spatial);
    const chunkShape = chunk.map((n, d) => Math.min(n, shape[d]!));
    const shardShape = shard.map((n, d) => Math.min(n, Math.ceil(shape[d]! / chunkShape[d]!) * chunkShape[d]!));
    nodes.push(await planArray(String(k), level, { ...layout, chunkShape, shardShape }));
  }
}

/** The destination array's zarr.json, built (and so validated) in memory. */
async function planArray(
  path: string,
  src: ConvertSource,
  layout: Layout,
): Promise<PlannedNode & { chunkShape: number[]; shardShape: number[] }> {
  const type = src.type;
  if (type.byteSize === undefined && type.kind !== "string" && type.kind !== "bytes") {
    throw new UnsupportedError(`${path || "the array"}: converting ${type.name} arrays is not supported`);
  }
  const chunkShape = layout.chunkShape ?? [...src.chunkShape];
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
    shardShape = shardShapeForBytes(src.shape, chunkShape, type.byteSize ?? VARIABLE_ELEMENT_BYTES, layout.shardBytes);
  }
  const codecs: CodecMetadata[] =
    layout.codec !== undefined ? parseCodec(layout.codec, type.byteSize ?? 1) : keptCodecs(src, layout);
  // Variable-length elements (v3 string and bytes, v2 "|O" vlen arrays) are framed by the vlen codecs instead of bytes.
  if (type.kind === "string") codecs[0] = { name: "vlen-utf8" };
  else if (type.kind === "bytes") codecs[0] = { name: "vlen-bytes" };
  const memory = new MemoryStore();
  try {
    await createArray(memory, "", {
      shape: [...src.shape],
      dataType: src.dataType,
      chunkShape,
      shardShape,
      indexLocation: layout.indexLocation,
      codecs,
      fillValue: serializeScalar(src.fillValue, type),
      attributes: src.attributes,
      ...(src.dimensionNames && { dimensionNames: [...src.dimensionNames] }),
    });
  } catch (error) {
    if (error instanceof ZarrkitError && !(error instanceof UsageError)) {
      throw new UsageError(`cannot create ${path || "the destination array"} with these options: ${error.message}`, C);
    }
    throw error;
  }
  return {
    path,
    key: metadataKey(path),
    metadata: (await memory.get("zarr.json"))!,
    source: src,
    chunkShape,
    shardShape,
  };
}

/**
 * The source's compression, kept (see sourceCompression); the default codec
 * when the source is uncompressed (a checksum it had is kept after it) or
 * compressed in a way this cannot write (noted).
 */
function keptCodecs(src: ConvertSource, layout: Layout): CodecMetadata[] {
  const elementBytes = src.type.byteSize ?? 1;
  const kept = src.compression ?? { codecs: [] };
  if (kept.note) layout.notes.push(`${src.label}: ${kept.note}; writing ${DEFAULT_CODEC} instead (or choose --codec)`);
  const bytes: CodecMetadata = { name: "bytes", configuration: { endian: "little" } };
  if (kept.codecs.some((c) => c.name !== "crc32c")) return [bytes, ...kept.codecs];
  return [...parseCodec(DEFAULT_CODEC, elementBytes), ...kept.codecs];
}

async function planGroup(
  path: string,
  group: ZarrGroup<ZarrNode>,
  layout: Layout,
  nodes: PlannedNode[],
): Promise<void> {
  const memory = new MemoryStore();
  await createGroup(memory, "", { attributes: group.attributes });
  nodes.push({ path, key: metadataKey(path), metadata: (await memory.get("zarr.json"))! });
  for (const name of await group.childNames()) {
    const child = await group.open(name);
    const childPath = path === "" ? name : `${path}/${name}`;
    if (child instanceof ZarrArray) nodes.push(await planArray(childPath, zarrSource(child, childPath), layout));
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
async function prepareDestination(
  store: WritableStore,
  display: string,
  nodes: PlannedNode[],
  overwrite: boolean,
): Promise<void> {
  let conflict: string | undefined;
  for (const node of nodes) {
    for (const key of [node.key, ...v2Keys(node.path)]) {
      const existing = await store.get(key);
      if (existing === undefined) continue;
      if (key === node.key && sameBytes(existing, node.metadata)) continue;
      conflict = key;
      break;
    }
    if (conflict !== undefined) break;
  }
  let keys: string[] | undefined;
  if (conflict === undefined && (await store.get(nodes[0]!.key)) === undefined && store.list) {
    keys = [];
    for await (const key of store.list("")) {
      keys.push(key);
      if (!overwrite) break;
    }
    // Another part of this conversion, starting at the same time, may have stored its metadata (the root's first)
    // since.
    const root = await store.get(nodes[0]!.key);
    if (keys.length > 0 && !(root && sameBytes(root, nodes[0]!.metadata))) conflict = keys[0];
  }
  if (conflict === undefined) return;
  if (!overwrite) {
    throw new NodeExistsError(
      `destination ${display} already holds other data (${conflict}); pass --overwrite to replace it, or choose another destination`,
      {
        key: conflict,
      },
    );
  }
  if (!store.delete || !store.list)
    throw new StoreError(`cannot overwrite ${display}: the store cannot list and delete its keys`);
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
