import { type BigIntStats, closeSync, constants, existsSync, openSync, readlinkSync, realpathSync } from "node:fs";
import { type FileHandle, lstat, mkdir, open, realpath } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { StoreError } from "@zarrkit/registry";
import { errorCode, isMissing } from "./file-io.js";

/**
 * Linux names the file behind every open descriptor: the check after opening needs no extra trip to the I/O threads.
 */
const procFd = process.platform === "linux" && existsSync("/proc/self/fd");
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

export function symlinkRefused(key: string, detail: string): StoreError {
  return new StoreError(`Refusing ${JSON.stringify(key)}: ${detail}.`, { key });
}

/**
 * Keeps every file the store touches inside its root, with symbolic links
 * refused (or, with `follow`, allowed only when they lead to a place inside
 * the root).
 *
 * Race-aware rather than race-free (Node has no openat): files are opened
 * with O_NOFOLLOW for the last component and, on Linux, checked after opening
 * through /proc/self/fd (where the kernel names the file actually opened), so a
 * directory swapped for a symbolic link between a check and the open is still
 * caught before a byte is read or written. Elsewhere the parent directory is
 * resolved with realpath just before opening. Directories are created one
 * level at a time, each inside a parent that was just checked.
 */
export class PathGuard {
  readonly root: string;
  readonly follow: boolean;
  #realRoot: string | undefined;

  constructor(root: string, follow: boolean) {
    this.root = root;
    this.follow = follow;
  }

  /** The root with its own symbolic links resolved (the root itself is trusted); undefined while it does not exist. */
  async #resolvedRoot(): Promise<string | undefined> {
    if (this.#realRoot === undefined) {
      try {
        this.#realRoot = await realpath(this.root);
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    }
    return this.#realRoot;
  }

