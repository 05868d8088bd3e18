import { createHash } from "node:crypto";
import { basename, dirname, join, sep } from "node:path";
import { keySegmentProblem, StoreError } from "@zarrkit/registry";

/** Names of in-flight atomic writes; keys may not use them, listings skip them. */
export const TEMP_PREFIX = ".zarrkit-tmp.";
/** `.zarrkit-lock.<name>`: the cross-process lock (and journal) of the key whose file is `<name>`. */
export const LOCK_PREFIX = ".zarrkit-lock.";
/** `.zarrkit-break.<name>`: taken by whoever breaks a stale lock of `<name>`, so only one does. */
export const BREAK_PREFIX = ".zarrkit-break.";

/** A file name for `prefix + name`, hashed when too long for one path segment. */
function reservedName(prefix: string, name: string): string {
  const full = prefix + name;
  return Buffer.byteLength(full) <= 255 ? full : prefix + createHash("sha256").update(name).digest("hex");
}

/** The lock file of the value at `path`. */
export function lockPathOf(path: string): string {
  return join(dirname(path), reservedName(LOCK_PREFIX, basename(path)));
}

/** The break lock of the value at `path`. */
export function breakPathOf(path: string): string {
  return join(dirname(path), reservedName(BREAK_PREFIX, basename(path)));
}

/** Prefixes of the store's own files: never keys, never listed. */
const RESERVED_PREFIXES = [TEMP_PREFIX, LOCK_PREFIX, BREAK_PREFIX];

/** Why `segment` cannot be one path segment of a key here, or undefined when it can. */
export function segmentProblem(segment: string): string | undefined {
  const problem = keySegmentProblem(segment);
  if (problem) return problem;
  // "C:x" is drive-relative and "a:b" an alternate data stream on Windows.
  if (process.platform === "win32" && segment.includes(":")) return "it contains ':'";
  const reserved = RESERVED_PREFIXES.find((prefix) => segment.startsWith(prefix));
  if (reserved) return `names starting with "${reserved}" are reserved for the store's temporary and lock files`;
  return undefined;
}

function invalid(key: string, problem: string): StoreError {
  return new StoreError(`Invalid key ${JSON.stringify(key)}: ${problem}.`, { key });
}

/**
 * The file of `key` under `root` (an absolute, resolved path). Throws a
 * StoreError for keys that could reach elsewhere.
 */
export function keyPath(root: string, key: string): string {
  return pathOf(root, key, key);
}

function pathOf(root: string, key: string, reportAs: string): string {
  if (key.startsWith("/")) throw invalid(reportAs, "it is absolute");
  for (const segment of key.split("/")) {
    const problem = segmentProblem(segment);
    if (problem) throw invalid(reportAs, problem);
  }
  const path = join(root, ...key.split("/"));
  // Belt and braces: whatever the checks above missed must still land under the root.
  if (!path.startsWith(root.endsWith(sep) ? root : root + sep)) {
    throw invalid(reportAs, "it resolves outside the store");
  }
  return path;
}

export interface PrefixLocation {
  /** Directory holding the keys that match. */
  dir: string;
  /** The prefix up to its last "/": what keys in `dir` start with. */
  dirKey: string;
  /** The rest of the prefix, which names in `dir` must start with. */
  partial: string;
}

/** Where the keys starting with `prefix` live. */
export function prefixLocation(root: string, prefix: string): PrefixLocation {
  const cut = prefix.lastIndexOf("/") + 1;
  const dirKey = prefix.slice(0, cut);
  const partial = prefix.slice(cut);
  if (partial.includes("\0") || partial.includes("\\")) throw invalid(prefix, "it contains a NUL byte or a backslash");
  return { dir: dirKey === "" ? root : pathOf(root, dirKey.slice(0, -1), prefix), dirKey, partial };
}
