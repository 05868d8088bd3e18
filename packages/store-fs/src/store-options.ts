import { InvalidOptionError } from "@zarrkit/registry";

/** Options of `FileSystemStore` (also accepted by `openStore("file:///...", options)`). */
export interface FileSystemStoreOptions {
  /** Remove the directories a delete leaves empty, up to (not including) the root. Default: true. */
  removeEmptyDirectories?: boolean;
  /**
   * Follow symbolic links found under the root, as long as they lead to a
   * place inside the root (links leading outside are always refused).
   * Default: false, every symbolic link under the root is refused.
   */
  followSymlinks?: boolean;
  /**
   * The most bytes one read may return (`get`, `getVersioned`, a range). A
   * larger read is a StoreError naming the key and the size, raised before
   * anything is allocated. Default 2 GiB - 1: every read that Node could ever
   * do in one call still works, and a read of a larger value, which Node
   * would answer by aborting the whole process, is an error unless the caller
   * opts in (larger reads are done in pieces of 1 GiB).
   */
  maxReadBytes?: number;
  /**
   * How long a lock held by a process on another machine (or one whose owner
   * cannot be read) must stay unchanged before it counts as stale and is
   * broken. Holders refresh their lock every staleLockMs / 4. Locks of dead
   * processes on this machine are broken at once. Default 30 000.
   */
  staleLockMs?: number;
  /**
   * How whole-value writes (`set`: every shard rewrite, every chunk) reach the
   * disk. `"each-write"` (the default): the new value is fsynced before it is
   * renamed over the old one, so once `set` returns the value survives a
   * crash or power loss. `"none"`: no fsync; the rename still makes every
   * reader see the old value or the new one, but after a power loss a value
   * written shortly before may be lost or, on some filesystems, empty. For
   * data that can be written again (a conversion rerun). Appends and in-place
   * writes always fsync: their crash recovery depends on it.
   */
  durability?: "each-write" | "none";
}

const DEFAULT_MAX_READ_BYTES = 2 ** 31 - 1;
const DEFAULT_STALE_LOCK_MS = 30_000;

/** The options with their defaults applied, each checked (an InvalidOptionError naming the option). */
export interface ResolvedOptions {
  removeEmptyDirectories: boolean;
  followSymlinks: boolean;
  maxReadBytes: number;
  staleLockMs: number;
  /** `durability: "each-write"`. */
  syncWrites: boolean;
}

export function resolveOptions(options: FileSystemStoreOptions): ResolvedOptions {
  const maxReadBytes = checkedOption("maxReadBytes", options.maxReadBytes, DEFAULT_MAX_READ_BYTES, 0);
  const staleLockMs = checkedOption("staleLockMs", options.staleLockMs, DEFAULT_STALE_LOCK_MS, 1);
  const durability = options.durability ?? "each-write";
  if (durability !== "each-write" && durability !== "none") {
    throw new InvalidOptionError(
      `FileSystemStore option durability must be "each-write" or "none", got ${JSON.stringify(durability)}.`,
      { field: "durability" },
    );
  }
  return {
    removeEmptyDirectories: options.removeEmptyDirectories ?? true,
    followSymlinks: options.followSymlinks ?? false,
    maxReadBytes,
    staleLockMs,
    syncWrites: durability === "each-write",
  };
}

function checkedOption(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min) {
    throw new InvalidOptionError(`FileSystemStore option ${name} must be an integer >= ${min}, got ${value}.`, {
      field: name,
    });
  }
  return value;
}
