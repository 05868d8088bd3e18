import { constants } from "node:fs";
import { type FileHandle, unlink } from "node:fs/promises";
import { errorCode, isMissing, readAt, writeAt } from "./file-io.js";
import { fingerprint, type Journal } from "./journal-record.js";
import type { PathGuard } from "./paths.js";
import { advanceMtime } from "./version.js";

/**
 * Put the value back as it was before the journaled write (step 9 of the
 * package README's "The cross-process protocol"): idempotent, so a crash
 * while undoing leaves the journal for the next one. A write that completed
 * stays, since a reader may already have seen its bytes. Returns whether the
 * value was changed back.
 */
export async function undoWrite(
  guard: PathGuard,
  path: string,
  key: string,
  journal: Journal,
  old: Uint8Array,
): Promise<boolean> {
  if (journal.op === "append" && journal.created) {
    // The append created the value: undoing it removes the value.
    const stats = await guard.checkEntry(path, key);
    if (!stats?.isFile()) return false;
    if (await completed(guard, path, key, journal, Number(stats.size))) return false;
    await unlink(path);
    return true;
  }
  let file: FileHandle;
  try {
    file = await guard.open(path, key, constants.O_RDWR);
  } catch (error) {
    if (isMissing(error) || errorCode(error) === "EISDIR") return false;
    throw error;
  }
  try {
    const stats = await file.stat({ bigint: true });
    const replaced = journal.ino !== undefined && stats.ino.toString() !== journal.ino;
    if (!stats.isFile() || replaced) return false;
    if (await completedIn(file, journal, Number(stats.size))) return false;
    if (journal.op === "append") {
      if (stats.size <= BigInt(journal.size)) return false;
      await file.truncate(journal.size);
    } else {
      if (stats.size < BigInt(journal.offset + journal.length)) return false;
      await writeAt(file, old, journal.offset);
    }
    await advanceMtime(file, stats); // a new version: a reader may hold the torn value's
    await file.sync();
    return true;
  } finally {
    await file.close().catch(() => {});
  }
}

/** Whether the journaled write's new bytes are all in place in the file at `path`. */
async function completed(
  guard: PathGuard,
  path: string,
  key: string,
  journal: Journal,
  size: number,
): Promise<boolean> {
  if (journal.written === undefined) return false;
  const file = await guard.open(path, key, constants.O_RDONLY);
  try {
    return await completedIn(file, journal, size);
  } finally {
    await file.close().catch(() => {});
  }
}

/** Whether the journaled write's new bytes are all in `file` (of `size` bytes); never without a fingerprint. */
async function completedIn(file: FileHandle, journal: Journal, size: number): Promise<boolean> {
  if (journal.written === undefined) return false;
  const [offset, length] = journal.op === "append" ? [journal.size, journal.added] : [journal.offset, journal.length];
  if (length === undefined) return false;
  if (journal.op === "append" ? size !== offset + length : size < offset + length) return false;
  return fingerprint(await readAt(file, offset, length)) === journal.written;
}
