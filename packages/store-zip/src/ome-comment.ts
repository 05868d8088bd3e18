/**
 * The archive comment of RFC-9 (single-file OME-Zarr): UTF-8 JSON such as
 * `{"ome":{"version":"0.5","zipFile":{"centralDirectory":{"jsonFirst":true}}}}`
 * (the form the RFC-9 compatibility kit writes), saying that the archive
 * follows the RFC's recommendations.
 */

/** The `ome` object of an RFC-9 archive comment. */
export interface OmeComment {
  /** The OME-Zarr version of the hierarchy, e.g. "0.5". */
  version: string;
  /** How the archive is laid out (the RFC-9 kit's form). */
  zipFile?: {
    /** About the central directory. */
    centralDirectory?: {
      /** Every `zarr.json` comes first in it, breadth first. */
      jsonFirst?: boolean;
    };
  };
}

/** The comment's `ome` object, or undefined when the comment is no RFC-9 comment. */
export function parseOmeComment(comment: Uint8Array): OmeComment | undefined {
  // The RFC's first drafts asked for a NUL-terminated string.
  const end = comment.indexOf(0);
  const text = new TextDecoder().decode(end < 0 ? comment : comment.subarray(0, end));
  try {
    const ome = (JSON.parse(text) as { ome?: unknown }).ome as OmeComment | undefined;
    return typeof ome === "object" && ome !== null && typeof ome.version === "string" ? ome : undefined;
  } catch {
    return undefined;
  }
}

/** The RFC-9 comment of an archive written the recommended way (metadata first) for OME-Zarr `version`. */
export function omeComment(version: string): Uint8Array {
  return new TextEncoder().encode(
    JSON.stringify({ ome: { version, zipFile: { centralDirectory: { jsonFirst: true } } } }),
  );
}

/** Whether an entry's name says it is an archive itself (`.zip`, `.ozx`). */
export function isArchiveName(name: string): boolean {
  return /\.(zip|ozx)$/i.test(name);
}
