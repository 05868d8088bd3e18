import { type BigIntStats, constants, fstatSync } from "node:fs";
import { type FileHandle, rmdir, stat, unlink } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import {
  checkRange,
  checkRangeInto,
  checkWindow,
  type LentRange,
  type ListDirResult,
  type RangeQuery,
  type ReadOptions,
  type RequestOptions,
  rangeBounds,
  type SetOptions,
  type SizedValue,
  type Store,
  StoreError,
  type VersionedValue,
  type WindowQuery,
} from "@zarrkit/registry";
import { PreparedWrite } from "./atomic-write.js";
import { errorCode, isMissing, readAt, readInto, writeAt } from "./file-io.js";
import { fileSource } from "./file-range-reader.js";
import type { HeldLock, LockSettings } from "./file-lock.js";
import { fingerprint } from "./journal-record.js";
import { type KeyLockMode, type LockState, withKeyLock } from "./key-lock.js";
import { keyPath, prefixLocation } from "./keys.js";
import { PathGuard } from "./paths.js";
import { checkPreconditions, versionMismatch } from "./preconditions.js";
import { type ReadLease, ReadHandles } from "./read-handles.js";
import { storeError } from "./store-error.js";
import { type FileSystemStoreOptions, resolveOptions } from "./store-options.js";
import { advanceMtime, versionOf } from "./version.js";
import { keyEntries, walkKeys } from "./walk.js";

/** Windows up to this length are read without a stat (allocating the requested length); longer ones are clipped. */
const FAST_RANGE_BYTES = 16 * 2 ** 20;

// Module-wide: the bound on open files holds for the process, however many stores it opens.
const readHandles = new ReadHandles(64, 2000);

/**
 * A store over a directory: key "a/b/c" is the file <root>/a/b/c.
 *
 * Any number of processes (and machines sharing the directory) may use one
 * store: writes and `getVersioned` hold the key's lock file, appends and
 * in-place writes are journaled so that a writer dying part-way is undone,
 * reads take no lock. How, step by step: the package README, "The
 * cross-process protocol". Symbolic links are refused (or, with
 * `followSymlinks`, allowed inside the root) on every operation, and no read
 * returns more than `maxReadBytes`.
 */
export class FileSystemStore implements Store {
  /** The absolute directory holding the store's keys. */
  readonly root: string;
  readonly #removeEmptyDirectories: boolean;
  readonly #maxReadBytes: number;
  readonly #lockSettings: LockSettings;
  readonly #guard: PathGuard;
  readonly #syncWrites: boolean;

  constructor(root: string, options: FileSystemStoreOptions = {}) {
    this.root = resolve(root);
    const resolved = resolveOptions(options);
    this.#removeEmptyDirectories = resolved.removeEmptyDirectories;
    this.#maxReadBytes = resolved.maxReadBytes;
    this.#lockSettings = { staleLockMs: resolved.staleLockMs };
    this.#guard = new PathGuard(this.root, resolved.followSymlinks);
    this.#syncWrites = resolved.syncWrites;
  }

  async get(key: string, options?: RequestOptions): Promise<Uint8Array | undefined> {
    return this.#read(key, options, (file, stats) => this.#readWhole(key, file, Number(stats.size)));
  }

