import { StoreError } from "@zarrkit/registry";

/**
 * Reject keys that are not plain relative paths. IndexedDB would take any
 * string, but "a/../b" or "a//b" name different values than a file store
 * would, so the same key must mean the same thing in every store.
 */
export function checkKey(key: string): void {
  const problem = keyProblem(key);
  if (problem) throw new StoreError(`Invalid key ${JSON.stringify(key)}: ${problem}.`, { key });
}

/** Why `key` is not a plain relative path, or undefined when it is. */
export function keyProblem(key: string): string | undefined {
  if (key.startsWith("/")) return "it is absolute";
  if (key.includes("\0")) return "it contains a NUL byte";
  if (key.includes("\\")) return "it contains a backslash";
  for (const segment of key.split("/")) {
    if (segment === "") return "it has an empty segment";
    if (segment === "." || segment === "..") return `it has a "${segment}" segment`;
  }
  return undefined;
}
