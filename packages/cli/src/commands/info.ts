import type { ZarrArray, ZarrGroup, ZarrNode } from "zarrkit";
import type { PrecomputedImage } from "@zarrkit/neuroglancer";
import { parseCommand, positiveIntegerFlag } from "../args.js";
import type { Output } from "../output.js";
import { chunkStatistics, shardStatistics, type ShardStatistics } from "../shards.js";
import { codecsOf, formatName, openSource } from "../source.js";
import { resolveUrl } from "../url.js";

export const INFO_HELP = `Usage: zarrkit info <url> [<url2>] [--json]

What the node at <url> is (Zarr v3 or v2 array or group, Neuroglancer
precomputed volume) and, for arrays, shape, data type, chunk grid, codecs and
fill value. For sharded arrays it reads every shard's index and reports shards
and inner chunks present, stored bytes, bytes per inner chunk, compression
ratio and index location; for unsharded ones (where the store lists) chunks
present, stored bytes and compression ratio. With two URLs (a conversion's
source and destination), both side by side, stored sizes compared; --json
then prints a list of the two objects.

Options:
  --json          print one JSON object instead of text
  --concurrency N shard indexes read at once (default 16)
  --debug         print stack traces of errors
  -h, --help      show this help

Examples:
  zarrkit info data/image.zarr
  zarrkit info data/v2.zarr data/v3.zarr
  zarrkit info https://example.org/data/image.zarr --json
  zarrkit info s3://bucket/image.zarr
  zarrkit info precomputed://https://example.org/volume`;

const OPTIONS = { json: { type: "boolean" }, concurrency: { type: "string" } } as const;

export async function infoCommand(args: readonly string[], out: Output): Promise<number> {
  const { values, positionals } = parseCommand("info", args, OPTIONS, { min: 1, max: 2, names: "<url>" });
  if (values.help) return out.help(INFO_HELP);
  const concurrency = positiveIntegerFlag(values.concurrency, "--concurrency", "info");
  const reports: Record<string, unknown>[] = [];
  for (const url of positionals) reports.push(await nodeReport(url, concurrency));
  if (values.json) out.write(JSON.stringify(reports.length === 1 ? reports[0] : reports));
  else if (reports.length === 1) out.write(textReport(reports[0]!));
  else out.write(sideBySide(positionals[0]!, reports[0]!, positionals[1]!, reports[1]!));
  return 0;
}

async function nodeReport(url: string, concurrency: number | undefined): Promise<Record<string, unknown>> {
  const source = await openSource(await resolveUrl(url, "info"));
  if (source.kind === "array") return arrayReport(source.array, concurrency);
  if (source.kind === "group") return groupReport(source.group);
  return precomputedReport(source.image);
}