  async getRange(key: string, range: RangeQuery, options?: ReadOptions): Promise<Uint8Array | undefined> {
    const long = "suffixLength" in range || range.length > Math.min(FAST_RANGE_BYTES, this.#maxReadBytes);
    if (long || options?.ifMatch !== undefined) return (await this.getRangeWithSize(key, range, options))?.value;
    checkRange(key, range);
    // An offset range needs no stat: a read past the end returns what is there. With the close
    // not waited for, a ranged read (a shard's inner chunk) costs two trips to the I/O threads, not four.
    return this.#open(key, options, (file) => readAt(file, range.offset, range.length));
  }

  /**
   * A window read into `target` (`FileHandle.read` straight into it): no
   * buffer is allocated, whatever the length, so `maxReadBytes` does not
   * apply. Without `ifMatch` no stat is needed, as in `getRange`.
   */
  async getRangeInto(
    key: string,
    range: WindowQuery,
    target: Uint8Array,
    options?: ReadOptions,
  ): Promise<number | undefined> {
    checkRangeInto(key, range, target);
    const ifMatch = options?.ifMatch;
    const read = await this.#open(key, options, async (file) => {
      if (ifMatch !== undefined) {
        const stats = fstatSync(file.fd, { bigint: true });
        if (!stats.isFile()) return undefined;
        if (versionOf(stats) !== ifMatch) throw versionMismatch(key, true, ifMatch);
      }
      return readInto(file, range.offset, target, range.length);
    });
    if (read === undefined && ifMatch !== undefined) throw versionMismatch(key, false, ifMatch);
    return read;
  }

  /**
   * Lends a window of the file to codec workers: its descriptor, which they
   * read with positioned reads (`file-range-reader.ts`), kept open until
   * `use` settles. The workers thus read what this open file holds, as one
   * `getRangeInto` would, checked as that is (the path guard, `ifMatch`
   * against the open file's version); the window is cut at the file's size.
   */
  async lendRange<T>(
    key: string,
    range: WindowQuery,
    options: ReadOptions | undefined,
    use: (lent: LentRange | undefined) => Promise<T>,
  ): Promise<T> {
    checkWindow(key, range, "lendRange");
    const ifMatch = options?.ifMatch;
    const lease = await this.#lease(key, options);
    try {
      let stats: BigIntStats | undefined;
      try {
        stats = lease && fstatSync(lease.file.fd, { bigint: true });
      } catch (error) {
        throw storeError("read", key, error);
      }
      // A directory is a prefix, not a key.
      if (!stats?.isFile()) {
        if (ifMatch !== undefined) throw versionMismatch(key, false, ifMatch);
        return await use(undefined);
      }
      if (ifMatch !== undefined && versionOf(stats) !== ifMatch) throw versionMismatch(key, true, ifMatch);
      const length = Math.max(0, Math.min(range.length, Number(stats.size) - range.offset));
      return await use({ source: fileSource(lease!.file.fd), offset: range.offset, length, splittable: true });
    } finally {
      lease?.release();
    }
  }

  /**
   * A ranged read that also reports the file's size and version, both from
   * the stat of the same open file the bytes are read from. With `ifMatch`,
   * that version is compared before reading.
   */
  async getRangeWithSize(key: string, range: RangeQuery, options?: ReadOptions): Promise<SizedValue | undefined> {
    const ifMatch = options?.ifMatch;
    const sized = await this.#read(key, options, async (file, stats) => {
      const size = Number(stats.size);
      const version = versionOf(stats);
      if (ifMatch !== undefined && version !== ifMatch) throw versionMismatch(key, true, ifMatch);
      const [start, end] = checkedBounds(key, range, size);
      return { value: await readAt(file, start, this.#readable(key, end - start)), size, version };
    });
    if (sized === undefined && ifMatch !== undefined) throw versionMismatch(key, false, ifMatch);
    return sized;
  }

  /** The value and its version, read under the key's lock so no write of any process lands in between. */
  async getVersioned(key: string, options?: RequestOptions): Promise<VersionedValue | undefined> {
    const mode = { create: false, readOnly: true };
    return this.#locked(key, "getVersioned", options?.signal, mode, () =>
      this.#read(key, undefined, async (file, stats) => {
        const value = await this.#readWhole(key, file, Number(stats.size));
        return { value, version: versionOf(stats) };
      }),
    );
  }

  async size(key: string, options?: RequestOptions): Promise<number | undefined> {
    return this.#read(key, options, async (_file, stats) => Number(stats.size));
  }

  /**
   * Replace the value atomically. The new value is written and fsynced to a
   * temporary file first; only the check of `ifMatch` / `ifNoneMatch` and the
   * rename happen under the key's lock.
   */
  set(key: string, value: Uint8Array, options: SetOptions = {}): Promise<void> {
    return this.setParts(key, [value], options);
  }

  /** `set` of the concatenation of `parts`, written from them as they are (vectored writes). */
  async setParts(key: string, parts: readonly Uint8Array[], options: SetOptions = {}): Promise<void> {
    const path = this.#path(key);
    const dir = dirname(path);
    options.signal?.throwIfAborted();
    let prepared: PreparedWrite;
    try {
      if (!(await this.#guard.checkDir(dir, key, options.ifMatch === undefined))) {
        // No directory, so no value: ifMatch cannot hold (and nothing is created).
        throw versionMismatch(key, false, options.ifMatch!);
      }
      prepared = await PreparedWrite.prepare(this.#guard, dir, key, parts, this.#syncWrites);
    } catch (error) {
      throw storeError("write", key, error);
    }
    try {
      await this.#locked(key, "set", options.signal, { create: true, dirChecked: true }, async () => {
        const current = await this.#current(path, key);
        checkPreconditions(key, current, options);
        await prepared.commit(path, current);
        readHandles.forget(path); // the replaced file's space is freed now, not when it would idle out
      });
    } catch (error) {
      await prepared.discard();
      throw storeError("write", key, error);
    }
  }

  async delete(key: string, options?: RequestOptions): Promise<void> {
    const path = this.#path(key);
    await this.#locked(key, "delete", options?.signal, { create: false }, async () => {
      try {
        const stats = await this.#guard.checkEntry(path, key);
        if (!stats || stats.isDirectory()) return; // a directory is a prefix, not a key
        await unlink(path);
        readHandles.forget(path);
      } catch (error) {
        if (isMissing(error)) return;
        throw storeError("delete", key, error);
      }
    });
    if (this.#removeEmptyDirectories) await this.#removeEmptyParents(dirname(path));
  }

  async *list(prefix: string, options?: RequestOptions): AsyncIterable<string> {
    const { dir, dirKey, partial } = prefixLocation(this.root, prefix);
    try {
      if (!(await this.#guard.checkDir(dir, prefix, false))) return;
      yield* walkKeys(dir, dirKey, partial, options?.signal);
    } catch (error) {
      throw storeError("list", prefix, error);
    }
  }

  /** One level below `prefix`; a prefix without a trailing "/" is taken as a directory ("a" lists "a/"). */
  async listDir(prefix: string, options?: RequestOptions): Promise<ListDirResult> {
    const dirKey = prefix === "" || prefix.endsWith("/") ? prefix : `${prefix}/`;
    const { dir } = prefixLocation(this.root, dirKey);
    options?.signal?.throwIfAborted();
    let entries: Awaited<ReturnType<typeof keyEntries>> = [];
    try {
      if (await this.#guard.checkDir(dir, prefix, false)) entries = await keyEntries(dir);
    } catch (error) {
      throw storeError("list", prefix, error);
    }
    return {
      keys: entries.filter((e) => e.isFile()).map((e) => dirKey + e.name),
      prefixes: entries.filter((e) => e.isDirectory()).map((e) => `${dirKey}${e.name}/`),
    };
  }

  /**
   * Append (creating the value), returning the offset the bytes landed at.
   * With `ifMatch`, only while the value has that version (`ifNoneMatch: "*"`:
   * only when it does not exist). The size before is journaled first, so an
   * append torn by a crash is cut off again.
   */
  async append(key: string, value: Uint8Array, options: SetOptions = {}): Promise<number> {
    const path = this.#path(key);
    return this.#locked(key, "append", options.signal, { create: options.ifMatch === undefined }, async (lock) => {
      try {
        const current = await this.#current(path, key);
        checkPreconditions(key, current, options);
        const size = Number(current?.size ?? 0n);
        if (value.length === 0 && current) return size;
        const written = { added: value.length, written: fingerprint(value) };
        await lock!.journal.record(
          current
            ? { op: "append", ino: current.ino.toString(), size, created: false, ...written }
            : { op: "append", size: 0, created: true, ...written },
        );
        try {
          const flags = constants.O_WRONLY | constants.O_APPEND | (current ? 0 : constants.O_CREAT);
          const file = await this.#guard.open(path, key, flags, 0o644);
          try {
            await writeAt(file, value, null);
            await advanceMtime(file, current);
            await file.sync();
          } finally {
            await file.close();
          }
        } catch (error) {
          await lock!.journal.undo().catch(() => {});
          throw error;
        }
        return size;
      } catch (error) {
        throw storeError("append to", key, error);
      }
    });
  }

  /**
   * Overwrite bytes in place, returning the value's new version. The value
   * must exist and the write must end within it: setRange never grows a value
   * (use append), so a wrong offset fails instead of leaving a hole. With
   * `ifMatch`, only while the value has that version. The bytes overwritten
   * are journaled first, so a write torn by a crash is put back.
   */
  async setRange(key: string, offset: number, value: Uint8Array, options: SetOptions = {}): Promise<string> {
    checkCount(key, "offset", offset);
    return this.#modify(key, "setRange", options, async (file, stats, lock) => {
      checkPreconditions(key, stats, options);
      const size = Number(stats.size);
      if (offset + value.length > size) {
        const write = `setRange of ${value.length} bytes at offset ${offset}`;
        throw new StoreError(
          `${write} would run past the end of ${JSON.stringify(key)} (${size} bytes); use append to grow a value.`,
          { key },
        );
      }
      if (value.length === 0) return versionOf(stats);
      await lock.journal.record(
        { op: "setRange", ino: stats.ino.toString(), offset, length: value.length, written: fingerprint(value) },
        await readAt(file, offset, value.length),
      );
      try {
        await writeAt(file, value, offset);
        await advanceMtime(file, stats);
        await file.sync();
      } catch (error) {
        await lock.journal.undo().catch(() => {});
        throw error;
      }
      return versionOf(await file.stat({ bigint: true }));
    });
  }

  /** Shorten a value to `length` bytes. The value must exist and `length` cannot exceed its size. */
  async truncate(key: string, length: number, options?: RequestOptions): Promise<void> {
    checkCount(key, "length", length);
    await this.#modify(key, "truncate", options ?? {}, async (file, stats) => {
      const size = Number(stats.size);
      if (length > size) {
        throw new StoreError(`Cannot truncate ${JSON.stringify(key)} (${size} bytes) to a larger length ${length}.`, {
          key,
        });
      }
      if (length < size) {
        await file.truncate(length); // one call: a crash leaves the old length or the new one
        await advanceMtime(file, stats);
        await file.sync();
      }
    });
  }

  /**
   * Wait for a write of the key in progress in any process, and undo one whose
   * writer died part-way (taking the key's lock, then releasing it). True when
   * it waited or undid something.
   */
  async recover(key: string, options?: RequestOptions): Promise<boolean> {
    const path = this.#path(key);
    const mode = { create: false, readOnly: true };
    return this.#locked(key, "recover", options?.signal, mode, async (_lock, state) => {
      await this.#guard.checkEntry(path, key); // refuses a link as every other operation does
      return state.waited || state.undid;
    });
  }

  #path(key: string): string {
    return keyPath(this.root, key);
  }

  /**
   * The whole value of an open file of `size` bytes (its stat): all of them,
   * or a StoreError when the file ended sooner (truncated while it was read),
   * never the part that was there.
   */
  async #readWhole(key: string, file: FileHandle, size: number): Promise<Uint8Array> {
    const value = await readAt(file, 0, this.#readable(key, size));
    if (value.byteLength !== size) {
      throw new StoreError(
        `${JSON.stringify(key)} was ${size} bytes when opened but ended after ${value.byteLength} while it was read ` +
          `(truncated meanwhile); read it again.`,
        { key },
      );
    }
    return value;
  }

  /** `n` when one read may return that many bytes; a StoreError naming the key before anything is allocated. */
  #readable(key: string, n: number): number {
    if (n > this.#maxReadBytes) {
      throw new StoreError(
        `Reading ${n} bytes of ${JSON.stringify(key)} exceeds maxReadBytes (${this.#maxReadBytes}); ` +
          "read it in ranges or raise the option.",
        { key },
      );
    }
    return n;
  }

  /** The regular file's stats (following a symbolic link only where allowed), or undefined when there is none. */
  async #current(path: string, key: string): Promise<BigIntStats | undefined> {
    const entry = await this.#guard.checkEntry(path, key);
    if (!entry) return undefined;
    const stats = entry.isSymbolicLink()
      ? await stat(path, { bigint: true }).catch((e: unknown) => (isMissing(e) ? undefined : Promise.reject(e)))
      : entry;
    return stats?.isFile() ? stats : undefined;
  }

  /** Run `task` holding the key's lock (see `withKeyLock`). */
  #locked<T>(
    key: string,
    op: string,
    signal: AbortSignal | undefined,
    mode: KeyLockMode,
    task: (lock: HeldLock | undefined, state: LockState) => Promise<T>,
  ): Promise<T> {
    const request = { guard: this.#guard, settings: this.#lockSettings, key, path: this.#path(key), op, signal, mode };
    return withKeyLock(request, task);
  }

  /** Open the key's file for reading and run `use` with its stats, or return undefined when there is no value. */
  #read<T>(
    key: string,
    options: RequestOptions | undefined,
    use: (file: FileHandle, stats: BigIntStats) => Promise<T>,
  ): Promise<T | undefined> {
    return this.#open(key, options, async (file) => {
      // The stat of a file just opened reads what open() already loaded:
      // synchronously it costs microseconds, not a trip to the I/O threads.
      const stats = fstatSync(file.fd, { bigint: true });
      return stats.isFile() ? await use(file, stats) : undefined;
    });
  }

  /**
   * Open the key's file for reading (or reuse one kept open) and run `use`,
   * or return undefined when there is no file (or a directory).
   */
  async #open<T>(
    key: string,
    options: RequestOptions | undefined,
    use: (file: FileHandle) => Promise<T | undefined>,
  ): Promise<T | undefined> {
    const lease = await this.#lease(key, options);
    if (lease === undefined) return undefined;
    try {
      return await use(lease.file);
    } catch (error) {
      if (errorCode(error) === "EISDIR") return undefined; // a directory is a prefix, not a key
      throw storeError("read", key, error);
    } finally {
      lease.release();
    }
  }
  /** The key's file opened for reading (undefined when missing), to `release` when done. */
  async #lease(key: string, options: RequestOptions | undefined): Promise<ReadLease | undefined> {
    const path = this.#path(key);
    options?.signal?.throwIfAborted();
    try {
      return await readHandles.open(path, key, this.#guard);
    } catch (error) {
      try {
        if (!isMissing(error)) throw error;
        // Missing, unless the directory is a link that leads elsewhere: say so rather than tell what is there.
        await this.#guard.checkDir(dirname(path), key, false);
        return undefined;
      } catch (error) {
        throw storeError("read", key, error);
      }
    }
  }

  /** Open an existing value for an in-place change under the key's lock. */
  async #modify<T>(
    key: string,
    op: string,
    options: RequestOptions,
    change: (file: FileHandle, stats: BigIntStats, lock: HeldLock) => Promise<T>,
  ): Promise<T> {
    const path = this.#path(key);
    return this.#locked(key, op, options.signal, { create: false }, async (lock) => {
      const noValue = () => new StoreError(`No value at ${JSON.stringify(key)} to modify.`, { key });
      if (!lock) throw noValue(); // no directory
      let file: FileHandle;
      try {
        file = await this.#guard.open(path, key, constants.O_RDWR);
      } catch (error) {
        if (isMissing(error) || errorCode(error) === "EISDIR") throw noValue();
        throw storeError("open", key, error);
      }
      try {
        const stats = await file.stat({ bigint: true });
        if (!stats.isFile()) throw noValue();
        return await change(file, stats, lock);
      } catch (error) {
        throw storeError("modify", key, error);
      } finally {
        await file.close();
      }
    });
  }

  /** Best effort: stops at the first directory that is not empty (or is gone, or cannot be removed). */
  async #removeEmptyParents(dir: string): Promise<void> {
    while (dir !== this.root) {
      try {
        await rmdir(dir);
      } catch {
        return;
      }
      dir = dirname(dir);
    }
  }
}

function checkCount(key: string, name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new StoreError(`${name} must be a non-negative integer, got ${value} (key ${JSON.stringify(key)}).`, { key });
  }
}

/** [start, end) of the checked `range` in a value of `size` bytes, clipped to the value. */
function checkedBounds(key: string, range: RangeQuery, size: number): [number, number] {
  checkRange(key, range);
  return rangeBounds(range, size);
}
