import type { Store } from "@zarrkit/registry";

const queues = new WeakMap<Store, Map<string, Promise<unknown>>>();

/**
 * Run `task` after every earlier task for the same store and key has settled:
 * read-modify-write of one chunk (or shard) never interleaves within a process.
 */
export function withKeyLock<T>(store: Store, key: string, task: () => Promise<T>): Promise<T> {
  let perStore = queues.get(store);
  if (!perStore) {
    perStore = new Map();
    queues.set(store, perStore);
  }
  const previous = perStore.get(key) ?? Promise.resolve();
  const result = previous.then(task, task);
  const settled = result.then(
    () => undefined,
    () => undefined,
  );
  perStore.set(key, settled);
  settled.then(() => {
    if (perStore.get(key) === settled) perStore.delete(key);
  });
  return result;
}