export async function arrayReport(array: ZarrArray, concurrency?: number): Promise<Record<string, unknown>> {
  const metadata = array.metadata;
  const sharded = array.shardShape !== undefined;
  const options = concurrency === undefined ? {} : { concurrency };
  const stats = sharded ? await shardStatistics(array, options) : undefined;
  const chunkStats = sharded ? undefined : await chunkStatistics(array, options);
  return {
    format: formatName(array),
    node: "array",
    shape: array.shape,
    dataType: array.dataType,
    chunkShape: array.chunkShape,
    shardShape: array.shardShape ?? null,
    chunkGrid:
      metadata.zarr_format === 3
        ? metadata.chunk_grid
        : { name: "regular", configuration: { chunk_shape: metadata.chunks } },
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
    ...(!sharded && { chunks: chunkStats?.chunks ?? null, compressionRatio: chunkStats?.compressionRatio ?? null }),
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
  return textRows(report, false)
    .map(([label, value]) => `${`${label}:`.padEnd(20)} ${value}`)
    .join("\n");
}

/** Report fields shown as statistics lines after the others. */
const STATISTICS = new Set(["shards", "innerChunks", "chunks", "bytesPerInnerChunk", "compressionRatio"]);

/** Fields shown as rows of text; `compact` (side by side) drops the long ones and shortens codecs. */
function textRows(report: Record<string, unknown>, compact: boolean): [string, string][] {
  const lines: [string, string][] = [];
  const line = (label: string, value: string) => lines.push([label, value]);
  for (const [field, value] of Object.entries(report)) {
    if (value === null || value === undefined) continue;
    if (STATISTICS.has(field)) continue;
    if (compact && (field === "chunkGrid" || field === "attributes")) continue;
    if (field === "scales") {
      for (const scale of value as {
        key: string;
        size: number[];
        chunkSize: number[];
        encoding: string;
        sharding: unknown;
      }[]) {
        line(
          `scale ${scale.key}`,
          `size [${scale.size}], chunk [${scale.chunkSize}], ${scale.encoding}${scale.sharding ? ", sharded" : ""}`,
        );
      }
      continue;
    }
    if (compact && field === "codecs") {
      line("codecs", (value as Record<string, unknown>[]).map(codecText).join(", "));
      continue;
    }
    line(
      LABELS[field] ?? field,
      typeof value === "string"
        ? value
        : Array.isArray(value) && value.every((v) => typeof v === "number")
          ? `[${value.join(", ")}]`
          : JSON.stringify(value),
    );
  }
  const shards = report.shards as ShardStatistics["shards"] | null | undefined;
  const inner = report.innerChunks as { total: number; present: number } | null | undefined;
  const chunks = report.chunks as { total: number; present: number; bytes: number } | null | undefined;
  if (shards && inner) {
    line("shards", `${shards.present} of ${shards.total} present, ${bytesText(shards.bytes)} stored`);
    line("inner chunks", `${inner.present} of ${inner.total} present`);
    const per = report.bytesPerInnerChunk as number | null;
    if (per !== null) line("bytes/inner chunk", per.toFixed(1));
  } else if (chunks) {
    line("chunks", `${chunks.present} of ${chunks.total} present, ${bytesText(chunks.bytes)} stored`);
  }
  const ratio = report.compressionRatio as number | null | undefined;
  if ((shards || chunks) && ratio !== null && ratio !== undefined) line("compression ratio", `${ratio.toFixed(2)}x`);
  return lines;
}

/** The bytes an array stores (shards or chunks), when known. */
function storedBytes(report: Record<string, unknown>): number | undefined {
  type Sized = { bytes: number } | null | undefined;
  return (report.shards as Sized)?.bytes ?? (report.chunks as Sized)?.bytes;
}

/**
 * A codec in a few words: its name and settings, e.g.
 * "blosc(cname=lz4, clevel=5, shuffle=bitshuffle)"; sharding with its inner chain.
 */
function codecText(codec: Record<string, unknown>): string {
  const name = String(codec.name ?? codec.id);
  const config = (codec.configuration ?? codec) as Record<string, unknown>;
  if (name === "sharding_indexed") {
    return `sharding_indexed(${(config.codecs as Record<string, unknown>[]).map(codecText).join(", ")})`;
  }
  const settings = Object.entries(config)
    .filter(([key, v]) => !["id", "typesize", "blocksize"].includes(key) && (typeof v !== "object" || v === null))
    .map(([key, v]) => `${key}=${String(v)}`);
  return settings.length > 0 ? `${name}(${settings.join(", ")})` : name;
}

/** Two reports side by side (a conversion's source and destination), stored sizes compared. */
function sideBySide(
  firstUrl: string,
  first: Record<string, unknown>,
  secondUrl: string,
  second: Record<string, unknown>,
): string {
  const a = new Map(textRows(first, true));
  const b = new Map(textRows(second, true));
  const labels = [...new Set([...a.keys(), ...b.keys()])];
  const width = Math.min(SIDE_COLUMN, Math.max(firstUrl.length, ...[...a.values()].map((v) => v.length)));
  const cell = (v: string) => (v.length > width ? `${v.slice(0, width - 1)}…` : v).padEnd(width);
  const lines = [`${"".padEnd(20)} ${cell(firstUrl)}  ${secondUrl}`];
  for (const label of labels) {
    lines.push(`${`${label}:`.padEnd(20)} ${cell(a.get(label) ?? "-")}  ${b.get(label) ?? "-"}`);
  }
  const from = storedBytes(first);
  const to = storedBytes(second);
  if (from !== undefined && to !== undefined && from > 0) {
    lines.push(`${"stored size:".padEnd(20)} ${(to / from).toFixed(2)}x (second over first)`);
  }
  return lines.join("\n");
}

/** The widest the first column of a side-by-side report grows (longer values are cut). */
const SIDE_COLUMN = 48;

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
