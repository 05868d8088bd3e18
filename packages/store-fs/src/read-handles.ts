import { constants, fstatSync, lstatSync, statSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type { PathGuard } from "./paths.js";

const READ = constants.O_RDONLY;

/** A file opened for reading, for one read; `release` when done with it. */
export interface ReadLease {
  readonly file: FileHandle;
  release(): void;
}

interface Entry {
  readonly file: FileHandle;
  readonly dev: bigint;
  readonly ino: bigint;
  /** Reads using the file now. */
  users: number;
  lastUsed: number;
  /** Out of the cache: closed when its last user releases it. */
  dropped: boolean;
}

/**
 * Files opened for reading, kept open for the next read of the same path.
 * A warm read of a shard's inner chunk then costs one trip to Node's I/O
 * threads (the read) instead of three (open, read, close).
 *
 * A kept file is reused only while the path still names it (same device and
 * inode, by a synchronous lstat, or stat where links are followed:
 * microseconds, no I/O thread) and the guard
 * still accepts where the kernel says it is: a replaced, deleted or relinked
 * path is opened afresh, with every check of a first open. So a reader sees
 * exactly what a fresh open would show it. Only where the guard can check an
 * open descriptor (Linux); elsewhere each read opens and closes.
 *
 * Bounded: at most `capacity` files kept (the least recently used in-use
 * ones close when released), and each closes after `idleMs` unused, so a
 * deleted file's space is not held for long.
 */
export class ReadHandles {
  readonly #entries = new Map<string, Entry>();
  #sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly capacity: number,
    readonly idleMs: number,
  ) {}

  /** Files kept open now (for tests and diagnostics). */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Open `path` for reading (the guard's errors and ENOENT pass through), reusing a kept file when the path still names
   * it.
   */
  async open(path: string, key: string, guard: PathGuard): Promise<ReadLease> {
    const kept = this.#entries.get(path);
    if (kept) {
      if (stillNamed(kept, path, key, guard)) {
        kept.users++;
        this.#entries.delete(path);
        this.#entries.set(path, kept); // most recently used last
        return this.#lease(kept);
      }
      this.#drop(path, kept);
    }
    const file = await guard.open(path, key, READ);
    if (!guard.canCheckOpened || this.capacity === 0 || this.#entries.has(path)) return closingLease(file);
    const stats = fstatSync(file.fd, { bigint: true });
    if (!stats.isFile()) return closingLease(file);
    const entry: Entry = { file, dev: stats.dev, ino: stats.ino, users: 1, lastUsed: 0, dropped: false };
    this.#entries.set(path, entry);
    this.#evictOverCapacity();
    this.#sweeper ??= setInterval(() => this.#sweep(), this.idleMs).unref();
    return this.#lease(entry);
  }

  /** Stop reusing the file at `path` (the store replaced or removed it). */
  forget(path: string): void {
    const kept = this.#entries.get(path);
    if (kept) this.#drop(path, kept);
  }

  #lease(entry: Entry): ReadLease {
    let released = false;
    return {
      file: entry.file,
      release: () => {
        if (released) return;
        released = true;
        entry.users--;
        entry.lastUsed = performance.now();
        if (entry.dropped && entry.users === 0) close(entry.file);
      },
    };
  }

  #drop(path: string, entry: Entry): void {
    if (this.#entries.get(path) === entry) this.#entries.delete(path);
    entry.dropped = true;
    if (entry.users === 0) close(entry.file);
    if (this.#entries.size === 0) this.#stopSweeping();
  }

  #evictOverCapacity(): void {
    for (const [path, entry] of this.#entries) {
      if (this.#entries.size <= this.capacity) return;
      this.#drop(path, entry);
    }
  }

  #sweep(): void {
    const now = performance.now();
    for (const [path, entry] of this.#entries) {
      if (entry.users === 0 && now - entry.lastUsed >= this.idleMs) this.#drop(path, entry);
    }
  }

  #stopSweeping(): void {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }
}

/** Whether the path still leads, as the guard allows, to the file kept open. */
function stillNamed(entry: Entry, path: string, key: string, guard: PathGuard): boolean {
  try {
    // Where links are followed, a link's target is what a fresh open would read.
    const now = (guard.follow ? statSync : lstatSync)(path, { bigint: true, throwIfNoEntry: false });
    if (now === undefined || now.dev !== entry.dev || now.ino !== entry.ino) return false;
    guard.checkOpened(entry.file.fd, path, key);
    return true;
  } catch {
    return false; // any doubt: a fresh open decides, with its own errors
  }
}

function closingLease(file: FileHandle): ReadLease {
  return { file, release: () => close(file) };
}

/** Closing a file opened for reading cannot lose data: nothing waits for it. */
function close(file: FileHandle): void {
  file.close().catch(() => {});
}
