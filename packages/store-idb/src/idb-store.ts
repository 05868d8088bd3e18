import {
  checkRange,
  checkStoreKey,
  type ListDirResult,
  normalizeStorePrefix,
  PreconditionFailedError,
  type ReadOptions,
  type VersionedValue,
  type RangeQuery,
  rangeBounds,
  type RequestOptions,
  type SetOptions,
  type SizedValue,
  type Store,
  StoreError,
} from "@zarrkit/registry";
import { createStore, promisifyRequest, type UseStore } from "idb-keyval";
import { idbError } from "./errors.js";
import { prefixRange } from "./key-range.js";
import { bytesOf, storable } from "./values.js";

/** Options of `IdbStore`. */
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
 * key is one IndexedDB record holding the value's bytes as a Uint8Array, with
 * a second record holding its version (written in the same transaction):
 * reads report it and honour `ifMatch`, and `set` with `ifMatch` is a
 * compare-and-swap, so readers may cache shard indexes and concurrent tabs
 * lose no write. Values written before versions existed have none until
 * rewritten.
 */
export class IdbStore implements Store {
  /** The IndexedDB database name. */
  readonly database: string;
  /** The object store within the database. */
  readonly objectStore: string;
  /** "" or the key prefix ending in "/". */
  readonly prefix: string;
  readonly #use: UseStore;

  constructor(options: IdbStoreOptions) {
    if (typeof options.database !== "string" || options.database === "")
      throw new StoreError("IdbStore needs a database name.");
    this.database = options.database;
    this.objectStore = options.objectStore ?? "zarrkit";
    this.prefix = normalizeStorePrefix(options.prefix ?? "", "IdbStore");
    this.#use = createStore(this.database, this.objectStore);
  }

  async get(key: string, options?: RequestOptions): Promise<Uint8Array | undefined> {
    const value = await this.#run("readonly", `get ${key}`, key, options, (store) =>
      promisifyRequest(store.get(this.prefix + key)),
    );
    return bytesOf(value, key);
  }

  /** IndexedDB has no partial reads: the whole value is read and the range copied out of it. */
  async getRange(key: string, range: RangeQuery, options?: ReadOptions): Promise<Uint8Array | undefined> {
    return (await this.getRangeWithSize(key, range, options))?.value;
  }

  async getRangeWithSize(key: string, range: RangeQuery, options?: ReadOptions): Promise<SizedValue | undefined> {
    checkRange(key, range);
    const read = await this.#readVersioned(key, options);
    if (read === undefined) return undefined;
    const { value, version } = read;
    const size = value.byteLength;
    const [start, end] = rangeBounds(range, size);
    // A copy, so the rest of a large value (a whole shard) can be garbage-collected.
    return {
      value: start === 0 && end === size ? value : value.slice(start, end),
      size,
      ...(version !== undefined && { version }),
    };
  }

  /** The value and its version; values written before versions existed are given one on their next write. */
  async getVersioned(key: string, options?: RequestOptions): Promise<VersionedValue | undefined> {
    const read = await this.#readVersioned(key, options);
    return read && { value: read.value, version: read.version ?? UNVERSIONED };
  }

  /** The value and its version from one transaction, checked against `ifMatch`. */
  async #readVersioned(
    key: string,
    options: ReadOptions | undefined,
  ): Promise<{ value: Uint8Array; version: string | undefined } | undefined> {
    const [stored, version] = await this.#run("readonly", `get ${key}`, key, options, (store) =>
      Promise.all([
        promisifyRequest(store.get(this.prefix + key)),
        promisifyRequest(store.get(versionKey(this.prefix + key))),
      ]),
    );
    const value = bytesOf(stored, key);
    const current = value === undefined ? undefined : typeof version === "string" ? version : UNVERSIONED;
    if (options?.ifMatch !== undefined && current !== options.ifMatch) {
      throw new PreconditionFailedError(`${key} changed since version ${options.ifMatch}`, { key });
    }
    return value && { value, version: typeof version === "string" ? version : undefined };
  }

  /**
   * Replace the value and its version in one transaction; `ifNoneMatch: "*"`
   * and `ifMatch` are checked inside it, atomically.
   */
  async set(key: string, value: Uint8Array, options: SetOptions = {}): Promise<void> {
    const record = storable(value);
    await this.#run("readwrite", `set ${key}`, key, options, async (store) => {
      const full = this.prefix + key;
      if (options.ifMatch !== undefined || options.ifNoneMatch === "*") {
        const [exists, version] = await Promise.all([
          promisifyRequest(store.getKey(full)),
          promisifyRequest(store.get(versionKey(full))),
        ]);
        const current = exists === undefined ? undefined : typeof version === "string" ? version : UNVERSIONED;
        if (options.ifNoneMatch === "*" && current !== undefined) {
          store.transaction.abort();
          throw new PreconditionFailedError(`${key} already exists`, { key });
        }
        if (options.ifMatch !== undefined && current !== options.ifMatch) {
          store.transaction.abort();
          throw new PreconditionFailedError(`${key} changed since version ${options.ifMatch}`, { key });
        }
      }
      store.put(record, full);
      store.put(newVersion(), versionKey(full));
      return promisifyRequest(store.transaction);
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
        for (const [key, value] of records) {
          store.put(value, key);
          store.put(newVersion(), versionKey(key));
        }
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
      store.delete(versionKey(this.prefix + key));
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
    // Another application's records may share the object store: only string keys are ours, and versions are not keys.
    return keys.flatMap((key) =>
      typeof key === "string" && !isVersionKey(key) ? [key.slice(this.prefix.length)] : [],
    );
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

/** The record holding a value's version: keys never contain NUL, so it cannot be a key of its own. */
function versionKey(fullKey: string): string {
  return `${fullKey}\0version`;
}

function isVersionKey(fullKey: string): boolean {
  return fullKey.endsWith("\0version");
}

/** The version of a value written before versions existed: any write replaces it. */
const UNVERSIONED = "unversioned";

function newVersion(): string {
  return crypto.randomUUID();
}
