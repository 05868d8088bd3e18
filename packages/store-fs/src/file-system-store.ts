import type { BigIntStats } from "node:fs";
import { type FileHandle, open, rmdir, stat, unlink } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import {
  type ListDirResult,
  PreconditionFailedError,
  type RangeQuery,
  rangeBounds,
  type RequestOptions,
  type SetOptions,
  type SizedValue,
  type Store,
  StoreError,
  type VersionedValue,
  ZarrkitError,
} from "@zarrkit/registry";
import { writeFileAtomically } from "./atomic-write.js";
import { errorCode, fileStats, isMissing, openCreating, readAt, writeAt } from "./file-io.js";
import { KeyedLock } from "./keyed-lock.js";
import { keyPath, prefixLocation } from "./keys.js";
import { advanceMtime, versionOf } from "./version.js";
import { keyEntries, walkKeys } from "./walk.js";

export interface FileSystemStoreOptions {
  /** Remove the directories a delete leaves empty, up to (not including) the root. Default: true. */
  removeEmptyDirectories?: boolean;
}

// Module-wide and keyed by absolute path, so stores sharing a root in this process also share locks.
const fileLocks = new KeyedLock();

/**
 * A store over a directory: key "a/b/c" is the file <root>/a/b/c. Whole-value
 * writes are atomic (temporary file + fsync + rename). Conditional writes,
 * appends and in-place writes are serialised per key within this process
 * only: separate processes writing the same keys are not coordinated.
 */
export class FileSystemStore implements Store {
  readonly root: string;
  readonly #removeEmptyDirectories: boolean;

  constructor(root: string, options: FileSystemStoreOptions = {}) {
    this.root = resolve(root);
    this.#removeEmptyDirectories = options.removeEmptyDirectories ?? true;
  }

  async get(key: string, options?: RequestOptions): Promise<Uint8Array | undefined> {
    return this.#read(key, options, (file, stats) => readAt(file, 0, Number(stats.size)));
  }

