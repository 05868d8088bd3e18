import { StoreError } from "@zarrkit/registry";
import { IdbStore, type IdbStoreOptions } from "./idb-store.js";

/**
 * The store behind `openStore("idb://database/prefix")`; options may name the
 * object store (`{ objectStore: "..." }`).
 */
export function openIdbStore(url: URL, options: Readonly<Record<string, unknown>>): IdbStore {
  const database = decodeURIComponent(url.host);
  if (database === "") throw new StoreError(`No database in ${JSON.stringify(url.href)}: use idb://database/prefix.`);
  return new IdbStore({ ...(options as Partial<IdbStoreOptions>), database, prefix: decodeURIComponent(url.pathname) });
}
