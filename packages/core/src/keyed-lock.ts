import { KeyedLock } from "@zarrkit/util";
import type { Store } from "@zarrkit/registry";

const locks = new WeakMap<Store, KeyedLock>();

/**
 * Run `task` after every earlier task for the same store and key has settled:
 * read-modify-write of one chunk (or shard) never interleaves within a process.
 */
export function withKeyLock<T>(store: Store, key: string, task: () => Promise<T>): Promise<T> {
  let lock = locks.get(store);
  if (!lock) {
    lock = new KeyedLock();
    locks.set(store, lock);
  }
  return lock.run(key, task);
}