  async getRange(key: string, range: RangeQuery, options?: RequestOptions): Promise<Uint8Array | undefined> {
    if ("suffixLength" in range) return (await this.getRangeWithSize(key, range, options))?.value;
    checkRange(key, range);
    // An offset range needs no stat: a read past the end returns what is there. With the close
    // not waited for, a ranged read (a shard's inner chunk) costs two trips to the I/O threads, not four.
    return this.#open(key, options, async (file) => {
      try {
        return await readAt(file, range.offset, range.length);
      } catch (error) {
        if (errorCode(error) === "EISDIR") return undefined; // a directory is a prefix, not a key
        throw error;
      }
    });
  }

  /** A ranged read that also reports the file's size, from the same open file's stat. */
  async getRangeWithSize(key: string, range: RangeQuery, options?: RequestOptions): Promise<SizedValue | undefined> {
    return this.#read(key, options, async (file, stats) => {
      const size = Number(stats.size);
      const [start, end] = checkedBounds(key, range, size);
      return { value: await readAt(file, start, end - start), size };
    });
  }

  async getVersioned(key: string, options?: RequestOptions): Promise<VersionedValue | undefined> {
    // Under the key's lock so no in-place write lands between the read and the stat.
    return fileLocks.run(this.#path(key), () =>
      this.#read(key, options, async (file, stats) => ({ value: await readAt(file, 0, Number(stats.size)), version: versionOf(stats) })),
    );
  }

  async size(key: string, options?: RequestOptions): Promise<number | undefined> {
    const path = this.#path(key);
    options?.signal?.throwIfAborted();
    const stats = await fileStats(path).catch((error) => Promise.reject(storeError("stat", key, error)));
    return stats && Number(stats.size);
  }

  /** Replace the value atomically; `ifMatch` / `ifNoneMatch` are checked under a per-key lock (this process only). */
  async set(key: string, value: Uint8Array, options: SetOptions = {}): Promise<void> {
    const path = this.#path(key);
    options.signal?.throwIfAborted();
    await fileLocks.run(path, async () => {
      try {
        const current = await fileStats(path);
        checkPreconditions(key, current, options);
        await writeFileAtomically(path, value, current);
      } catch (error) {
        throw storeError("write", key, error);
      }
    });
  }

  async delete(key: string, options?: RequestOptions): Promise<void> {
    const path = this.#path(key);
    options?.signal?.throwIfAborted();
    await fileLocks.run(path, async () => {
      try {
        await unlink(path);
      } catch (error) {
        if (isMissing(error) || (await isDirectory(path))) return; // a directory is a prefix, not a key
        throw storeError("delete", key, error);
      }
    });
    if (this.#removeEmptyDirectories) await this.#removeEmptyParents(dirname(path));
  }

  async *list(prefix: string, options?: RequestOptions): AsyncIterable<string> {
    const { dir, dirKey, partial } = prefixLocation(this.root, prefix);
    try {
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
    const entries = await keyEntries(dir).catch((error) => Promise.reject(storeError("list", prefix, error)));
    return {
      keys: entries.filter((e) => e.isFile()).map((e) => dirKey + e.name),
      prefixes: entries.filter((e) => e.isDirectory()).map((e) => `${dirKey}${e.name}/`),
    };
  }

  /** Append (creating the value), returning the offset the bytes landed at. */
  async append(key: string, value: Uint8Array, options?: RequestOptions): Promise<number> {
    const path = this.#path(key);
    options?.signal?.throwIfAborted();
    return fileLocks.run(path, async () => {
      try {
        const file = await openCreating(path, "a");
        try {
          const before = await file.stat({ bigint: true });
          if (value.length > 0) {
            await writeAt(file, value, null);
            await advanceMtime(file, before);
            await file.sync();
          }
          return Number(before.size);
        } finally {
          await file.close();
        }
      } catch (error) {
        throw storeError("append to", key, error);
      }
    });
  }

  /**
   * Overwrite bytes in place. The value must exist and the write must end
   * within it: setRange never grows a value (use append), so a wrong offset
   * fails instead of leaving a hole.
   */
  async setRange(key: string, offset: number, value: Uint8Array, options?: RequestOptions): Promise<void> {
    checkCount(key, "offset", offset);
    await this.#modify(key, options, async (file, stats) => {
      const size = Number(stats.size);
      if (offset + value.length > size) {
        throw new StoreError(
          `setRange of ${value.length} bytes at offset ${offset} would run past the end of ${JSON.stringify(key)} (${size} bytes); use append to grow a value.`,
          { key },
        );
      }
      if (value.length > 0) await writeAt(file, value, offset);
      return value.length > 0;
    });
  }

  /** Shorten a value to `length` bytes. The value must exist and `length` cannot exceed its size. */
  async truncate(key: string, length: number, options?: RequestOptions): Promise<void> {
    checkCount(key, "length", length);
    await this.#modify(key, options, async (file, stats) => {
      const size = Number(stats.size);
      if (length > size) throw new StoreError(`Cannot truncate ${JSON.stringify(key)} (${size} bytes) to a larger length ${length}.`, { key });
      if (length < size) await file.truncate(length);
      return length < size;
    });
  }

  #path(key: string): string {
    return keyPath(this.root, key);
  }

  /** Open the key's file for reading and run `use` with its stats, or return undefined when there is no value. */
  #read<T>(key: string, options: RequestOptions | undefined, use: (file: FileHandle, stats: BigIntStats) => Promise<T>): Promise<T | undefined> {
    return this.#open(key, options, async (file) => {
      const stats = await file.stat({ bigint: true });
      return stats.isFile() ? await use(file, stats) : undefined;
    });
  }

  /** Open the key's file for reading and run `use`, or return undefined when there is no file. */
  async #open<T>(key: string, options: RequestOptions | undefined, use: (file: FileHandle) => Promise<T | undefined>): Promise<T | undefined> {
    const path = this.#path(key);
    options?.signal?.throwIfAborted();
    let file: FileHandle;
    try {
      file = await open(path, "r");
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw storeError("read", key, error);
    }
    try {
      return await use(file);
    } catch (error) {
      throw storeError("read", key, error);
    } finally {
      // Closing a file opened for reading cannot lose data: nothing waits for it.
      file.close().catch(() => {});
    }
  }

  /** Open an existing value for an in-place change under the key's lock; `change` returns whether it wrote. */
  async #modify(key: string, options: RequestOptions | undefined, change: (file: FileHandle, stats: BigIntStats) => Promise<boolean>): Promise<void> {
    const path = this.#path(key);
    options?.signal?.throwIfAborted();
    await fileLocks.run(path, async () => {
      let file: FileHandle;
      try {
        file = await open(path, "r+");
      } catch (error) {
        if (isMissing(error) || errorCode(error) === "EISDIR") throw new StoreError(`No value at ${JSON.stringify(key)} to modify.`, { key });
        throw storeError("open", key, error);
      }
      try {
        const before = await file.stat({ bigint: true });
        if (await change(file, before)) {
          await advanceMtime(file, before);
          await file.sync();
        }
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

function checkPreconditions(key: string, current: BigIntStats | undefined, options: SetOptions): void {
  if (options.ifNoneMatch === "*" && current) throw new PreconditionFailedError(`${JSON.stringify(key)} already exists.`, { key });
  if (options.ifMatch !== undefined && (!current || versionOf(current) !== options.ifMatch)) {
    throw new PreconditionFailedError(`${JSON.stringify(key)} is ${current ? "at another version" : "missing"}; expected version ${options.ifMatch}.`, { key });
  }
}

function checkCount(key: string, name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new StoreError(`${name} must be a non-negative integer, got ${value} (key ${JSON.stringify(key)}).`, { key });
}

/** [start, end) of `range` in a value of `size` bytes, clipped to the value. */
/** The checked range's bounds in a file of `size` bytes. */
function checkedBounds(key: string, range: RangeQuery, size: number): [number, number] {
  checkRange(key, range);
  return rangeBounds(range, size);
}

function checkRange(key: string, range: RangeQuery): void {
  if ("suffixLength" in range) {
    checkCount(key, "suffixLength", range.suffixLength);
  } else {
    checkCount(key, "offset", range.offset);
    checkCount(key, "length", range.length);
  }
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** Wrap filesystem errors in a StoreError naming the key; zarrkit errors and aborts pass through. */
function storeError(action: string, key: string, error: unknown): Error {
  if (error instanceof ZarrkitError || (error instanceof Error && error.name === "AbortError")) return error;
  const code = errorCode(error);
  const reason = code === "ENOTDIR" || code === "EEXIST" ? "a parent of the key is a value, not a directory" : code === "EISDIR" ? "the key is a directory" : String(error);
  return new StoreError(`Could not ${action} ${JSON.stringify(key)}: ${reason}.`, { key, cause: error });
}
