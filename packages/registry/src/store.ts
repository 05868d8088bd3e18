/**
 * The storage interface: keys are `/`-separated relative paths
 * ("a/b/zarr.json", never a leading slash). Read methods mirror zarrita.js
 * (`get`, `getRange`) so stores adapt both ways; everything else is an
 * optional capability that callers detect with `typeof store.x === "function"`.
 */

/** A window of a stored value: `length` bytes from `offset`. */
export interface WindowQuery {
  /** First byte. */
  offset: number;
  /** Bytes from there (fewer at the end of the value). */
  length: number;
}

/**
 * Where a codec worker reads a lent value (`Store.lendRange`): `reader` names
 * the registered range reader that understands the rest. It crosses to
 * workers, so it holds only what structured clone keeps (no functions).
 */
export interface RangeSource {
  /** The name the store registered its range reader under. */
  readonly reader: string;
  /** What the reader needs to find the bytes (a file descriptor, a URL): plain data. */
  readonly [field: string]: unknown;
}

/**
 * Reads bytes [offset, offset + target.length) of a lent `source` into
 * `target` and returns how many it read (fewer at the end of the value), or
 * undefined when the value does not exist (a window lent without asking,
 * see `LentRange.length`). It runs in codec workers, where blocking the
 * thread is fine.
 */
export type RangeReader = (
  source: RangeSource,
  offset: number,
  target: Uint8Array,
) => number | undefined | Promise<number | undefined>;

/** A window of a value lent to codec workers: `length` bytes of `source` from `offset`. */
export interface LentRange {
  /** Where the bytes are, for the reader it names. */
  source: RangeSource;
  /** Where the window starts in the source. */
  offset: number;
  /**
   * Bytes in the window: as asked, or fewer where the value ends. A store
   * that cannot tell where the value ends without reading it (HTTP) lends
   * without asking: the length asked, and its reader reads fewer, or finds
   * no value at all (or one changed since `ifMatch`'s version: a
   * `PreconditionFailedError`).
   */
  length: number;
  /**
   * The window's parts cost no more read one by one than the window whole (a
   * file): each codec worker then reads only the bytes it decodes, and
   * `length` must be exact. Otherwise (a request per read) one worker reads
   * the window whole.
   */
  splittable?: boolean;
}

/** A byte range of one stored value: a window, or the last `suffixLength` bytes. */
export type RangeQuery =
  | WindowQuery
  | {
      /** The last this many bytes. */
      suffixLength: number;
    };

/** Options of every store request. */
export interface RequestOptions {
  /** Cancels the request (it rejects with the signal's reason). */
  signal?: AbortSignal;
}

/** Options of ranged reads. */
export interface ReadOptions extends RequestOptions {
  /**
   * Read only if the stored value still has this version (as reported by
   * `getRangeWithSize` or `getVersioned`); otherwise throw
   * `PreconditionFailedError`. A reader that planned byte ranges from an
   * earlier read (a cached shard index) uses it so a replaced value can never
   * answer with bytes at the old offsets. Stores that report versions must
   * honour it on `getRange` and `getRangeWithSize`.
   */
  ifMatch?: string;
}

/** Options of writes. */
export interface SetOptions extends RequestOptions {
  /** Write only if the stored value still has this version (from `getVersioned`). */
  ifMatch?: string;
  /** `"*"`: write only if the key does not exist yet. */
  ifNoneMatch?: "*";
}

/** A value with its version (`getVersioned`). */
export interface VersionedValue {
  /** The value's bytes. */
  value: Uint8Array;
  /** Opaque version token (an ETag on S3) to pass back as `ifMatch`. */
  version: string;
}

/** Bytes of a ranged read, with what the store learnt about the whole value. */
export interface SizedValue {
  /** The bytes read. */
  value: Uint8Array;
  /** Size of the whole stored value, when the store learnt it with the same request. */
  size?: number;
  /**
   * Version of the stored value these bytes came from (same tokens as
   * `getVersioned`), when the store keeps versions. A store that reports it
   * honours `ifMatch` on reads, appends and in-place writes of the key.
   */
  version?: string;
}

/** One level of a listing (`listDir`). */
export interface ListDirResult {
  /** Keys directly under the prefix. */
  keys: string[];
  /** Child "directories" directly under the prefix, each ending in "/". */
  prefixes: string[];
}

