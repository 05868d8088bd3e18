import { InvalidSelectionError } from "@zarrkit/registry";

/** "", "/" and "/a/b/" normalised to "" and "a/b"; each name is checked as the spec requires. */
export function normalizeNodePath(path: string): string {
  const trimmed = path.replace(/^\/+|\/+$/g, "");
  if (trimmed === "") return "";
  for (const name of trimmed.split("/")) {
    if (name === "" || /^\.+$/.test(name) || name.startsWith("__")) {
      throw new InvalidSelectionError(
        `Invalid node path ${JSON.stringify(path)}: names must be non-empty, not only dots, and not start with "__"`,
      );
    }
  }
  return trimmed;
}

/** A node path as messages show it: quoted, "/" for the root. */
export function quotedPath(path: string): string {
  return JSON.stringify(path || "/");
}

export function metadataKey(path: string): string {
  return path === "" ? "zarr.json" : `${path}/zarr.json`;
}

export function childPath(parent: string, name: string): string {
  return parent === "" ? name : `${parent}/${name}`;
}

/** Ancestors of a node path, outermost first: "a/b/c" -> ["", "a", "a/b"]. */
export function ancestors(path: string): string[] {
  if (path === "") return [];
  const names = path.split("/");
  return names.map((_, i) => names.slice(0, i).join("/"));
}

/** A Zarr v2 metadata key of the node at `path`: `.zarray`, `.zgroup`, `.zattrs` or `.zmetadata`. */
export function v2Key(path: string, name: ".zarray" | ".zgroup" | ".zattrs" | ".zmetadata"): string {
  return path === "" ? name : `${path}/${name}`;
}
