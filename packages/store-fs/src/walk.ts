import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { isMissing } from "./file-io.js";
import { segmentProblem } from "./keys.js";

/** Entries of a directory that can be keys or key prefixes: no temporary files, no names keys cannot have. */
export async function keyEntries(dir: string): Promise<Dirent[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
  return entries.filter((entry) => segmentProblem(entry.name) === undefined);
}

/**
 * Every key in `dir` and below, as `dirKey` + relative path, for the names in
 * `dir` starting with `partial`. Symbolic links are not followed or listed.
 */
export async function* walkKeys(
  dir: string,
  dirKey: string,
  partial: string,
  signal?: AbortSignal,
): AsyncGenerator<string> {
  for (const entry of await keyEntries(dir)) {
    signal?.throwIfAborted();
    if (!entry.name.startsWith(partial)) continue;
    if (entry.isFile()) yield dirKey + entry.name;
    else if (entry.isDirectory()) yield* walkKeys(join(dir, entry.name), `${dirKey}${entry.name}/`, "", signal);
  }
}
