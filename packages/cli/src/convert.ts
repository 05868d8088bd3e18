// The conversion as a library: `convert` plans every destination node from the source and the options (checking
// all of them before the first write), writes the metadata, then the shards of the part asked for, skipping those
// already complete. The command line (commands/convert.ts) parses flags into these options and prints.
import { packedShardByteSize, describeShard } from "@zarrkit/sharding";
import {
  type CodecMetadata,
  createArray,
  createGroup,
  type DataType,
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
import { forEachConcurrent, sameBytes } from "@zarrkit/core/internal";
import { type ArchiveDestination, archiveDestination } from "./archive-destination.js";
import { DEFAULT_CODEC, parseCodec, shardShapeForBytes } from "./convert-options.js";
import { type ConvertSource, precomputedSource, zarrSource } from "./convert-source.js";
import { checkFootprint, downsampledSource, levelShape } from "./downsample.js";
import { ConvertOptionError, type ConvertOptionName } from "./errors.js";
import { multiscaleAttributes, omeAxes } from "./ome.js";
import {
  type PrecomputedOptions,
  type PrecomputedPlan,
  type PrecomputedScale,
  planPrecomputed,
  precomputedShardComplete,
  writePrecomputedShard,
} from "./precomputed-target.js";
import { openSource } from "./source.js";
import { type SweepReport, sweepTemporaryFiles } from "./temp-files.js";
import { resolveUrl, writableStore } from "./url.js";
import { explainWriteError } from "./write-errors.js";

/** Decoded bytes per shard when neither `shardShape` nor `shardBytes` is given. */
export const DEFAULT_SHARD_BYTES = 2 ** 30;
/** Shards in flight when `jobs` is not given. */
export const DEFAULT_JOBS = 2;
/** Shard sizing of variable-length elements (strings, bytes) assumes this many bytes each. */
const VARIABLE_ELEMENT_BYTES = 16;

/** How `convert` lays out and writes the destination. Every option is checked before anything is written. */
export interface ConvertOptions {
  /** "zarr" (default): sharded Zarr v3; "precomputed": a sharded Neuroglancer precomputed volume (one array). */
  to?: "zarr" | "precomputed";
  /** Inner chunk shape (default: the source's chunk shape). Arrays only: a group's arrays keep their own. */
  chunkShape?: readonly number[];
  /** Shard shape, a multiple of the inner chunk shape. Excludes `shardBytes`; not with `to: "precomputed"`. */
  shardShape?: readonly number[];
  /** Or: shards of about this many decoded bytes, a multiple of the chunk shape (default 1 GiB). */
  shardBytes?: number;
  /**
   * The inner chunks' bytes-to-bytes codecs (compressors, checksums), after the `bytes` (or vlen) serializer that
   * `convert` adds; blosc's `typesize` is set per array when absent. A function chooses them per array's data type.
   * Default: the source's compression kept (v2 blosc, zstd, gzip, zlib; v3 blosc, zstd, gzip, crc32c), `zstd`
   * level 3 for an uncompressed source. With `to: "precomputed"`: `[{ name: "gzip" }]` (default) or `[]` (raw).
   */
  codecs?: readonly CodecMetadata[] | ((dataType: DataType) => CodecMetadata[]);
  /** Where each shard's index sits: "end" (default) or "start". */
  indexLocation?: "start" | "end";
  /**
   * Also write this many downsampled levels (default 0): the destination becomes an OME-Zarr 0.5 image (a group
   * of arrays "0" = the source and "1".."N", each halved on the space axes and computed from the source), or with
   * `to: "precomputed"` scales s0..sN of one volume.
   */
  multiscale?: number;
  /** With `multiscale`: the most frequent value instead of the mean; with `to: "precomputed"`: a segmentation. */
  labels?: boolean;
  /** With `multiscale`: the OME-Zarr image's metadata (default name: the source's last path segment). */
  ome?: {
    /** The image's name in its multiscales metadata. */
    name?: string;
  };
  /**
   * Write part `index` of `count` (default: the whole): the shards whose linear index in the grid is `index`
   * modulo `count`. Metadata is written by every part, idempotently, so parts may run in any order or at once.
   */
  part?: {
    /** This part's index, from 0. */
    index: number;
    /** The number of parts. */
    count: number;
  };
  /** Shards in flight (default 2, at most the shards to write); memory is about 2 x jobs decoded shards. */
  jobs?: number;
  /**
   * Replace a destination that holds something else (a destination holding this conversion is resumed either
   * way). Not with parts running at once.
   */
  overwrite?: boolean;
  /** Called once before the first shard (`kind: "start"`) and after each shard of the part (`kind: "shard"`). */
  onProgress?: (event: ConvertProgress) => void;
  /**
   * Stops the conversion: the shards in flight are finished, no more are started, and `convert` resolves with
   * `aborted: true`. Running it again resumes. Already aborted when `convert` is called: rejects with its reason.
   */
  signal?: AbortSignal;
}

/** What `convert` reports while it runs. */
export type ConvertProgress =
  | {
      /** Before the first shard. */
      kind: "start";
      /** Shards this part writes (or finds present) in all. */
      total: number;
      /** What could not be kept from the source (e.g. a compressor without a Zarr v3 codec here). */
      notes: string[];
      /** The temporary files that killed runs left in a filesystem destination, removed or kept. */
      sweep?: SweepReport;
    }
  | {
      /** After one shard. */
      kind: "shard";
      /** The shard's store key. */
      key: string;
      /** "written", "present" (complete already: skipped) or "empty" (all fill value: not stored). */
      shard: "written" | "present" | "empty";
      /** Shards done so far, of `total`. */
      done: number;
      /** Shards this part writes in all. */
      total: number;
      /** Decoded bytes read from the source for this shard (0 when present). */
      bytesRead: number;
      /** Bytes stored for this shard. */
      bytesWritten: number;
    };

/** What `convert` did. */
export interface ConvertResult {
  /** The destination's format. */
  to: "zarr" | "precomputed";
  /** Arrays written (precomputed: 1 volume). */
  arrays: number;
  /** Groups written (an OME-Zarr image is one group). */
  groups: number;
  /** Downsampled levels written after level 0. */
  levels: number;
  /** Shards of this part: in all, written, found complete, and all fill value (not stored). */
  shards: {
    /** The part's shards. */
    total: number;
    /** Written by this call. */
    written: number;
    /** Found complete, skipped. */
    present: number;
    /** All fill value: not stored. */
    empty: number;
  };
  /** The signal stopped the conversion before every shard was done. */
  aborted: boolean;
  /** What could not be kept from the source. */
  notes: string[];
  /** A `.zip` or `.ozx` destination: the archive's path and size in bytes (absent when aborted). */
  archive?: {
    /** The archive's absolute path. */
    path: string;
    /** Its size in bytes. */
    bytes: number;
  };
}

/** What `convert` reads: a store URL (a path, file://, http(s)://, s3://, precomputed://) or an opened node. */
export type ConvertInput = string | ZarrArray | ZarrGroup<ZarrNode>;

/** Where `convert` writes: a store URL (a path, file://, s3://, precomputed://, a local .zip/.ozx) or a store. */
export type ConvertOutput = string | WritableStore;

/**
 * Copy the array or group (everything below it, attributes kept) at `source` into sharded Zarr v3, an OME-Zarr
 * pyramid or a sharded precomputed volume at `destination`. Each shard is read, encoded in memory and stored with
 * one write, so a shard is absent or complete: calling it again after a failure or kill skips every complete shard.
 * Shards all of fill value are not stored. Bad options are a `ConvertOptionError` naming the option, before
 * anything is written; a destination holding something else is a `NodeExistsError` unless `overwrite`.
 */
export async function convert(
  source: ConvertInput,
  destination: ConvertOutput,
  options: ConvertOptions = {},
): Promise<ConvertResult> {
  const runStart = Date.now();
  options.signal?.throwIfAborted();
  const checked = checkOptions(options);
  const { to, levels, part } = checked;
  const srcLabel = typeof source === "string" ? source : source.path || "the source";
  const opened = typeof source === "string" ? await openSource(await resolveUrl(source, "convert")) : undefined;
  let single: ConvertSource | undefined;
  let group: ZarrGroup<ZarrNode> | undefined;
  if (opened?.kind === "array") single = zarrSource(opened.array, srcLabel);
  else if (opened?.kind === "precomputed") single = precomputedSource(opened.image, srcLabel);
  else if (opened?.kind === "group") group = opened.group;
  else if (source instanceof ZarrArray) single = zarrSource(source, srcLabel);
  else if (typeof source !== "string") group = source;

  let archive: ArchiveDestination | undefined;
  let store: WritableStore;
  let explain = async (error: unknown): Promise<unknown> => error;
  const dstLabel = typeof destination === "string" ? destination : "the destination store";
  if (typeof destination === "string") {
    archive = archiveDestination(destination, options.overwrite === true, part.count);
    const dst = await resolveUrl(archive?.staging ?? destination, "convert");
    if (dst.precomputed && to !== "precomputed") {
      throw new ConvertOptionError(
        "to",
        (n) => `${destination}: a precomputed:// destination needs ${n("to")} precomputed`,
      );
    }
    store = writableStore(dst);
    explain = (error) => explainWriteError(error, dst);
  } else {
    store = destination;
  }

  const sharding: ShardingPlan = { ...checked.sharding, notes: [] };
  if (single) {
    if (checked.chunkShape) sharding.chunkShape = shapeFor(checked.chunkShape, "chunkShape", single.shape.length);
    if (checked.shardShape) sharding.shardShape = shapeFor(checked.shardShape, "shardShape", single.shape.length);
  } else if (checked.chunkShape || checked.shardShape) {
    const option = checked.chunkShape ? "chunkShape" : "shardShape";
    throw new ConvertOptionError(
      option,
      (n) =>
        `${n("chunkShape")} and ${n("shardShape")} apply to arrays; a group's arrays keep their own chunk shape ` +
        `(or use ${n("shardBytes")})`,
    );
  }

  // Everything is planned (and every option checked against every array) before the first write.
  const nodes: PlannedNode[] = [];
  let precomputed: PrecomputedPlan | undefined;
  if (to === "precomputed") {
    if (!single)
      throw new ConvertOptionError("to", (n) => `${srcLabel} is a group: ${n("to")} precomputed converts one array`);
    precomputed = planPrecomputed(single, {
      ...(sharding.chunkShape && { chunkShape: sharding.chunkShape }),
      shardBytes: sharding.shardBytes,
      dataEncoding: checked.dataEncoding,
      labels: options.labels === true,
      levels,
    });
    nodes.push({ path: "", key: "info", metadata: precomputed.info });
  } else if (levels > 0) {
    if (!single) {
      throw new ConvertOptionError(
        "multiscale",
        (n) => `${srcLabel} is a group: ${n("multiscale")} makes a pyramid of one array`,
      );
    }
    const name = options.ome?.name ?? imageName(srcLabel);
    await planPyramid(single, levels, sharding, options.labels === true, nodes, name);
  } else if (single) {
    nodes.push(await planArray("", single, sharding));
  } else if (group) {
    await planGroup("", group, sharding, nodes);
  }

  const conversion: Conversion = {
    store,
    dstLabel,
    nodes,
    overwrite: options.overwrite === true,
    part,
    jobs: checked.jobs,
    levels,
    runStart,
    notes: sharding.notes,
    ...(precomputed && { precomputed }),
    ...(archive && { archive }),
    ...(options.onProgress && { onProgress: options.onProgress }),
    ...(options.signal && { signal: options.signal }),
  };
  try {
    return await execute(conversion);
  } catch (error) {
    throw await explain(error);
  }
}

/**
 * Write a sharded precomputed volume of `source` (and with `levels` its downsampled scales) into `store`: the
 * `info` document, then every shard file not already complete, `jobs` at once (default 2). A rerun after a kill
 * writes only the missing shards. Returns the shards written and found complete.
 */
export async function writePrecomputed(
  source: ConvertSource,
  store: WritableStore,
  options: PrecomputedOptions & { jobs?: number },
): Promise<{
  /** Shard files written. */
  written: number;
  /** Shard files found complete, skipped. */
  present: number;
}> {
  const jobs = options.jobs ?? DEFAULT_JOBS;
  if (!Number.isSafeInteger(jobs) || jobs < 1) {
    throw new ConvertOptionError("jobs", (n) => `${n("jobs")} ${jobs}: expected a positive integer`);
  }
  const plan = planPrecomputed(source, options);
  await store.set("info", plan.info);
  const whole = { index: 0, count: 1 };
  const counts = { written: 0, present: 0 };
  for (const scale of plan.scales) {
    await forEachConcurrent(
      precomputedTasks(store, scale, whole, () => false),
      jobs,
      async (task) => {
        // A killed run may have left this shard's write half-done: settle it first.
        await store.recover?.(task.key);
        if (await task.complete()) {
          counts.present++;
        } else {
          await task.write();
          counts.written++;
        }
      },
    );
  }
  return counts;
}

/** Options checked on their own (before anything is opened), with their defaults. */
interface CheckedOptions {
  to: "zarr" | "precomputed";
  levels: number;
  part: { index: number; count: number };
  jobs: number;
  chunkShape?: readonly number[];
  shardShape?: readonly number[];
  dataEncoding: "gzip" | "raw";
  sharding: Omit<ShardingPlan, "notes" | "chunkShape" | "shardShape">;
}

function checkOptions(options: ConvertOptions): CheckedOptions {
  const to = options.to ?? "zarr";
  if (to !== "zarr" && to !== "precomputed") {
    throw new ConvertOptionError("to", (n) => `${n("to")} ${JSON.stringify(to)}: expected zarr or precomputed`);
  }
  const positive = (value: number | undefined, option: ConvertOptionName, fallback: number, min = 1): number => {
    if (value === undefined) return fallback;
    if (!Number.isSafeInteger(value) || value < min) {
      const what = min === 0 ? "a non-negative integer" : "a positive integer";
      throw new ConvertOptionError(option, (n) => `${n(option)} ${value}: expected ${what}`);
    }
    return value;
  };
  if (options.shardShape !== undefined && options.shardBytes !== undefined) {
    throw new ConvertOptionError("shardShape", (n) => `${n("shardShape")} and ${n("shardBytes")} exclude each other`);
  }
  const indexLocation = options.indexLocation ?? "end";
  if (indexLocation !== "start" && indexLocation !== "end") {
    throw new ConvertOptionError(
      "indexLocation",
      (n) => `${n("indexLocation")} ${JSON.stringify(indexLocation)}: expected start or end`,
    );
  }
  const levels = positive(options.multiscale, "multiscale", 0, 0);
  const jobs = positive(options.jobs, "jobs", DEFAULT_JOBS);
  const shardBytes = positive(options.shardBytes, "shardBytes", DEFAULT_SHARD_BYTES);
  const part = options.part ?? { index: 0, count: 1 };
  const count = positive(part.count, "part", 1);
  const index = positive(part.index, "part", 0, 0);
  if (index >= count) {
    throw new ConvertOptionError("part", (n) => `${n("part")} ${index} of ${count}: the index must be below the count`);
  }
  let dataEncoding: "gzip" | "raw" = "gzip";
  if (to === "precomputed") {
    const codecs = typeof options.codecs === "function" ? undefined : options.codecs;
    if (
      typeof options.codecs === "function" ||
      (codecs && (codecs.length > 1 || (codecs[0] && codecs[0].name !== "gzip")))
    ) {
      throw new ConvertOptionError(
        "codecs",
        (n) => `${n("codecs")} with ${n("to")} precomputed: expected gzip or none (the format's data encodings)`,
      );
    }
    if (codecs?.length === 0) dataEncoding = "raw";
    for (const option of ["shardShape", "indexLocation"] as const) {
      if (options[option] === undefined) continue;
      throw new ConvertOptionError(
        option,
        (n) =>
          `${n(option)} does not apply to ${n("to")} precomputed (its sharding parameters are chosen from ` +
          `${n("shardBytes")})`,
      );
    }
  }
  if (options.labels && levels === 0 && to !== "precomputed") {
    throw new ConvertOptionError(
      "labels",
      (n) =>
        `${n("labels")} applies to ${n("multiscale")} (mode instead of mean) and ${n("to")} precomputed ` +
        "(a segmentation)",
    );
  }
  const codecs = options.codecs;
  return {
    to,
    levels,
    part: { index, count },
    jobs,
    ...(options.chunkShape && { chunkShape: options.chunkShape }),
    ...(options.shardShape && { shardShape: options.shardShape }),
    dataEncoding,
    sharding: { shardBytes, indexLocation, ...(codecs !== undefined && to === "zarr" && { codecs }) },
  };
}

/** A shape option checked against the source's rank. */
function shapeFor(shape: readonly number[], option: "chunkShape" | "shardShape", rank: number): number[] {
  if (shape.length !== rank || !shape.every((n) => Number.isSafeInteger(n) && n > 0)) {
    throw new ConvertOptionError(
      option,
      (n) => `${n(option)} ${JSON.stringify(shape.join(","))}: expected ${rank} positive integers (one per dimension)`,
    );
  }
  return [...shape];
}

/** An OME-Zarr image's default name: the source's last path segment without .zarr (parts and reruns agree on it). */
function imageName(label: string): string {
  return (
    label
      .replace(/\/+$/, "")
      .split("/")
      .at(-1)!
      .replace(/\.ome\.zarr$|\.zarr$/, "") || "image"
  );
}

/** How each destination array is chunked, sharded and compressed. */
interface ShardingPlan {
  chunkShape?: number[];
  shardShape?: number[];
  shardBytes: number;
  /** Undefined: keep each source's compression. */
  codecs?: readonly CodecMetadata[] | ((dataType: DataType) => CodecMetadata[]);
  indexLocation: "start" | "end";
  /** What could not be kept from a source. */
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

/** A planned conversion: what to write where, and how. */
interface Conversion {
  store: WritableStore;
  dstLabel: string;
  nodes: PlannedNode[];
  precomputed?: PrecomputedPlan;
  overwrite: boolean;
  part: { index: number; count: number };
  jobs: number;
  levels: number;
  /** When the conversion started: temporary files unchanged since well before are an interrupted run's. */
  runStart: number;
  notes: string[];
  /** A .zip/.ozx destination: the conversion writes into its staging folder, packed into the archive at the end. */
  archive?: ArchiveDestination;
  onProgress?: (event: ConvertProgress) => void;
  signal?: AbortSignal;
}

/** Write the planned metadata and the part's shards (skipping complete ones). */
async function execute(conversion: Conversion): Promise<ConvertResult> {
  const { store, nodes, precomputed, part, jobs, archive, signal } = conversion;
  await prepareDestination(store, conversion.dstLabel, nodes, conversion.overwrite);
  const sweep =
    store instanceof FileSystemStore ? await sweepTemporaryFiles(store.root, conversion.runStart) : undefined;

  // Metadata first, by every part, idempotently: a shard is never stored without its array's zarr.json.
  for (const node of nodes) {
    const existing = await store.get(node.key);
    if (!existing || !sameBytes(existing, node.metadata)) await store.set(node.key, node.metadata);
  }

  // Bytes stored per key, taken by the shard that wrote them (shards in flight write concurrently).
  const storedBytes = new Map<string, number>();
  const counting = withRequestLog(store, (request) => {
    if (request.method === "set" || request.method === "setParts")
      storedBytes.set(request.key, (storedBytes.get(request.key) ?? 0) + request.bytes);
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
    const cells = dest.gridShape.reduce((a, b) => a * b, 1);
    taskLists.push({ total: partSize(cells, part), tasks: (stop) => zarrTasks(src, dest, storedBytes, part, stop) });
  }
  const total = taskLists.reduce((a, t) => a + t.total, 0);
  const shards = { total, written: 0, present: 0, empty: 0 };
  let done = 0;
  conversion.onProgress?.({ kind: "start", total, notes: conversion.notes, ...(sweep && { sweep }) });
  const stopped = () => signal?.aborted === true;
  for (const list of taskLists) {
    if (stopped()) break;
    // Never more workers than shards: each would hold a shard's memory, and a huge `jobs` would allocate them all.
    await forEachConcurrent(list.tasks(stopped), Math.max(1, Math.min(jobs, list.total)), async (task) => {
      // A killed run may have left this shard's write half-done (the store's lock, a journal): settle it first.
      await store.recover?.(task.key);
      if (await task.complete()) {
        shards.present++;
        done++;
        conversion.onProgress?.({
          kind: "shard",
          key: task.key,
          shard: "present",
          done,
          total,
          bytesRead: 0,
          bytesWritten: 0,
        });
        return;
      }
      const { read, stored } = await task.write();
      const shard = stored > 0 ? "written" : "empty";
      shards[shard]++;
      done++;
      conversion.onProgress?.({
        kind: "shard",
        key: task.key,
        shard,
        done,
        total,
        bytesRead: read,
        bytesWritten: stored,
      });
    });
  }
  const aborted = done < total && stopped();
  const arrays = precomputed ? 1 : nodes.filter((n) => n.source).length;
  const result: ConvertResult = {
    to: precomputed ? "precomputed" : "zarr",
    arrays,
    groups: precomputed ? 0 : nodes.length - arrays,
    levels: conversion.levels,
    shards,
    aborted,
    notes: conversion.notes,
  };
  if (archive && !aborted) result.archive = { path: archive.path, bytes: await archive.finish() };
  return result;
}

/** The part's shards of a Zarr destination array, each read from the source region it covers. */
function* zarrTasks(
  src: ConvertSource,
  dest: ZarrArray,
  storedBytes: Map<string, number>,
  part: { index: number; count: number },
  stop: () => boolean,
): Generator<Task> {
  for (const region of partRegions(dest, part, stop)) {
    yield {
      key: region.key,
      complete: () => shardComplete(dest, region.coords),
      async write() {
        const start = region.selection.map((s) => s.start ?? 0);
        const stopAt = start.map((s, d) => s + region.shape[d]!);
        const data = await src.read(start, stopAt);
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
  part: { index: number; count: number },
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
  sharding: ShardingPlan,
  labels: boolean,
  nodes: PlannedNode[],
  name: string,
): Promise<void> {
  const axes = omeAxes(source.shape.length, source.dimensionNames, source.label);
  const spatial = axes.map((a) => a.type === "space");
  if (!checkFootprint(levels, spatial)) {
    throw new ConvertOptionError(
      "multiscale",
      (n) =>
        `${n("multiscale")} ${levels}: an element of the last level would cover ${2 ** levels} elements per space ` +
        "axis, more than one read may hold; use fewer levels",
    );
  }
  const method = labels ? "mode" : "mean";
  const names = axes.map((a) => a.name);
  const memory = new MemoryStore();
  await createGroup(memory, "", { attributes: multiscaleAttributes(name, axes, levels, method, source.voxelSize) });
  nodes.push({ path: "", key: "zarr.json", metadata: (await memory.get("zarr.json"))! });
  const base = await planArray("0", { ...source, dimensionNames: names }, sharding);
  nodes.push(base);
  const chunk = base.chunkShape;
  const shard = base.shardShape;
  for (let k = 1; k <= levels; k++) {
    const level = downsampledSource({ ...source, dimensionNames: names }, k, spatial, method);
    const shape = levelShape(source.shape, k, spatial);
    const chunkShape = chunk.map((n, d) => Math.min(n, shape[d]!));
    const shardShape = shard.map((n, d) => Math.min(n, Math.ceil(shape[d]! / chunkShape[d]!) * chunkShape[d]!));
    nodes.push(await planArray(String(k), level, { ...sharding, chunkShape, shardShape }));
  }
}

/** The destination array's zarr.json, built (and so validated) in memory. */
async function planArray(
  path: string,
  src: ConvertSource,
  sharding: ShardingPlan,
): Promise<PlannedNode & { chunkShape: number[]; shardShape: number[] }> {
  const type = src.type;
  if (type.byteSize === undefined && type.kind !== "string" && type.kind !== "bytes") {
    throw new UnsupportedError(`${path || "the array"}: converting ${type.name} arrays is not supported`);
  }
  const chunkShape = sharding.chunkShape ?? [...src.chunkShape];
  let shardShape = sharding.shardShape;
  if (shardShape) {
    const bad = shardShape.findIndex((n, d) => n % chunkShape[d]! !== 0);
    if (bad >= 0) {
      const shard = shardShape;
      throw new ConvertOptionError(
        "shardShape",
        (n) =>
          `${n("shardShape")} ${shard.join(",")} is not a multiple of the chunk shape ${chunkShape.join(",")} ` +
          `(dimension ${bad}: ${shard[bad]} is not a multiple of ${chunkShape[bad]})`,
      );
    }
  } else {
    const elementBytes = type.byteSize ?? VARIABLE_ELEMENT_BYTES;
    shardShape = shardShapeForBytes(src.shape, chunkShape, elementBytes, sharding.shardBytes);
  }
  const bytes: CodecMetadata = { name: "bytes", configuration: { endian: "little" } };
  // Variable-length elements (v3 string and bytes, v2 "|O" vlen arrays) are framed by the vlen codecs instead.
  const serializer: CodecMetadata =
    type.kind === "string" ? { name: "vlen-utf8" } : type.kind === "bytes" ? { name: "vlen-bytes" } : bytes;
  const chosen = sharding.codecs === undefined ? keptCodecs(src, sharding) : chosenCodecs(sharding.codecs, type);
  const codecs = [serializer, ...chosen];
  const memory = new MemoryStore();
  try {
    await createArray(memory, "", {
      shape: [...src.shape],
      dataType: src.dataType,
      chunkShape,
      shardShape,
      indexLocation: sharding.indexLocation,
      codecs,
      fillValue: serializeScalar(src.fillValue, type),
      attributes: src.attributes,
      ...(src.dimensionNames && { dimensionNames: [...src.dimensionNames] }),
    });
  } catch (error) {
    if (error instanceof ZarrkitError && !(error instanceof ConvertOptionError)) {
      const option = sharding.codecs !== undefined && error.field?.includes("codecs") ? "codecs" : "chunkShape";
      const what = path || "the destination array";
      throw new ConvertOptionError(option, () => `cannot create ${what} with these options: ${error.message}`);
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

/** The `codecs` option for one array: the function's choice, or the list with blosc's typesize filled in. */
function chosenCodecs(
  codecs: readonly CodecMetadata[] | ((dataType: DataType) => CodecMetadata[]),
  type: DataType,
): CodecMetadata[] {
  if (typeof codecs === "function") return codecs(type);
  return codecs.map((c) =>
    c.name === "blosc" && (c.configuration as { typesize?: number } | undefined)?.typesize === undefined
      ? { ...c, configuration: { ...c.configuration, typesize: type.byteSize ?? 1 } }
      : c,
  );
}

/**
 * The source's compression, kept (see sourceCompression); the default codec
 * when the source is uncompressed (a checksum it had is kept after it) or
 * compressed in a way this cannot write (noted).
 */
function keptCodecs(src: ConvertSource, sharding: ShardingPlan): CodecMetadata[] {
  const kept = src.compression ?? { codecs: [] };
  if (kept.note)
    sharding.notes.push(`${src.label}: ${kept.note}; writing ${DEFAULT_CODEC} instead (or choose the codecs)`);
  if (kept.codecs.some((c) => c.name !== "crc32c")) return [...kept.codecs];
  return [...parseCodec(DEFAULT_CODEC, src.type.byteSize ?? 1).slice(1), ...kept.codecs];
}

async function planGroup(
  path: string,
  group: ZarrGroup<ZarrNode>,
  sharding: ShardingPlan,
  nodes: PlannedNode[],
): Promise<void> {
  const memory = new MemoryStore();
  await createGroup(memory, "", { attributes: group.attributes });
  nodes.push({ path, key: metadataKey(path), metadata: (await memory.get("zarr.json"))! });
  for (const name of await group.childNames()) {
    const child = await group.open(name);
    const childPath = path === "" ? name : `${path}/${name}`;
    if (child instanceof ZarrArray) nodes.push(await planArray(childPath, zarrSource(child, childPath), sharding));
    else await planGroup(childPath, child as ZarrGroup<ZarrNode>, sharding, nodes);
  }
}

function metadataKey(path: string): string {
  return path === "" ? "zarr.json" : `${path}/zarr.json`;
}

/**
 * A destination is this conversion (resumed) when every metadata document
 * already there equals the planned one; anything else there (other
 * documents, or keys without a zarr.json at the root) is another node:
 * refused, or with `overwrite` deleted first.
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
      `destination ${display} already holds other data (${conflict}); pass --overwrite to replace it, ` +
        "or choose another destination",
      { key: conflict },
    );
  }
  if (!store.delete || !store.list) {
    throw new StoreError(`cannot overwrite ${display}: the store cannot list and delete its keys`);
  }
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
function partSize(cells: number, part: { index: number; count: number }): number {
  return cells > part.index ? Math.floor((cells - 1 - part.index) / part.count) + 1 : 0;
}

/** The regions of the part's shards (linear index i modulo N), lazily, until `stop` says so. */
function* partRegions(array: ZarrArray, part: { index: number; count: number }, stop: () => boolean) {
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
async function shardComplete(array: ZarrArray, coords: number[]): Promise<boolean> {
  try {
    const shard = await describeShard(array, coords);
    if (!shard.exists) return false;
    const size = array.store.size ? await array.store.size(shard.key) : (await array.store.get(shard.key))?.length;
    return size === packedShardByteSize(shard);
  } catch (error) {
    if (error instanceof ZarrkitError) return false;
    throw error;
  }
}
