import type { CodecMetadata } from "zarrkit";
import { UsageError } from "./errors.js";

const C = "convert";

/** "a,b,c" as positive integers (their count is checked against the array's rank by `convert`). */
export function parseShape(text: string, flag: string): number[] {
  const parts = text.split(",").map((s) => s.trim());
  if (!parts.every((p) => /^\d+$/.test(p) && Number(p) > 0 && Number.isSafeInteger(Number(p)))) {
    throw new UsageError(
      `${flag} ${JSON.stringify(text)}: expected positive integers separated by commas (one per dimension)`,
      C,
    );
  }
  return parts.map(Number);
}

const UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  k: 1e3,
  kb: 1e3,
  kib: 2 ** 10,
  m: 1e6,
  mb: 1e6,
  mib: 2 ** 20,
  g: 1e9,
  gb: 1e9,
  gib: 2 ** 30,
  t: 1e12,
  tb: 1e12,
  tib: 2 ** 40,
};

/** "1GiB", "512MiB", "64M", "1000000" as a byte count. */
export function parseBytes(text: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-zA-Z]*)$/.exec(text.trim());
  const unit = match ? UNITS[match[2]!.toLowerCase()] : undefined;
  const bytes = match && unit !== undefined ? Math.round(Number(match[1]) * unit) : Number.NaN;
  if (!(bytes >= 1) || !Number.isSafeInteger(bytes)) {
    throw new UsageError(`${flag} ${JSON.stringify(text)}: expected a size such as 1GiB, 512MiB or 1000000`, C);
  }
  return bytes;
}

/** The compression of conversions whose source has none (or none that Zarr v3 expresses). */
export const DEFAULT_CODEC = "zstd:3";

/**
 * `--codec`: zstd[:level] | gzip[:level] | blosc[:cname[:clevel[:shuffle]]] |
 * none, optionally followed by "+crc32c" (a checksum of each inner chunk,
 * which `verify --deep` checks), as the inner codec chain.
 */
export function parseCodec(text: string, elementBytes: number): CodecMetadata[] {
  const [compressor, ...suffixes] = text.split("+");
  for (const suffix of suffixes) {
    if (suffix !== "crc32c") {
      const what = JSON.stringify(`+${suffix}`);
      throw new UsageError(`--codec ${JSON.stringify(text)}: ${what} is not +crc32c (a checksum after a codec)`, C);
    }
  }
  if (suffixes.length > 1) throw new UsageError(`--codec ${JSON.stringify(text)}: +crc32c is given more than once`, C);
  const chain = parseCompressor(compressor!, text, elementBytes);
  return suffixes.length === 1 ? [...chain, { name: "crc32c" }] : chain;
}

function parseCompressor(spec: string, text: string, elementBytes: number): CodecMetadata[] {
  const bytes: CodecMetadata = { name: "bytes", configuration: { endian: "little" } };
  const [name, ...args] = spec.split(":");
  const level = (value: string | undefined, min: number, max: number, fallback: number): number => {
    if (value === undefined || value === "") return fallback;
    const n = Number(value);
    if (!/^-?\d+$/.test(value) || n < min || n > max)
      throw new UsageError(
        `--codec ${JSON.stringify(text)}: level ${JSON.stringify(value)} is not an integer from ${min} to ${max}`,
        C,
      );
    return n;
  };
  const surplus = (allowed: number) => {
    if (args.length > allowed)
      throw new UsageError(`--codec ${JSON.stringify(text)}: too many parts (see the forms in --help)`, C);
  };
  switch (name) {
    case "none":
      surplus(0);
      return [bytes];
    case "zstd":
      surplus(1);
      return [bytes, { name: "zstd", configuration: { level: level(args[0], -131072, 22, 3), checksum: false } }];
    case "gzip":
      surplus(1);
      return [bytes, { name: "gzip", configuration: { level: level(args[0], 0, 9, 6) } }];
    case "blosc": {
      surplus(3);
      const cname = args[0] || "zstd";
      if (!["lz4", "lz4hc", "blosclz", "zstd", "zlib"].includes(cname)) {
        throw new UsageError(
          `--codec ${JSON.stringify(text)}: unknown blosc compressor ${JSON.stringify(cname)} ` +
            "(lz4, lz4hc, blosclz, zstd, zlib)",
          C,
        );
      }
      const shuffle = args[2] || (elementBytes === 1 ? "bitshuffle" : "shuffle");
      if (!["noshuffle", "shuffle", "bitshuffle"].includes(shuffle)) {
        throw new UsageError(
          `--codec ${JSON.stringify(text)}: unknown blosc shuffle ${JSON.stringify(shuffle)} ` +
            "(noshuffle, shuffle, bitshuffle)",
          C,
        );
      }
      return [
        bytes,
        {
          name: "blosc",
          configuration: { cname, clevel: level(args[1], 0, 9, 5), shuffle, typesize: elementBytes, blocksize: 0 },
        },
      ];
    }
    default:
      throw new UsageError(
        `--codec ${JSON.stringify(text)}: unknown codec (zstd:LEVEL, gzip:LEVEL, blosc:CNAME:CLEVEL:SHUFFLE or none, ` +
          "each optionally +crc32c)",
        C,
      );
  }
}

