import type { ZarrArray, ZarrGroup, ZarrNode } from "zarrkit";
import type { PrecomputedImage } from "@zarrkit/neuroglancer";
import { parseCommand } from "../args.js";
import { UsageError } from "../errors.js";
import type { Output } from "../output.js";
import { shardStatistics, type ShardStatistics } from "../shards.js";
import { codecsOf, formatName, openSource } from "../source.js";
import { resolveUrl } from "../url.js";

export const INFO_HELP = `Usage: zarrkit info <url> [--json]

What the node at <url> is (Zarr v3 or v2 array or group, Neuroglancer
precomputed volume) and, for arrays, shape, data type, chunk grid, codecs and
fill value. For sharded arrays it reads every shard's index and reports shards
and inner chunks present, stored bytes, bytes per inner chunk, compression
ratio and index location.

Options:
  --json          print one JSON object instead of text
  --concurrency N shard indexes read at once (default 16)
  --debug         print stack traces of errors
  -h, --help      show this help

Examples:
  zarrkit info data/image.zarr
  zarrkit info https://example.org/data/image.zarr --json
  zarrkit info s3://bucket/image.zarr
  zarrkit info precomputed://https://example.org/volume`;

const OPTIONS = { json: { type: "boolean" }, concurrency: { type: "string" } } as const;

export async function infoCommand(args: readonly string[], out: Output): Promise<number> {
  const { values, positionals } = parseCommand("info", args, OPTIONS, { min: 1, max: 1, names: "<url>" });
  if (values.help) return out.help(INFO_HELP);
  const concurrency = positiveInt(values.concurrency, "--concurrency");
  const source = await openSource(await resolveUrl(positionals[0]!, "info"));
  let report: Record<string, unknown>;
  if (source.kind === "array") report = await arrayReport(source.array, concurrency);
  else if (source.kind === "group") report = await groupReport(source.group);
  else report = precomputedReport(source.image);
  out.write(values.json ? JSON.stringify(report) : textReport(report));
  return 0;
}


/** A positive integer flag value, or undefined when absent. */
export function positiveInt(value: string | undefined, flag: string, command = "info"): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${flag} must be a positive integer, got ${JSON.stringify(value)}`, command);
  return Number(value);
}

export async function arrayReport(array: ZarrArray, concurrency?: number): Promise<Record<string, unknown>> {
  const metadata = array.metadata;
  const sharded = array.shardShape !== undefined;
  let stats: ShardStatistics | undefined;
  if (sharded) stats = await shardStatistics(array, concurrency === undefined ? {} : { concurrency });
  return {
    format: formatName(array),
    node: "array",
    shape: array.shape,
    dataType: array.dataType,
    chunkShape: array.chunkShape,
    shardShape: array.shardShape ?? null,
    chunkGrid: metadata.zarr_format === 3 ? metadata.chunk_grid : { name: "regular", configuration: { chunk_shape: metadata.chunks } },
    gridShape: array.gridShape,
    codecs: codecsOf(array),
    fillValue: metadata.fill_value ?? null,
    ...(metadata.zarr_format === 2 && { dtype: metadata.dtype, order: metadata.order }),
    ...(array.dimensionNames && { dimensionNames: array.dimensionNames }),
    shards: stats ? stats.shards : null,
    innerChunks: stats ? { total: stats.innerChunks.total, present: stats.innerChunks.present } : null,
    ...(stats && {
      bytesPerInnerChunk: stats.bytesPerInnerChunk,
      compressionRatio: stats.compressionRatio,
      indexLocation: stats.indexLocation,
    }),
  };
}

async function groupReport(group: ZarrGroup<ZarrNode>): Promise<Record<string, unknown>> {
  return {
    format: formatName(group),
    node: "group",
    consolidated: group.consolidated !== undefined,
    children: await group.childNames(),
    attributes: group.attributes,
  };
}

function precomputedReport(image: PrecomputedImage): Record<string, unknown> {
  const { info } = image;
  const s0 = info.scales[0];
  return {
    format: "precomputed",
    node: "volume",
    type: info.type,
    shape: [...s0.size, info.num_channels],
    dataType: info.data_type,
    chunkShape: [...s0.chunk_sizes[0], info.num_channels],
    shardShape: null,
    codecs: [{ name: s0.encoding }],
    fillValue: 0,
    shards: null,
    innerChunks: null,
    scales: info.scales.map((s) => ({
      key: s.key,
      size: s.size,
      voxelOffset: s.voxel_offset,
      chunkSize: s.chunk_sizes[0],
      resolution: s.resolution ?? null,
      encoding: s.encoding,
      sharding: s.sharding ?? null,
    })),
  };
}

const LABELS: Record<string, string> = {
  format: "format",
  node: "node",
  type: "type",
  shape: "shape",
  dataType: "data type",
  dtype: "numpy dtype",
  order: "order",
  chunkShape: "chunk shape",
  shardShape: "shard shape",
  chunkGrid: "chunk grid",
  gridShape: "grid shape",
  dimensionNames: "dimension names",
  codecs: "codecs",
  fillValue: "fill value",
  consolidated: "consolidated",
  children: "children",
  attributes: "attributes",
  indexLocation: "index location",
};

function textReport(report: Record<string, unknown>): string {
  const lines: string[] = [];
  const line = (label: string, value: string) => lines.push(`${`${label}:`.padEnd(20)} ${value}`);
  for (const [field, value] of Object.entries(report)) {
    if (value === null || value === undefined) continue;
    if (field === "shards" || field === "innerChunks" || field === "bytesPerInnerChunk" || field === "compressionRatio") continue;
    if (field === "scales") {
      for (const scale of value as { key: string; size: number[]; chunkSize: number[]; encoding: string; sharding: unknown }[]) {
        line(`scale ${scale.key}`, `size [${scale.size}], chunk [${scale.chunkSize}], ${scale.encoding}${scale.sharding ? ", sharded" : ""}`);
      }
      continue;
    }
    line(LABELS[field] ?? field, typeof value === "string" ? value : Array.isArray(value) && value.every((v) => typeof v === "number") ? `[${value.join(", ")}]` : JSON.stringify(value));
  }
  const shards = report.shards as ShardStatistics["shards"] | null | undefined;
  const inner = report.innerChunks as { total: number; present: number } | null | undefined;
  if (shards && inner) {
    line("shards", `${shards.present} of ${shards.total} present, ${bytesText(shards.bytes)} stored`);
    line("inner chunks", `${inner.present} of ${inner.total} present`);
    const per = report.bytesPerInnerChunk as number | null;
    if (per !== null) line("bytes/inner chunk", per.toFixed(1));
    const ratio = report.compressionRatio as number | null;
    if (ratio !== null) line("compression ratio", `${ratio.toFixed(2)}x`);
  }
  return lines.join("\n");
}

function bytesText(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let v = n;
  let u = -1;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${n} B (${v.toFixed(1)} ${units[u]})`;
}
