import { randomBytes } from "node:crypto";
import { type BigIntStats, constants } from "node:fs";
import { type FileHandle, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { writePartsAt } from "./file-io.js";
import { TEMP_PREFIX } from "./keys.js";
import type { PathGuard } from "./paths.js";
import { advanceMtime } from "./version.js";

/**
 * A whole-value replacement in two steps: `prepare` writes the new value
 * (given in parts, written with vectored writes) to a temporary file in the
 * target's directory and fsyncs it (the slow part, done before any lock is
 * taken); `commit` renames it over the target, so readers
 * (and a crash) see the old value or the new one, never a torn mix. On
 * failure, or with `discard`, the temporary file is removed and the old value
 * is untouched. Steps 3 and 8.3 of the package README's "The cross-process
 * protocol".
 */
export class PreparedWrite {
  readonly #temp: string;
  #file: FileHandle | undefined;

  private constructor(temp: string, file: FileHandle) {
    this.#temp = temp;
    this.#file = file;
  }

  /** `sync`: fsync the temporary file (the store's `durability`). */
  static async prepare(
    guard: PathGuard,
    dir: string,
    key: string,
    parts: readonly Uint8Array[],
    sync: boolean,
  ): Promise<PreparedWrite> {
    const temp = join(dir, TEMP_PREFIX + randomBytes(12).toString("hex"));
    const file = await guard.open(temp, key, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o644);
    const prepared = new PreparedWrite(temp, file);
    try {
      await writePartsAt(file, parts, 0);
      if (sync) await file.sync();
    } catch (error) {
      await prepared.discard();
      throw error;
    }
    return prepared;
  }

  /** Rename over `path`, whose current state is `previous` (the new value gets a later mtime, hence a new version). */
  async commit(path: string, previous: BigIntStats | undefined): Promise<void> {
    try {
      const file = this.#file!;
      await advanceMtime(file, previous);
      this.#file = undefined;
      await file.close();
      await rename(this.#temp, path);
    } catch (error) {
      await this.discard();
      throw error;
    }
  }

  /** Remove the temporary file (best effort: an error that led here matters more). */
  async discard(): Promise<void> {
    const file = this.#file;
    this.#file = undefined;
    await file?.close().catch(() => {});
    await rm(this.#temp, { force: true }).catch(() => {});
  }
}