/**
 * A shard shape of about `targetBytes` decoded bytes: the inner chunk doubled,
 * one dimension at a time (the smallest shard edge first, the last dimension on
 * ties), while the shard stays within the target and does not outgrow the array
 * (rounded up to whole chunks). Always a multiple of the chunk.
 */
export function shardShapeForBytes(
  shape: readonly number[],
  chunk: readonly number[],
  elementBytes: number,
  targetBytes: number,
): number[] {
  const shard = [...chunk];
  const cap = shape.map((n, d) => Math.max(chunk[d]!, Math.ceil(n / chunk[d]!) * chunk[d]!));
  const bytesOf = (s: readonly number[]) => s.reduce((a, b) => a * b, elementBytes);
  for (;;) {
    let best = -1;
    for (let d = shard.length - 1; d >= 0; d--) {
      if (shard[d]! >= cap[d]!) continue;
      if (best < 0 || shard[d]! < shard[best]!) best = d;
    }
    if (best < 0) return shard;
    const grown = [...shard];
    grown[best] = Math.min(cap[best]!, shard[best]! * 2);
    if (bytesOf(grown) > targetBytes) return shard;
    shard.splice(0, shard.length, ...grown);
  }
}

/** Which part of the destination shards this process writes, and where that came from. */
export interface Part {
  index: number;
  count: number;
  /** "--part", "SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX" or "" (the whole). */
  from: string;
}

function integer(text: string, what: string, min: number): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < min || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`${what} ${JSON.stringify(text)}: expected an integer >= ${min}`, C);
  }
  return Number(text);
}

/**
 * `--part i/N`; else the batch engine's environment: SLURM job arrays
 * (SLURM_ARRAY_TASK_ID minus SLURM_ARRAY_TASK_MIN, of SLURM_ARRAY_TASK_COUNT;
 * with --parts N, SLURM_ARRAY_TASK_ID itself of N, so a resubmitted subset
 * such as --array=2 still runs part 2),
 * Kubernetes Indexed Jobs (JOB_COMPLETION_INDEX with --parts N), AWS Batch
 * array jobs (AWS_BATCH_JOB_ARRAY_INDEX with --parts N); else the whole.
 */
export function resolvePart(part: string | undefined, parts: string | undefined, env: NodeJS.ProcessEnv): Part {
  const check = (p: Part): Part => {
    if (p.index >= p.count)
      throw new UsageError(
        `part ${p.index} of ${p.count}${p.from === "--part" ? "" : ` (from ${p.from})`}: ` +
          "the index must be below the count",
        C,
      );
    return p;
  };
  if (part !== undefined) {
    const match = /^(\d+)\/(\d+)$/.exec(part.trim());
    if (!match) throw new UsageError(`--part ${JSON.stringify(part)}: expected i/N, e.g. 0/4`, C);
    if (parts !== undefined)
      throw new UsageError("--part and --parts exclude each other (--part i/N already gives N)", C);
    return check({
      index: integer(match[1]!, "--part", 0),
      count: integer(match[2]!, "--part count", 1),
      from: "--part",
    });
  }
  const count = parts === undefined ? undefined : integer(parts, "--parts", 1);
  if (env.SLURM_ARRAY_TASK_ID !== undefined && env.SLURM_ARRAY_TASK_ID !== "") {
    const id = integer(env.SLURM_ARRAY_TASK_ID, "SLURM_ARRAY_TASK_ID", 0);
    if (count !== undefined) return check({ index: id, count, from: "SLURM_ARRAY_TASK_ID" });
    const min = env.SLURM_ARRAY_TASK_MIN ? integer(env.SLURM_ARRAY_TASK_MIN, "SLURM_ARRAY_TASK_MIN", 0) : 0;
    if (!env.SLURM_ARRAY_TASK_COUNT)
      throw new UsageError(
        "SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT nor --parts N gives the number of parts",
        C,
      );
    return check({
      index: id - min,
      count: integer(env.SLURM_ARRAY_TASK_COUNT, "SLURM_ARRAY_TASK_COUNT", 1),
      from: "SLURM_ARRAY_TASK_ID",
    });
  }
  for (const name of ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"]) {
    const value = env[name];
    if (value === undefined || value === "") continue;
    if (count === undefined) throw new UsageError(`${name} is set: give the number of parts with --parts N`, C);
    return check({ index: integer(value, name, 0), count, from: name });
  }
  if (count !== undefined)
    throw new UsageError(
      "--parts N needs a part index: SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX " +
        "(or use --part i/N)",
      C,
    );
  return { index: 0, count: 1, from: "" };
}