/** A key-value store of bytes: `get` is required, everything else is an optional capability. */
export interface Store {
  /**
   * A hint for readers that coalesce byte ranges: ranges of one value at most
   * this many bytes apart are cheaper to read as one request than as several.
   * Roughly the store's per-request latency expressed in bytes of its
   * bandwidth: megabytes over HTTP; local and in-memory stores leave it
   * unset. Readers use it as their default `coalesceGapBytes` (their own
   * option of that name wins); without it they keep their own default. A
   * non-negative integer.
   */
  readonly coalesceGapBytes?: number;
  /** The whole value, or undefined when the key does not exist. */
  get(key: string, options?: RequestOptions): Promise<Uint8Array | undefined>;
  /** A byte range of the value, or undefined when the key does not exist. Ranges past the end are clipped. */
  getRange?(key: string, range: RangeQuery, options?: ReadOptions): Promise<Uint8Array | undefined>;
  /**
   * `getRange` that also reports the size of the whole value when it comes for
   * free (a file's stat, an HTTP Content-Range): lets a reader check offsets
   * against the end of the value without another request.
   */
  getRangeWithSize?(key: string, range: RangeQuery, options?: ReadOptions): Promise<SizedValue | undefined>;
  /**
   * Read bytes [offset, offset + length) of the value into `target`, from its
   * first byte, and return how many were read: `length`, or fewer at the end
   * of the value (0 from the end on); undefined when the key does not exist.
   * `target` must hold at least `length` bytes (a StoreError otherwise); bytes
   * beyond those read are left as they were. Honours `ifMatch` as `getRange`
   * does. Readers use it to read into buffers they reuse (a read's result, a
   * pool of read buffers) rather than a fresh buffer per read; stores that
   * must allocate anyway (HTTP) leave it out.
   */
  getRangeInto?(
    key: string,
    range: WindowQuery,
    target: Uint8Array,
    options?: ReadOptions,
  ): Promise<number | undefined>;
  /**
   * Lend bytes [offset, offset + length) of the value to codec workers, which
   * read them themselves with the range reader the source names
   * (`registerRangeReader`): `use` gets the lent window (its `length` fewer at
   * the end of the value), or undefined when the key does not exist. The
   * source stays readable until `use` settles, and shows the value as it was
   * when lent, as one `getRangeInto` would. Honours `ifMatch` as
   * `getRangeInto` does. A file's bytes then reach the workers without a trip
   * through the calling thread.
   */
  lendRange?<T>(
    key: string,
    range: WindowQuery,
    options: ReadOptions | undefined,
    use: (lent: LentRange | undefined) => Promise<T>,
  ): Promise<T>;
  /** Replace the value as a whole: readers see the old value or the new one, never a mix. */
  set?(key: string, value: Uint8Array, options?: SetOptions): Promise<void>;
  /**
   * `set` of the concatenation of `parts`, without joining them first: a
   * writer that holds a value in pieces (a shard's encoded inner chunks and
   * its index) hands them over as they are, and a store that writes pieces
   * itself (a file, with vectored writes) spares a copy of the whole value.
   * Writers call `set` with the joined bytes where a store leaves it out.
   * The store keeps no reference to the parts once the promise settles (what
   * it keeps, it copies): writers reuse their memory for the next value.
   */
  setParts?(key: string, parts: readonly Uint8Array[], options?: SetOptions): Promise<void>;
  /** Remove the key; removing a missing key is not an error. */
  delete?(key: string, options?: RequestOptions): Promise<void>;
  /** Every key starting with `prefix` (a "" prefix lists the whole store), in no particular order. */
  list?(prefix: string, options?: RequestOptions): AsyncIterable<string>;
  /** One level of listing below a prefix ending in "/" (or ""). */
  listDir?(prefix: string, options?: RequestOptions): Promise<ListDirResult>;
  /** The value with its version token, for optimistic concurrency. */
  getVersioned?(key: string, options?: RequestOptions): Promise<VersionedValue | undefined>;
  /** Size in bytes of the value, or undefined when missing. */
  size?(key: string, options?: RequestOptions): Promise<number | undefined>;
  /**
   * Append bytes to a value (creating it), returning the offset at which they
   * landed. With `ifMatch` (stores that report versions), append only if the
   * value still has that version. A store whose appends can be torn by a crash
   * undoes a torn one before the key is next written or `recover`ed.
   */
  append?(key: string, value: Uint8Array, options?: SetOptions): Promise<number>;
  /**
   * Overwrite bytes of an existing value in place at `offset`. With `ifMatch`,
   * only if the value still has that version. Returns the value's new version
   * when the store keeps versions. A store whose in-place writes can be torn by
   * a crash undoes a torn one before the key is next written or `recover`ed.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: stores that keep no versions return nothing
  setRange?(key: string, offset: number, value: Uint8Array, options?: SetOptions): Promise<string | void>;
  /** Truncate a value to `length` bytes. */
  truncate?(key: string, length: number, options?: RequestOptions): Promise<void>;
  /**
   * Wait for any append or in-place write of `key` still in progress (in any
   * process) and undo one whose writer died part-way. Readers call it when the
   * bytes they read fail a checksum or cannot be decoded, then read once more.
   * Resolves true when it waited or undid something.
   */
  recover?(key: string, options?: RequestOptions): Promise<boolean>;
}

/** A store that can `set` and `delete`. */
export type WritableStore = Store & Required<Pick<Store, "set" | "delete">>;

/** Whether `store` can `set` and `delete`. */
export function isWritable(store: Store): store is WritableStore {
  return typeof store.set === "function" && typeof store.delete === "function";
}
