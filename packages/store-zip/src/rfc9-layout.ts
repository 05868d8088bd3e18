import type { ZipEntry } from "./central-directory.js";
import { isMetadataKey } from "./entry-order.js";
import type { OmeComment } from "./ome-comment.js";
import { METHOD_STORED } from "./zip-records.js";

/** One departure from RFC-9's recommendations. */
export interface Rfc9Problem {
  /** "warning": a recommendation not followed; "error": the comment claims what is not so. */
  level: "warning" | "error";
  /** What it is, in one line. */
  message: string;
}

/**
 * How an archive measures against RFC-9's recommended variant of OME-Zarr zip
 * files. Reading does not depend on any of it; a validator reports it.
 */
export interface Rfc9Layout {
  /** Every recommendation is followed and the comment says so truthfully. */
  recommended: boolean;
  /** The RFC-9 comment's `ome` object, when there is one. */
  comment: OmeComment | undefined;
  /** Every entry is STORED (no ZIP-level compression). */
  stored: boolean;
  /** Every entry is ZIP64 ("version needed to extract" 4.5). */
  zip64: boolean;
  /** The root `zarr.json` is the first entry and every other `zarr.json` follows at once, breadth first. */
  metadataFirst: boolean;
  /** What departs from the recommendations (`warning`) or contradicts the comment (`error`), one line each. */
  problems: Rfc9Problem[];
}

/**
 * The layout of an archive named `name` whose directory lists `entries` (in
 * directory order); `zip64(entry)`: whether the entry is ZIP64 (its central
 * record or its local header says so: writers such as Python's zipfile mark
 * small entries in their local header only).
 */
export function rfc9Layout(
  name: string,
  entries: readonly ZipEntry[],
  comment: OmeComment | undefined,
  zip64: (entry: ZipEntry) => boolean,
): Rfc9Layout {
  const problems: Rfc9Layout["problems"] = [];
  const compressed = entries.filter((e) => e.method !== METHOD_STORED);
  const small = entries.filter((e) => e.versionNeeded < 45 && !zip64(e));
  const metadataFirst = inMetadataOrder(entries);
  if (!name.toLowerCase().endsWith(".ozx"))
    problems.push({ level: "warning", message: "the name does not end in .ozx" });
  if (!comment) problems.push({ level: "warning", message: "no RFC-9 archive comment" });
  if (compressed.length > 0) {
    problems.push({
      level: "warning",
      message: `${compressed.length} entries are compressed (first: ${compressed[0]!.name})`,
    });
  }
  if (small.length > 0)
    problems.push({ level: "warning", message: `${small.length} entries are not ZIP64 (first: ${small[0]!.name})` });
  if (!metadataFirst) {
    const claimed = comment?.zipFile?.centralDirectory?.jsonFirst === true;
    problems.push({
      level: claimed ? "error" : "warning",
      message: claimed
        ? "the comment says jsonFirst, but the zarr.json entries do not come first, breadth first"
        : "the zarr.json entries do not come first, breadth first",
    });
  }
  const stored = compressed.length === 0;
  return { recommended: problems.length === 0, comment, stored, zip64: small.length === 0, metadataFirst, problems };
}

/** Whether the entries start with the root zarr.json, then every other zarr.json, shallower before deeper. */
function inMetadataOrder(entries: readonly ZipEntry[]): boolean {
  if (entries[0]?.name !== "zarr.json") return false;
  let depth = 0;
  let metadataDone = false;
  for (const entry of entries) {
    const metadata = isMetadataKey(entry.name);
    if (metadata && metadataDone) return false;
    if (!metadata) {
      metadataDone = true;
      continue;
    }
    const level = entry.name.split("/").length;
    if (level < depth) return false;
    depth = level;
  }
  return true;
}
