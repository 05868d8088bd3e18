import { type ZarrGroup, type ZarrNode, ZarrArray } from "zarrkit";
import { parseCommand } from "../args.js";
import type { Output } from "../output.js";
import { formatName, openSource } from "../source.js";
import { resolveUrl } from "../url.js";

export const TREE_HELP = `Usage: zarrkit tree <url>

The hierarchy below <url>: every group and array, each array with its shape
and data type (and shard shape when sharded). Consolidated metadata is used
when the root group has it, so the tree of a remote store costs one request.

Options:
  --debug         print stack traces of errors
  -h, --help      show this help

Examples:
  zarrkit tree data/collection.zarr
  zarrkit tree https://example.org/data/collection.zarr`;

export async function treeCommand(args: readonly string[], out: Output): Promise<number> {
  const { values, positionals } = parseCommand("tree", args, {}, { min: 1, max: 1, names: "<url>" });
  if (values.help) return out.help(TREE_HELP);
  const source = await openSource(await resolveUrl(positionals[0]!, "tree"));
  if (source.kind === "precomputed") {
    const { info } = source.image;
    out.write(`/ (precomputed ${info.type}) ${info.data_type} x ${info.num_channels} channel(s)`);
    for (const [i, s] of info.scales.entries())
      out.write(`${i === info.scales.length - 1 ? "└── " : "├── "}${s.key} [${s.size.join(", ")}]`);
    return 0;
  }
  const lines: string[] = [];
  if (source.kind === "array") {
    lines.push(`/ ${arrayLabel(source.array)}`);
  } else {
    const group = source.group;
    lines.push(`/ (${formatName(group)} group${group.consolidated ? ", consolidated" : ""})`);
    await walk(group, "", lines);
  }
  out.write(lines.join("\n"));
  return 0;
}

function arrayLabel(array: ZarrArray): string {
  const shard = array.shardShape
    ? ` shards [${array.shardShape.join(", ")}] of chunks [${array.chunkShape.join(", ")}]`
    : "";
  return `[${array.shape.join(", ")}] ${array.dataType}${shard}`;
}

async function walk(group: ZarrGroup<ZarrNode>, indent: string, lines: string[]): Promise<void> {
  const names = await group.childNames();
  for (const [i, name] of names.entries()) {
    const last = i === names.length - 1;
    const node = await group.open(name);
    if (node instanceof ZarrArray) {
      lines.push(`${indent}${last ? "└── " : "├── "}${name} ${arrayLabel(node)}`);
    } else {
      lines.push(`${indent}${last ? "└── " : "├── "}${name}/`);
      await walk(node as ZarrGroup<ZarrNode>, `${indent}${last ? "    " : "│   "}`, lines);
    }
  }
}
