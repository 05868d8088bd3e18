import type { AbsolutePath, AsyncMutable, AsyncReadable, RangeQuery } from "zarrita";
import type { RequestCounter } from "./request-stats.js";

export type ZarritaStore = AsyncMutable & Required<Pick<AsyncReadable, "getRange">>;

/**
 * zarrita's own FileSystemStore (`@zarrita/storage/fs`), the store a zarrita
 * user reads files with. It is a dependency of zarrita, not of this package
 * (which may depend on zarrita alone), so it is loaded from beside zarrita.
 */
export async function zarritaFileSystemStore(root: string): Promise<ZarritaStore> {
  const url = new URL("../../../@zarrita/storage/dist/src/fs.js", import.meta.resolve("zarrita"));
  const module = (await import(url.href)) as { default: new (root: string) => ZarritaStore };
  return new module.default(root);
}

/** `store` with every completed request counted (placed under any coalescing, so merged requests count once). */
export function countingZarritaStore(store: ZarritaStore, counter: RequestCounter): ZarritaStore {
  return {
    async get(key: AbsolutePath, options?: { signal?: AbortSignal }) {
      const value = await store.get(key, options);
      counter.read(value?.length ?? 0);
      return value;
    },
    async getRange(key: AbsolutePath, range: RangeQuery, options?: { signal?: AbortSignal }) {
      const value = await store.getRange(key, range, options);
      counter.read(value?.length ?? 0);
      return value;
    },
    async set(key: AbsolutePath, value: Uint8Array) {
      await store.set(key, value);
      counter.wrote(value.length);
    },
  };
}
