import { StoreError } from "./errors.js";

/**
 * Store keys are plain relative paths: "a/b/c.json". Every store refuses the
 * rest, so that one key names the same value in every store and none can
 * reach outside a store's root ("..", absolute paths, NUL, backslashes).
 */

/** Why `segment` cannot be one `/`-separated segment of a key, or undefined when it can. */
export function keySegmentProblem(segment: string): string | undefined {
  if (segment === "") return "it has an empty segment";
  if (segment === "." || segment === "..") return `it has a "${segment}" segment`;
  if (segment.includes("\0")) return "it contains a NUL byte";
  // URL parsers and Windows paths turn "\" into "/".
  if (segment.includes("\\")) return "it contains a backslash";
  // No UTF-8 or URL form: a file name would silently become U+FFFD (two keys, one file), a URL cannot be built.
  if (!isWellFormed(segment)) return "it contains a lone surrogate";
  return undefined;
}

/** No lone UTF-16 surrogate (which has no UTF-8 form, and which encodeURIComponent refuses). */
export function isWellFormed(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/** Why `key` is not a plain relative key, or undefined when it is. */
export function storeKeyProblem(key: string): string | undefined {
  if (key.startsWith("/")) return "it is absolute";
  for (const segment of key.split("/")) {
    const problem = keySegmentProblem(segment);
    if (problem) return problem;
  }
  return undefined;
}

/** Throw a StoreError naming `key` when it is not a plain relative key. */
export function checkStoreKey(key: string): void {
  const problem = storeKeyProblem(key);
  if (problem) throw new StoreError(`Invalid key ${JSON.stringify(key)}: ${problem}.`, { key });
}
