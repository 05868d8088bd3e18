import { type RangeQuery, type RequestOptions, rangeBounds, type Store } from "@zarrkit/registry";

/** The store shape of zarrita.js (`@zarrita/storage`): keys are absolute ("/a/zarr.json"); sync or async. */
export interface ZarritaStore {
  /** The value at an absolute key. */
  get(key: `/${string}`, options?: RequestOptions): Promise<Uint8Array | undefined> | Uint8Array | undefined;
  /** A byte range of the value at an absolute key. */
  getRange?(
    key: `/${string}`,
    range: RangeQuery,
    options?: RequestOptions,
  ): Promise<Uint8Array | undefined> | Uint8Array | undefined;
  /** Store a value at an absolute key. */
  set?(key: `/${string}`, value: Uint8Array): Promise<void> | void;
}

/** Use a zarrita.js store (FetchStore, FileSystemStore, ZipFileStore, ...) as a zarrkit store. */
export function fromZarritaStore(store: ZarritaStore): Store {
  const absolute = (key: string): `/${string}` => `/${key}`;
  const adapted: Store = { get: async (key, options) => store.get(absolute(key), options) };
  if (store.getRange) adapted.getRange = async (key, range, options) => store.getRange!(absolute(key), range, options);
  if (store.set) adapted.set = async (key, value) => store.set!(absolute(key), value);
  return adapted;
}

/** A zarrkit store as zarrita.js sees it (an async store with ranged reads). */
export interface AsZarritaStore {
  /** The value at an absolute key. */
  get(key: `/${string}`, options?: RequestOptions): Promise<Uint8Array | undefined>;
  /** A byte range of the value at an absolute key (the whole value sliced, for stores without ranged reads). */
  getRange(key: `/${string}`, range: RangeQuery, options?: RequestOptions): Promise<Uint8Array | undefined>;
  /** Store a value at an absolute key, when the zarrkit store writes. */
  set?(key: `/${string}`, value: Uint8Array): Promise<void>;
}

/** Use a zarrkit store with zarrita.js. */
export function toZarritaStore(store: Store): AsZarritaStore {
  const relative = (key: string) => key.replace(/^\/+/, "");
  return {
    get: (key, options) => store.get(relative(key), options),
    getRange: (key, range, options) =>
      store.getRange
        ? store.getRange(relative(key), range, options)
        : sliceOfWhole(store, relative(key), range, options),
    ...(store.set ? { set: (key: `/${string}`, value: Uint8Array) => store.set!(relative(key), value) } : {}),
  };
}

/** zarrita requires getRange for sharded arrays: emulate it on stores that only read whole values. */
async function sliceOfWhole(store: Store, key: string, range: RangeQuery, options?: RequestOptions) {
  const bytes = await store.get(key, options);
  if (!bytes) return undefined;
  const [start, end] = rangeBounds(range, bytes.length);
  return bytes.subarray(start, end);
}
