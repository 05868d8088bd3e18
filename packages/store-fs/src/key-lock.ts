import { dirname } from "node:path";
import { KeyedLock } from "@zarrkit/util";
import { errorCode, isMissing } from "./file-io.js";
import { type Acquired, acquireLock, type HeldLock, type LockSettings, waitWhileLocked } from "./file-lock.js";
import type { PathGuard } from "./paths.js";
import { storeError } from "./store-error.js";

/*
 * The lock of one key, within the process and across processes (steps 2, 4
 * and 11 of the package README's "The cross-process protocol").
 */

// Module-wide and keyed by absolute path, so stores sharing a root in this process also share locks.
const fileLocks = new KeyedLock();
/** Lock files cannot be created here: reads that would take the lock only wait for other holders. */
const readOnlyCodes = new Set(["EACCES", "EROFS", "EPERM"]);

export interface LockState {
  /** Another holder (in this process or another) had the key's lock first. */
  waited: boolean;
  /** A dead holder's torn write was undone. */
  undid: boolean;
}

export interface KeyLockMode {
  /** Create the key's directory when missing (a write that creates the value). */
  create: boolean;
  /** Where lock files cannot be created, only wait while another holder's lock exists. */
  readOnly?: boolean;
  /** The caller just checked (and made) the directory: the first attempt need not check it again. */
  dirChecked?: boolean;
}

/** What a task under a key's lock runs with. */
export interface KeyLockRequest {
  guard: PathGuard;
  settings: LockSettings;
  key: string;
  /** The file of the key. */
  path: string;
  /** The operation, recorded in the owner line. */
  op: string;
  signal: AbortSignal | undefined;
  mode: KeyLockMode;
}

/**
 * Run `task` holding the key's lock: this process's KeyedLock first, then the
 * lock file. Without `create`, a missing directory means a missing value and
 * `task` runs without a lock file.
 */
export async function withKeyLock<T>(
  request: KeyLockRequest,
  task: (lock: HeldLock | undefined, state: LockState) => Promise<T>,
): Promise<T> {
  const { guard, settings, key, path, op, signal, mode } = request;
  signal?.throwIfAborted();
  const busy = fileLocks.busy(path);
  return fileLocks.run(path, async () => {
    for (let attempt = 1; ; attempt++) {
      let acquired: Acquired;
      try {
        const dirReady = (mode.dirChecked && attempt === 1) || (await guard.checkDir(dirname(path), key, mode.create));
        if (!dirReady) return await task(undefined, { waited: busy, undid: false });
        acquired = await acquireLock(guard, path, key, op, settings, signal);
      } catch (error) {
        // A delete elsewhere may remove the directory between its check and the lock's creation.
        if (isMissing(error) && attempt < 4) continue;
        if (mode.readOnly && readOnlyCodes.has(errorCode(error) ?? "")) {
          const waited = await waitWhileLocked(path, signal);
          return await task(undefined, { waited: busy || waited, undid: false });
        }
        throw storeError("lock", key, error);
      }
      let result: T;
      try {
        result = await task(acquired.lock, { waited: busy || acquired.waited, undid: acquired.undid });
      } catch (error) {
        await acquired.lock.release(key).catch(() => {});
        throw error;
      }
      await acquired.lock.release(key);
      return result;
    }
  });
}
