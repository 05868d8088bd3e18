import { closeSync, constants, unlinkSync, writeSync } from "node:fs";
import { lutimes, stat } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { StoreError } from "@zarrkit/registry";
import { errorCode } from "./file-io.js";
import { lockPathOf } from "./keys.js";
import { ownerLine } from "./lock-owner.js";
import type { PathGuard } from "./paths.js";
import { breakLock, inspectLock, StaleRule } from "./stale-lock.js";
import { WriteJournal } from "./write-journal.js";

/*
 * The cross-process lock file of one key: taking it, holding it (the
 * heartbeat) and releasing it (steps 4, 5, 8.1, 10 and 11 of the package
 * README's "The cross-process protocol").
 */

const HEARTBEAT_MIN_MS = 50;
const CREATE = constants.O_CREAT | constants.O_EXCL | constants.O_RDWR;

export interface LockSettings {
  /** Age (unchanged, by the waiter's clock) after which a lock of another machine, or an unreadable one, is stale. */
  staleLockMs: number;
}

export interface Acquired {
  lock: HeldLock;
  /** Another holder had the lock first. */
  waited: boolean;
  /** A stale lock's torn write was undone on the way in. */
  undid: boolean;
}

/** The held lock of one key. Release it exactly once. */
export class HeldLock {
  readonly path: string;
  /** Where the write in progress is recorded, so that a crash leaves it for the next holder. */
  readonly journal: WriteJournal;
  readonly #heartbeat: NodeJS.Timeout;

  constructor(path: string, journal: WriteJournal, staleLockMs: number) {
    this.path = path;
    this.journal = journal;
    // Waiters on other machines judge the lock by whether it changes: show that the holder lives.
    this.#heartbeat = setInterval(
      () => {
        const now = new Date();
        lutimes(this.path, now, now).catch(() => {});
      },
      Math.max(HEARTBEAT_MIN_MS, staleLockMs / 4),
    );
    this.#heartbeat.unref();
  }

  /** Drop the lock (and with it the journal: the write is complete or undone). */
  async release(key: string): Promise<void> {
    clearInterval(this.#heartbeat);
    try {
      unlinkSync(this.path);
    } catch (error) {
      await this.journal.forget().catch(() => {});
      throw new StoreError(`Could not release the lock of ${JSON.stringify(key)} (${this.path}): ${String(error)}.`, {
        key,
        cause: error,
      });
    } finally {
      await this.journal.close().catch(() => {});
    }
  }
}

/**
 * Take the cross-process lock of the value at `path` (its directory must
 * exist), waiting for a live holder (polling with backoff, up to 64 ms apart)
 * and breaking a stale one, whose torn write is undone first.
 */
export async function acquireLock(
  guard: PathGuard,
  path: string,
  key: string,
  op: string,
  settings: LockSettings,
  signal?: AbortSignal,
): Promise<Acquired> {
  const lockPath = lockPathOf(path);
  const owner = ownerLine(op);
  const rule = new StaleRule();
  const breakRule = new StaleRule();
  let waited = false;
  let undid = false;
  let delay = 1;
  for (;;) {
    signal?.throwIfAborted();
    if (createLock(guard, lockPath, key, owner)) break;
    waited = true;
    const seen = await inspectLock(guard, lockPath, key);
    if (seen === undefined) continue; // released since
    if (await rule.isStale(seen, settings.staleLockMs)) {
      const broke = await breakLock(guard, path, key, seen, breakRule);
      if (broke !== undefined) {
        undid ||= broke;
        continue;
      }
    }
    await sleep(delay * (0.5 + Math.random()), undefined, { signal }).catch(() => signal?.throwIfAborted());
    delay = Math.min(delay * 2, 64);
  }
  const journal = new WriteJournal(guard, lockPath, path, key, owner.length);
  return { lock: new HeldLock(lockPath, journal, settings.staleLockMs), waited, undid };
}

/**
 * Create the lock file with its owner line, or return false while someone
 * holds it. Synchronous: on a local disk these are microseconds, where a trip
 * to Node's I/O threads costs tens per call (every `set` takes a lock).
 */
function createLock(guard: PathGuard, lockPath: string, key: string, owner: Buffer): boolean {
  let fd: number;
  try {
    fd = guard.openSync(lockPath, key, CREATE, 0o644);
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, owner, 0, owner.length, 0);
  } catch (error) {
    try {
      unlinkSync(lockPath);
    } catch {
      // Left empty: the age rule breaks it.
    }
    throw error;
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Poll (with backoff) until no lock file of `path` exists; true when one did. For where none can be created. */
export async function waitWhileLocked(path: string, signal: AbortSignal | undefined): Promise<boolean> {
  const lockPath = lockPathOf(path);
  let waited = false;
  for (let delay = 1; ; delay = Math.min(delay * 2, 64)) {
    const exists = await stat(lockPath).then(
      () => true,
      () => false,
    );
    if (!exists) return waited;
    waited = true;
    await sleep(delay, undefined, { signal }).catch(() => signal?.throwIfAborted());
  }
}
