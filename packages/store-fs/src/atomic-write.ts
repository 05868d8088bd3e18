import { randomBytes } from "node:crypto";
import type { BigIntStats } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { openCreating, writeAt } from "./file-io.js";
import { TEMP_PREFIX } from "./keys.js";
import { advanceMtime } from "./version.js";

/**
 * Replace the file at `path` with `value`: write a temporary file in the same
 * directory, fsync it, then rename it over the target. Readers (and a crash)
 * see the old value or the new one, never a torn mix. On failure the
 * temporary file is removed and the old value is untouched.
 */
export async function writeFileAtomically(path: string, value: Uint8Array, previous: BigIntStats | undefined): Promise<void> {
  const temp = join(dirname(path), TEMP_PREFIX + randomBytes(12).toString("hex"));
  const file = await openCreating(temp, "wx");
  try {
    try {
      await writeAt(file, value, 0);
      await advanceMtime(file, previous);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {}); // best effort: the original error matters more
    throw error;
  }
}
