import { checkStoreKey, type ListDirResult, normalizeStorePrefix, type RangeQuery, rangeBounds, type RequestOptions, type SetOptions, type SizedValue, type Store, StoreError } from "@zarrkit/registry";
import { createStore, promisifyRequest, type UseStore } from "idb-keyval";
import { idbError } from "./errors.js";
import { prefixRange } from "./key-range.js";
import { bytesOf, storable } from "./values.js";

export interface IdbStoreOptions {
  /** IndexedDB database name. */
  database: string;
  /** Prefix of this store's keys in the database, e.g. "arrays/a.zarr" (default "": the whole object store). */
  prefix?: string;
  /** Object store in the database (default "zarrkit"). A database holds one; stores share it by prefix. */
  objectStore?: string;
}

/**
 * A store in IndexedDB (through idb-keyval), for offline browser apps. Each
 * key is one IndexedDB record holding the value's bytes as a Uint8Array.
 */
export class IdbStore implements Store {
  readonly database: string;
  readonly objectStore: string;
  /** "" or the key prefix ending in "/". */
  readonly prefix: string;
  readonly #use: UseStore;

  constructor(options: IdbStoreOptions) {
    if (typeof options.database !== "string" || options.database === "") throw new StoreError("IdbStore needs a database name.");
    this.database = options.database;
    this.objectStore = options.objectStore ?? "zarrkit";
    this.prefix = normalizeStorePrefix(options.prefix ?? "", "IdbStore");
    this.#use = createStore(this.database, this.objectStore);
  }

  async get(key: string, options?: RequestOptions): Promise<Uint8Array | undefined> {
    const value = await this.#run("readonly", `get ${key}`, key, options, (store) => promisifyRequest(store.get(this.prefix + key)));
    return bytesOf(value, key);
  }

  /** IndexedDB has no partial reads: the whole value is read and the range copied out of it. */
  async getRange(key: string, range: RangeQuery, options?: RequestOptions): Promise<Uint8Array | undefined> {
    return (await this.getRangeWithSize(key, range, options))?.value;
  }

  async getRangeWithSize(key: string, range: RangeQuery, options?: RequestOptions): Promise<SizedValue | undefined> {
    const value = await this.get(key, options);
    if (value === undefined) return undefined;
    const size = value.byteLength;
    const [start, end] = rangeBounds(range, size);
    // A copy, so the rest of a large value (a whole shard) can be garbage-collected.
    return { value: start === 0 && end === size ? value : value.slice(start, end), size };
  }

  /**
   * Replace the value in one transaction. `ifNoneMatch: "*"` is honoured
   * atomically; `ifMatch` cannot be, as this store has no versions.
   */
  async set(key: string, value: Uint8Array, options: SetOptions = {}): Promise<void> {
    if (options.ifMatch !== undefined) {
      throw new StoreError(`IdbStore cannot write ${key} with ifMatch: it keeps no versions (it has no getVersioned).`, { key });
    }
    const record = storable(value);
    await this.#run("readwrite", `set ${key}`, key, options, (store) => {
      // add() refuses an existing key, aborting the transaction: the atomic form of ifNoneMatch.
      const request = options.ifNoneMatch === "*" ? store.add(record, this.prefix + key) : store.put(record, this.prefix + key);
      return promisifyRequest(store.transaction).catch((error: unknown) => {
        // Not every implementation passes the request's ConstraintError on to the transaction.
        throw request.readyState === "done" && request.error?.name === "ConstraintError" ? request.error : error;
      });
    });
  }

  /**
   * Write several values in one transaction: all of them or, if any write
   * fails (a full quota, say), none, with every previous value intact.
   */
  async setMany(entries: Iterable<readonly [key: string, value: Uint8Array]>, options?: RequestOptions): Promise<void> {
    const records = [...entries].map(([key, value]) => {
      checkStoreKey(key);
      return [this.prefix + key, storable(value)] as const;
    });
    await this.#run("readwrite", `setMany of ${records.length} keys`, undefined, options, (store) => {
      try {
        for (const [key, value] of records) store.put(value, key);
      } catch (error) {
        // put() throws at once for a value it cannot clone; the puts before it must not commit.
        store.transaction.abort();
        throw error;
      }
      return promisifyRequest(store.transaction);
    });
  }

  async delete(key: string, options?: RequestOptions): Promise<void> {
    await this.#run("readwrite", `delete ${key}`, key, options, (store) => {
      store.delete(this.prefix + key);
      return promisifyRequest(store.transaction);
    });
  }

  async *list(prefix: string, options?: RequestOptions): AsyncIterable<string> {
    for (const key of await this.#keys(prefix, options)) yield key;
  }

  async listDir(prefix: string, options?: RequestOptions): Promise<ListDirResult> {
    const keys: string[] = [];
    const prefixes = new Set<string>();
    for (const key of await this.#keys(prefix, options)) {
      const slash = key.indexOf("/", prefix.length);
      if (slash < 0) keys.push(key);
      else prefixes.add(key.slice(0, slash + 1));
    }
    return { keys, prefixes: [...prefixes] };
  }

  /** The store's keys starting with `prefix`, without the store's own prefix. */
  async #keys(prefix: string, options: RequestOptions | undefined): Promise<string[]> {
    const keys = await this.#run("readonly", `list ${prefix}`, undefined, options, (store) =>
      promisifyRequest(store.getAllKeys(prefixRange(this.prefix + prefix))),
    );
    // Another application's records may share the object store: only string keys are ours.
    return keys.flatMap((key) => (typeof key === "string" ? [key.slice(this.prefix.length)] : []));
  }

  async #run<T>(
    mode: IDBTransactionMode,
    what: string,
    key: string | undefined,
    options: RequestOptions | undefined,
    operation: (store: IDBObjectStore) => Promise<T>,
  ): Promise<T> {
    if (key !== undefined) checkStoreKey(key);
    options?.signal?.throwIfAborted();
    try {
      return await this.#use(mode, operation);
    } catch (error) {
      throw idbError(`${what} (database ${JSON.stringify(this.database)})`, key, error);
    }
  }
}
