import type { DataType } from "zarrkit";
import { parseCommand, positiveIntegerFlag } from "../args.js";
import { type ConvertOptions, type ConvertResult, convert } from "../convert.js";
import { parseBytes, parseCodec, parseShape, resolvePart } from "../convert-options.js";
import { ConvertOptionError, type ConvertOptionName, UsageError } from "../errors.js";
import type { Output } from "../output.js";
import { createProgress, type Progress, type ProgressCounters, progressMode } from "../progress.js";
import type { SweepReport } from "../temp-files.js";

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

/** Each option of the library as its flag (the positionals as in the usage line). */
const FLAGS: Record<ConvertOptionName, string> = {
  source: "<src>",
  destination: "<dst>",
  to: "--to",
  chunkShape: "--chunk-shape",
  shardShape: "--shard-shape",
  shardBytes: "--shard-bytes",
  codecs: "--codec",
  indexLocation: "--index-location",
  multiscale: "--multiscale",
  labels: "--labels",
  ome: "--multiscale",
  part: "--part",
  jobs: "--jobs",
  overwrite: "--overwrite",
};

/** `zarrkit convert`: the flags as `convert`'s options, its progress and result printed; the exit code. */
export async function convertCommand(args: readonly string[], out: Output): Promise<number> {
  const { values, positionals } = parseCommand(C, args, OPTIONS, { min: 2, max: 2, names: "<src> <dst>" });
  if (values.help) return out.help(CONVERT_HELP);
  const to = values.to ?? "zarr";
  if (to !== "zarr" && to !== "precomputed") {
    throw new UsageError(`--to ${JSON.stringify(to)}: expected zarr or precomputed`, C);
  }
  const options: ConvertOptions = { to, overwrite: values.overwrite === true, labels: values.labels === true };
  if (to === "precomputed") {
    const codec = values.codec ?? "gzip";
    if (codec !== "gzip" && codec !== "none") {
      throw new UsageError(
        `--codec ${JSON.stringify(codec)} with --to precomputed: expected gzip or none (the format's data encodings)`,
        C,
      );
    }
    options.codecs = codec === "none" ? [] : [{ name: "gzip" }];
  } else if (values.codec !== undefined) {
    const codec = values.codec;
    parseCodec(codec, 1); // the form is checked before anything is opened
    options.codecs = (type: DataType) => parseCodec(codec, type.byteSize ?? 1).slice(1);
  }
  if (values["chunk-shape"] !== undefined) options.chunkShape = parseShape(values["chunk-shape"], "--chunk-shape");
  if (values["shard-shape"] !== undefined) options.shardShape = parseShape(values["shard-shape"], "--shard-shape");
  if (values["shard-bytes"] !== undefined) options.shardBytes = parseBytes(values["shard-bytes"], "--shard-bytes");
  const indexLocation = values["index-location"];
  if (indexLocation !== undefined) {
    if (indexLocation !== "start" && indexLocation !== "end") {
      throw new UsageError(`--index-location ${JSON.stringify(indexLocation)}: expected start or end`, C);
    }
    options.indexLocation = indexLocation;
  }
  const jobs = positiveIntegerFlag(values.jobs, "--jobs", C);
  if (jobs !== undefined) options.jobs = jobs;
  const levels = positiveIntegerFlag(values.multiscale, "--multiscale", C);
  if (levels !== undefined) options.multiscale = levels;
  const part = resolvePart(values.part, values.parts, process.env);
  options.part = { index: part.index, count: part.count };
  const mode = progressMode(values.progress, C);
  const [srcUrl, dstUrl] = positionals as [string, string];

  let progress: Progress | undefined;
  options.onProgress = (event) => {
    if (event.kind === "start") {
      for (const note of event.notes) out.error(`zarrkit: ${note}`);
      if (part.from !== "") out.error(`part ${part.index}/${part.count} (from ${part.from})`);
      if (event.sweep) reportSweep(event.sweep, out);
      progress = createProgress({ mode, total: event.total, unit: "shards" });
      return;
    }
    const { bytesRead, bytesWritten } = event;
    const counters: ProgressCounters =
      event.shard === "present" ? { skipped: 1 } : { [event.shard]: 1, bytesRead, bytesWritten };
    progress?.advance(1, counters, { key: event.key, shard: event.shard });
  };
  const interrupt = new AbortController();
  options.signal = interrupt.signal;
  const onInterrupt = () => {
    interrupt.abort();
    out.error("zarrkit: interrupted: finishing the shards in flight (Ctrl-C again to stop at once)");
    process.once("SIGINT", () => process.exit(130));
  };
  process.once("SIGINT", onInterrupt);
  let result: ConvertResult;
  try {
    result = await convert(srcUrl, dstUrl, options);
  } catch (error) {
    if (error instanceof ConvertOptionError)
      throw new UsageError(
        error.messageNaming((o) => FLAGS[o]),
        C,
      );
    throw error;
  } finally {
    process.removeListener("SIGINT", onInterrupt);
    progress?.finish();
  }
  const interrupted = interrupt.signal.aborted;
  if (result.archive) out.error(`wrote ${result.archive.path}: ${result.archive.bytes} bytes`);
  out.error(`${interrupted ? "interrupted" : "converted"} ${srcUrl} -> ${dstUrl}: ${summary(result, part)}`);
  return interrupted ? 130 : 0;
}

/** What was converted and the shards' counts, for the last line. */
function summary(result: ConvertResult, part: { index: number; count: number }): string {
  const { arrays, groups, levels, shards } = result;
  const what =
    result.to === "precomputed"
      ? `1 precomputed volume${levels > 0 ? ` of ${levels + 1} scales` : ""}`
      : levels > 0
        ? `1 multiscale image of ${arrays} arrays`
        : arrays + groups === 1
          ? "1 array"
          : `${arrays} arrays, ${groups} ${groups === 1 ? "group" : "groups"}`;
  const done = shards.written + shards.present + shards.empty;
  const partText = part.count > 1 ? ` (part ${part.index}/${part.count})` : "";
  const empty = shards.empty ? `; ${shards.empty} all fill value, not stored` : "";
  return (
    `${what}; shards: ${shards.written} written, ${shards.present} already present, ${done} of ${shards.total}` +
    `${partText}${empty}`
  );
}

/** One line each for the temporary files removed and those kept (none: nothing printed). */
function reportSweep(sweep: SweepReport, out: Output): void {
  const files = (n: number) => `${n} temporary file${n === 1 ? "" : "s"}`;
  if (sweep.removed.length > 0) out.error(`removed ${files(sweep.removed.length)} left by interrupted writes`);
  const first = sweep.kept[0];
  const others = sweep.kept.length > 1 ? "; ..." : "";
  if (first) out.error(`kept ${files(sweep.kept.length)} (${first.key}: ${first.reason}${others})`);
}
