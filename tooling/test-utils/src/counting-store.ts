import type { RangeQuery, RequestOptions, SetOptions, Store } from "@zarrkit/registry";

export interface LoggedRequest {
  method: "get" | "getRange" | "getVersioned" | "set" | "delete" | "list" | "listDir" | "size" | "append" | "setRange" | "truncate";
  key: string;
  range?: RangeQuery;
  /** Bytes returned (reads) or sent (writes). */
  bytes: number;
}

export interface CountingStore extends Store {
  readonly log: LoggedRequest[];
  /** Number of read requests (get, getRange, getVersioned) since the last reset, optionally for one method. */
  reads(method?: LoggedRequest["method"]): number;
  bytesRead(): number;
  reset(): void;
}

/**
 * Wrap a store so tests and benchmarks can count requests and bytes. Only the
 * capabilities the inner store has are exposed, so code under test sees the
 * same store shape.
 */
export function countingStore(inner: Store): CountingStore {
  const log: LoggedRequest[] = [];
  const record = (entry: LoggedRequest) => log.push(entry);
  const readMethods = new Set<LoggedRequest["method"]>(["get", "getRange", "getVersioned"]);
  const store: CountingStore = {
    log,
    reads: (method) => log.filter((r) => (method ? r.method === method : readMethods.has(r.method))).length,
    bytesRead: () => log.filter((r) => readMethods.has(r.method)).reduce((n, r) => n + r.bytes, 0),
    reset: () => {
      log.length = 0;
    },
    async get(key: string, options?: RequestOptions) {
      const value = await inner.get(key, options);
      record({ method: "get", key, bytes: value?.byteLength ?? 0 });
      return value;
    },
  };
  if (inner.getRange) {
    const getRange = inner.getRange.bind(inner);
    store.getRange = async (key: string, range: RangeQuery, options?: RequestOptions) => {
      const value = await getRange(key, range, options);
      record({ method: "getRange", key, range, bytes: value?.byteLength ?? 0 });
      return value;
    };
  }
  if (inner.getVersioned) {
    const getVersioned = inner.getVersioned.bind(inner);
    store.getVersioned = async (key: string, options?: RequestOptions) => {
      const value = await getVersioned(key, options);
      record({ method: "getVersioned", key, bytes: value?.value.byteLength ?? 0 });
      return value;
    };
  }
  if (inner.set) {
    const set = inner.set.bind(inner);
    store.set = async (key: string, value: Uint8Array, options?: SetOptions) => {
      record({ method: "set", key, bytes: value.byteLength });
      await set(key, value, options);
    };
  }
  if (inner.delete) {
    const del = inner.delete.bind(inner);
    store.delete = async (key: string, options?: RequestOptions) => {
      record({ method: "delete", key, bytes: 0 });
      await del(key, options);
    };
  }
  if (inner.list) {
    const list = inner.list.bind(inner);
    store.list = (prefix: string, options?: RequestOptions) => {
      record({ method: "list", key: prefix, bytes: 0 });
      return list(prefix, options);
    };
  }
  if (inner.listDir) {
    const listDir = inner.listDir.bind(inner);
    store.listDir = async (prefix: string, options?: RequestOptions) => {
      record({ method: "listDir", key: prefix, bytes: 0 });
      return listDir(prefix, options);
    };
  }
  if (inner.size) {
    const size = inner.size.bind(inner);
    store.size = async (key: string, options?: RequestOptions) => {
      record({ method: "size", key, bytes: 0 });
      return size(key, options);
    };
  }
  if (inner.append) {
    const append = inner.append.bind(inner);
    store.append = async (key: string, value: Uint8Array, options?: RequestOptions) => {
      record({ method: "append", key, bytes: value.byteLength });
      return append(key, value, options);
    };
  }
  if (inner.setRange) {
    const setRange = inner.setRange.bind(inner);
    store.setRange = async (key: string, offset: number, value: Uint8Array, options?: RequestOptions) => {
      record({ method: "setRange", key, bytes: value.byteLength });
      await setRange(key, offset, value, options);
    };
  }
  if (inner.truncate) {
    const truncate = inner.truncate.bind(inner);
    store.truncate = async (key: string, length: number, options?: RequestOptions) => {
      record({ method: "truncate", key, bytes: 0 });
      await truncate(key, length, options);
    };
  }
  return store;
}
