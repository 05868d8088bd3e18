import { type BigIntStats, constants } from "node:fs";
import { type FileHandle, unlink } from "node:fs/promises";
import { errorCode, isMissing, readAt, writeAt } from "./file-io.js";
import { parseJournal } from "./journal-record.js";
import { undoWrite } from "./journal-undo.js";
import { breakPathOf, lockPathOf } from "./keys.js";
import { type LockOwner, ownerLine, parseOwner } from "./lock-owner.js";
import type { PathGuard } from "./paths.js";
import { onThisMachine, processGone } from "./process-identity.js";

/*
 * Judging a lock held by someone else, and breaking it when it is stale
 * (steps 6 and 7 of the package README's "The cross-process protocol").
 */

/** How long a break lock of another machine must stay unchanged before it is stale: breaking takes milliseconds. */
const BREAK_STALE_MS = 5000;
const CREATE = constants.O_CREAT | constants.O_EXCL | constants.O_RDWR;

/** A lock or break lock as a waiter saw it. */
export interface SeenLock {
  stats: BigIntStats;
  /** The first bytes (the owner line), or the whole file when asked for. */
  content: Buffer;
  owner?: LockOwner;
}

/** The lock file at `path` as it is now, or undefined when there is none. */
export async function inspectLock(
  guard: PathGuard,
  path: string,
  key: string,
  whole = false,
): Promise<SeenLock | undefined> {
  let file: FileHandle;
  try {
    file = await guard.open(path, key, constants.O_RDONLY);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  try {
    const stats = await file.stat({ bigint: true });
    const length = whole ? Number(stats.size) : Math.min(Number(stats.size), 4096);
    const content = Buffer.from(await readAt(file, 0, length));
    return { stats, content, owner: parseOwner(content) };
  } finally {
    await file.close().catch(() => {});
  }
}

/** Is it still the very lock file that was judged (same inode, mtime and owner line)? */
function sameLock(a: SeenLock, b: SeenLock): boolean {
  if (a.stats.ino !== b.stats.ino || a.stats.dev !== b.stats.dev || a.stats.mtimeNs !== b.stats.mtimeNs) return false;
  const n = Math.min(a.content.length, b.content.length, 4096);
  const sameOwner = (a.owner?.nonce ?? "") === (b.owner?.nonce ?? "");
  return a.content.subarray(0, n).equals(b.content.subarray(0, n)) && sameOwner;
}

/** Judges one lock name over the polls of one waiter (step 6). */
export class StaleRule {
  #id = "";
  #since = 0;

  async isStale(seen: SeenLock, unchangedMs: number): Promise<boolean> {
    const owner = seen.owner;
    if (owner && onThisMachine(owner)) return processGone(owner.pid, owner.start);
    const id = `${seen.stats.ino}:${seen.stats.size}:${seen.stats.mtimeNs}:${owner?.nonce ?? ""}`;
    if (id !== this.#id) {
      this.#id = id;
      this.#since = performance.now();
      return false;
    }
    return performance.now() - this.#since >= unchangedMs;
  }
}

/**
 * Break the stale lock `seen` of the value at `path` (step 7):
 * returns whether a torn write was undone, or undefined when another breaker
 * is at work (try later).
 */
export async function breakLock(
  guard: PathGuard,
  path: string,
  key: string,
  seen: SeenLock,
  breakRule: StaleRule,
): Promise<boolean | undefined> {
  const breakPath = breakPathOf(path);
  const lockPath = lockPathOf(path);
  let file: FileHandle;
  try {
    file = await guard.open(breakPath, key, CREATE, 0o644);
  } catch (error) {
    if (errorCode(error) !== "EEXIST") throw error;
    const other = await inspectLock(guard, breakPath, key);
    if (other && (await breakRule.isStale(other, BREAK_STALE_MS))) {
      const again = await inspectLock(guard, breakPath, key);
      if (again && sameLock(again, other)) await unlink(breakPath).catch(() => {});
    }
    return undefined;
  }
  try {
    await writeAt(file, ownerLine("break"), 0);
    const current = await inspectLock(guard, lockPath, key, true);
    if (current === undefined || !sameLock(current, seen)) return false; // released or taken anew meanwhile
    const torn = parseJournal(current.content);
    const undid = torn ? await undoWrite(guard, path, key, torn.journal, torn.old) : false;
    await unlink(lockPath).catch((error: unknown) => (isMissing(error) ? undefined : Promise.reject(error)));
    return undid;
  } finally {
    await file.close().catch(() => {});
    await unlink(breakPath).catch(() => {});
  }
}