  #resolvedRootSync(): string {
    this.#realRoot ??= realpathSync.native(this.root);
    return this.#realRoot;
  }

  /**
   * Is `real` (a fully resolved path) an acceptable place for `path` (the path under the root, as the key names it)?
   */
  #allowed(real: string, path: string, realRoot: string): boolean {
    if (!this.follow) return real === join(realRoot, relative(this.root, path));
    return real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
  }

  /**
   * Open a file under the root. Fails with a StoreError naming `key` when the
   * path leads through a refused symbolic link; filesystem errors (ENOENT…)
   * pass through for the caller to interpret.
   */
  async open(path: string, key: string, flags: number, mode?: number): Promise<FileHandle> {
    if (!procFd) await this.checkDir(dirname(path), key, false);
    let file: FileHandle;
    try {
      file = await open(path, flags | (this.follow ? 0 : O_NOFOLLOW), mode);
    } catch (error) {
      if (errorCode(error) === "ELOOP") throw symlinkRefused(key, "it is a symbolic link");
      throw error;
    }
    if (procFd) {
      try {
        this.checkOpened(file.fd, path, key);
      } catch (error) {
        await file.close().catch(() => {});
        throw error;
      }
    } else if (this.follow) {
      const real = await realpath(path).catch(() => undefined);
      const realRoot = await this.#resolvedRoot();
      if (real === undefined || realRoot === undefined || !this.#allowed(real, path, realRoot)) {
        await file.close().catch(() => {});
        throw symlinkRefused(key, "a symbolic link leads outside the store");
      }
    }
    return file;
  }

  /**
   * `open` without a trip to Node's I/O threads, returning a descriptor, for
   * the lock files' few-microsecond operations; in a directory `checkDir`
   * just accepted. Where /proc cannot name an opened file it checks the
   * directory with realpath first, as `open` does.
   */
  openSync(path: string, key: string, flags: number, mode?: number): number {
    if (!procFd && !this.#allowed(realpathSync.native(dirname(path)), dirname(path), this.#resolvedRootSync()))
      throw this.#dirRefused(key);
    let fd: number;
    try {
      fd = openSync(path, flags | (this.follow ? 0 : O_NOFOLLOW), mode);
    } catch (error) {
      if (errorCode(error) === "ELOOP") throw symlinkRefused(key, "it is a symbolic link");
      throw error;
    }
    if (procFd) {
      try {
        this.checkOpened(fd, path, key);
      } catch (error) {
        closeSync(fd);
        throw error;
      }
    }
    return fd;
  }

  /** Whether `checkOpened` can tell where an open descriptor is (Linux: /proc names it). */
  get canCheckOpened(): boolean {
    return procFd;
  }

  /**
   * Refuse the open descriptor `fd` of `path` unless the kernel places it where the guard allows (only where
   * `canCheckOpened`).
   */
  checkOpened(fd: number, path: string, key: string): void {
    let real = readlinkSync(`/proc/self/fd/${fd}`);
    // Replaced by a rename since: it was here.
    if (real.endsWith(" (deleted)")) real = real.slice(0, -" (deleted)".length);
    if (!this.#allowed(real, path, this.#resolvedRootSync())) {
      throw symlinkRefused(
        key,
        this.follow ? "a symbolic link leads outside the store" : "its path goes through a symbolic link",
      );
    }
  }

  /**
   * Check that `dir` (the root or a directory under it) is reached without a
   * refused symbolic link. Returns whether it exists; with `create`, missing
   * directories are created (then it always exists).
   */
  async checkDir(dir: string, key: string, create: boolean): Promise<boolean> {
    const realRoot = await this.#resolvedRoot();
    if (realRoot !== undefined) {
      try {
        if (!this.#allowed(await realpath(dir), dir, realRoot)) throw this.#dirRefused(key);
        return true;
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
      // Missing: still refuse when the part that exists leads through a link (no telling what is out there).
      for (let ancestor = dirname(dir); ancestor.length > this.root.length; ancestor = dirname(ancestor)) {
        const real = await realpath(ancestor).catch((error: unknown) =>
          isMissing(error) ? undefined : Promise.reject(error),
        );
        if (real === undefined) continue;
        if (!this.#allowed(real, ancestor, realRoot)) throw this.#dirRefused(key);
        break;
      }
    }
    if (!create) return false;
    await mkdir(this.root, { recursive: true }); // the root is the caller's choice: its own path may hold links
    // mkdir follows a symbolic link in the parent it creates in, so every level is checked before going below it.
    let current = this.root;
    for (const segment of relative(this.root, dir)
      .split(sep)
      .filter((s) => s !== "")) {
      current = join(current, segment);
      for (let attempt = 1; ; attempt++) {
        const stats = await lstat(current).catch((error: unknown) =>
          isMissing(error) ? undefined : Promise.reject(error),
        );
        if (stats?.isDirectory()) break;
        if (stats?.isSymbolicLink()) {
          if (!this.follow) throw this.#dirRefused(key);
          break; // the realpath check below decides
        }
        if (stats) throw Object.assign(new Error(`ENOTDIR: not a directory, ${current}`), { code: "ENOTDIR" });
        try {
          await mkdir(current);
          break;
        } catch (error) {
          if (errorCode(error) !== "EEXIST" || attempt === 4) throw error; // another writer made it: look again
        }
      }
    }
    const resolved = await realpath(dir);
    if (!this.#allowed(resolved, dir, await this.#requireRoot())) throw this.#dirRefused(key);
    return true;
  }

  async #requireRoot(): Promise<string> {
    const realRoot = await this.#resolvedRoot();
    if (realRoot === undefined)
      throw Object.assign(new Error(`ENOENT: no such directory, ${this.root}`), { code: "ENOENT" });
    return realRoot;
  }

  #dirRefused(key: string): StoreError {
    return symlinkRefused(
      key,
      this.follow ? "a symbolic link leads outside the store" : "its path goes through a symbolic link",
    );
  }

  /**
   * For operations that replace or remove the entry itself (set renames over
   * it, delete unlinks it): lstat the path, refusing a symbolic link unless
   * links are followed and this one stays inside the root. Returns the lstat
   * (undefined when missing).
   */
  async checkEntry(path: string, key: string): Promise<BigIntStats | undefined> {
    let stats: BigIntStats;
    try {
      stats = await lstat(path, { bigint: true });
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    if (!stats.isSymbolicLink()) return stats;
    if (!this.follow) throw symlinkRefused(key, "it is a symbolic link");
    const real = await realpath(path).catch(() => undefined);
    const realRoot = await this.#resolvedRoot();
    if (real === undefined || realRoot === undefined || !this.#allowed(real, path, realRoot)) {
      throw symlinkRefused(key, "a symbolic link leads outside the store");
    }
    return stats;
  }
}
