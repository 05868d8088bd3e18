/**
 * The order RFC-9 recommends for the entries of an archive: every metadata
 * document first, breadth first (the root's `zarr.json` leading), then
 * everything else, also breadth first. Zarr v2's metadata files count as
 * metadata too, so a v2 hierarchy gets the same layout.
 */
const METADATA_FILES = new Set(["zarr.json", ".zgroup", ".zarray", ".zattrs", ".zmetadata"]);

/** Whether `key` is a metadata document (`zarr.json`, or a Zarr v2 `.z*` file). */
export function isMetadataKey(key: string): boolean {
  return METADATA_FILES.has(key.slice(key.lastIndexOf("/") + 1));
}

const depth = (key: string) => key.split("/").length;

/** `keys` sorted the RFC-9 way: metadata before data, shallower before deeper, then by name (code unit order). */
export function archiveOrder(keys: Iterable<string>): string[] {
  return [...keys].sort((a, b) => {
    const kind = Number(!isMetadataKey(a)) - Number(!isMetadataKey(b));
    if (kind !== 0) return kind;
    const level = depth(a) - depth(b);
    if (level !== 0) return level;
    // Within a level: zarr.json before its v2 siblings, so that the root zarr.json is always the first entry.
    const own = Number(!a.endsWith("zarr.json")) - Number(!b.endsWith("zarr.json"));
    return own !== 0 ? own : a < b ? -1 : a > b ? 1 : 0;
  });
}
