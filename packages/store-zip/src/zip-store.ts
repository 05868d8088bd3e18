import {
  checkRange,
  checkStoreKey,
  InvalidOptionError,
  type ListDirResult,
  PreconditionFailedError,
  type RangeQuery,
  type ReadOptions,
  type RequestOptions,
  rangeBounds,
  type SizedValue,
  type Store,
  StoreError,
} from "@zarrkit/registry";
import { type ArchiveSnapshot, loadSnapshot, type SnapshotLimits } from "./archive-snapshot.js";
import type { ZipEntry } from "./central-directory.js";
import { checkMethod, type EntryReaderContext, readStoredBytes, readWholeEntry } from "./entry-reader.js";
import { MAX_END_RECORDS_BYTES } from "./end-records.js";
import { isArchiveName, parseOmeComment, type OmeComment } from "./ome-comment.js";
import { type Rfc9Layout, rfc9Layout } from "./rfc9-layout.js";
import { METHOD_STORED } from "./zip-records.js";
import { zipError } from "./zip-errors.js";

/** Options of {@link ZipStore.open}. */
export interface ZipStoreOptions {
  /** Where inside the archive the store is rooted: "" (default) for its root, or a path such as "data/image.zarr". */
  root?: string;
  /** The archive's name in error messages (default: its key). */
  name?: string;
  /** Bytes of the first suffix read (default 128 KiB, at least the 64 KiB + 98 bytes the end records can take). */
  tailBytes?: number;
  /** Largest central directory read (default 64 MiB). */
  maxDirectoryBytes?: number;
  /** Most entries an archive may have (default 1 000 000). */
  maxEntries?: number;
  /** Largest value a DEFLATE entry may inflate to (default 256 MiB). */
  maxInflatedBytes?: number;
  /**
   * Require a Zarr hierarchy at the root (a root `zarr.json`, as RFC-9 does
   * for OME-Zarr zip files). Default: true for keys ending in `.ozx` opened
   * at their root.
   */
  requireZarrRoot?: boolean;
  /**
   * Read keys of an archive that holds other archives (`.zip`, `.ozx`
   * entries). Default false: RFC-9 forbids such nesting, so only the nested
   * archives themselves can be read (which is what a URL pipeline
   * `outer.zip|zip:inner.ozx|zip:` does).
   */
  allowNestedArchives?: boolean;
}

const DEFAULTS = {
  tailBytes: 128 * 1024,
  maxDirectoryBytes: 64 * 1024 * 1024,
  maxEntries: 1_000_000,
  maxInflatedBytes: 256 * 1024 * 1024,
};

/**
 * A read-only store over a zip archive that is one value (`key`) of another
 * store: a file, an HTTP or S3 object, an IndexedDB record, a Blob
 * ({@link BlobStore}). The end records and central directory are read once;
 * STORED entries are read by range, DEFLATE entries whole (inflated within a
 * cap). Every read is conditioned on the archive's version in its store
 * (reported as the version of every key): a replaced archive is read afresh,
 * never mixed with the old one.
 */
export class ZipStore implements Store {
  readonly coalesceGapBytes?: number;
  /** The archive's name in messages. */
  readonly archive: string;
  readonly #store: Store;
  readonly #key: string;
  readonly #root: string;
  readonly #limits: SnapshotLimits;
  readonly #maxInflatedBytes: number;
  readonly #requireZarrRoot: boolean;
  readonly #allowNestedArchives: boolean;
  #snapshot: Promise<ArchiveSnapshot> | undefined;
  /** What `#snapshot` resolved to, so that a stale one is forgotten at once. */
  #resolved: ArchiveSnapshot | undefined;

  private constructor(store: Store, key: string, options: ZipStoreOptions) {
    this.#store = store;
    this.#key = key;
    this.archive = options.name ?? key;
    this.#root = normalizeRoot(options.root ?? "", this.archive);
    const limits = { ...DEFAULTS, ...definedOnly(options) };
    for (const [name, value] of Object.entries(limits)) {
      if (!Number.isSafeInteger(value) || value <= 0) {
        throw new InvalidOptionError(`ZipStore option ${name} must be a positive integer, got ${String(value)}`, {
          field: name,
        });
      }
    }
    this.#limits = { ...limits, tailBytes: Math.max(limits.tailBytes, MAX_END_RECORDS_BYTES) };
    this.#maxInflatedBytes = limits.maxInflatedBytes;
    this.#requireZarrRoot = options.requireZarrRoot ?? (this.#root === "" && key.toLowerCase().endsWith(".ozx"));
    this.#allowNestedArchives = options.allowNestedArchives ?? false;
    if (store.coalesceGapBytes !== undefined) this.coalesceGapBytes = store.coalesceGapBytes;
  }

  /** Open the archive `key` of `store`, reading its directory (errors about the archive as a whole come now). */
  static async open(store: Store, key: string, options: ZipStoreOptions = {}): Promise<ZipStore> {
    const zip = new ZipStore(store, key, options);
    await zip.#current();
    return zip;
  }

  /** The archive comment as text (UTF-8), "" when it has none. */
  async comment(): Promise<string> {
    return new TextDecoder().decode((await this.#current()).comment);
  }

  /** The RFC-9 comment's `ome` object (`version`, `zipFile.centralDirectory.jsonFirst`), when the comment is one. */
  async ome(): Promise<OmeComment | undefined> {
    return parseOmeComment((await this.#current()).comment);
  }

  /**
   * How the archive measures against RFC-9's recommended variant (entry
   * order, STORED, ZIP64, the comment). Reads every local header not read yet
   * (one small read each, 8 at a time).
   */
  async rfc9Layout(options: RequestOptions = {}): Promise<Rfc9Layout> {
    const snapshot = await this.#current(options.signal);
    const context: EntryReaderContext = {
      store: this.#store,
      key: this.#key,
      archive: this.archive,
      maxInflatedBytes: 0,
    };
    if (options.signal) context.signal = options.signal;
    const entries = [...snapshot.entries.values()];
    const unread = entries.filter((entry) => !snapshot.dataOffsets.has(entry.name));
    for (let at = 0; at < unread.length; at += 8) {
      await Promise.all(unread.slice(at, at + 8).map((entry) => readStoredBytes(context, snapshot, entry, 0, 0)));
    }
    const zip64 = (entry: ZipEntry) => snapshot.zip64Headers.has(entry.name);
    return rfc9Layout(this.#key, entries, parseOmeComment(snapshot.comment), zip64);
  }

  async get(key: string, options: RequestOptions = {}): Promise<Uint8Array | undefined> {
    return this.#withEntry(key, options, (context, snapshot, entry) => readWholeEntry(context, snapshot, entry));
  }

  async getRange(key: string, range: RangeQuery, options: ReadOptions = {}): Promise<Uint8Array | undefined> {
    return (await this.getRangeWithSize(key, range, options))?.value;
  }

  async getRangeWithSize(key: string, range: RangeQuery, options: ReadOptions = {}): Promise<SizedValue | undefined> {
    checkRange(key, range);
    // A read of no bytes reaches no byte of the archive: its version is asked for instead.
    const empty = "suffixLength" in range ? range.suffixLength === 0 : range.length === 0;
    return this.#withEntry(key, { ...options, revalidate: empty }, async (context, snapshot, entry) => {
      const [start, end] = rangeBounds(range, entry.size);
      checkMethod(entry, { archive: this.archive, entry: entry.name });
      const value =
        entry.method === METHOD_STORED
          ? await readStoredBytes(context, snapshot, entry, start, end)
          : (await readWholeEntry(context, snapshot, entry)).slice(start, end);
      return { value, size: entry.size, ...(snapshot.version !== undefined && { version: snapshot.version }) };
    });
  }

  async size(key: string, options: RequestOptions = {}): Promise<number | undefined> {
    return this.#withEntry(key, { ...options, revalidate: true }, async (_context, _snapshot, entry) => entry.size);
  }

  async *list(prefix: string, options: RequestOptions = {}): AsyncIterable<string> {
    const snapshot = await this.#revalidated(options.signal);
    const full = this.#root + prefix;
    for (const name of snapshot.entries.keys()) if (name.startsWith(full)) yield name.slice(this.#root.length);
  }

  async listDir(prefix: string, options: RequestOptions = {}): Promise<ListDirResult> {
    const snapshot = await this.#revalidated(options.signal);
    const full = this.#root + prefix;
    const keys: string[] = [];
    const prefixes = new Set<string>();
    for (const name of snapshot.entries.keys()) {
      if (!name.startsWith(full)) continue;
      const slash = name.indexOf("/", full.length);
      if (slash < 0) keys.push(name.slice(this.#root.length));
      else prefixes.add(name.slice(this.#root.length, slash + 1));
    }
    return { keys, prefixes: [...prefixes] };
  }

  /**
   * Run `read` on the entry of `key` in the current snapshot. A key missing
   * from it is looked up again after checking that the archive is unchanged;
   * a read that finds the archive replaced is repeated once on the new one
   * (unless the caller asked for a version with `ifMatch`). `revalidate`: the
   * read reads no byte of the archive (a size), so the version is checked first.
   */
  async #withEntry<T>(
    key: string,
    options: ReadOptions & { revalidate?: boolean },
    read: (context: EntryReaderContext, snapshot: ArchiveSnapshot, entry: ZipEntry) => Promise<T>,
  ): Promise<T | undefined> {
    checkStoreKey(key);
    const context: EntryReaderContext = {
      store: this.#store,
      key: this.#key,
      archive: this.archive,
      maxInflatedBytes: this.#maxInflatedBytes,
    };
    if (options.signal) context.signal = options.signal;
    // Whether this call has seen the archive's current version (a snapshot it loaded itself, or a check).
    let checked = false;
    for (let attempt = 0; ; attempt++) {
      checked ||= this.#snapshot === undefined;
      let snapshot = await this.#current(options.signal);
      const stale = options.revalidate || (options.ifMatch !== undefined && options.ifMatch !== snapshot.version);
      if (stale && !checked) {
        snapshot = await this.#revalidated(options.signal, snapshot);
        checked = true;
      }
      if (options.ifMatch !== undefined && options.ifMatch !== snapshot.version) {
        throw new PreconditionFailedError(
          `${key} in zip archive ${JSON.stringify(this.archive)} is no longer at version ${options.ifMatch}`,
          { key },
        );
      }
      const entry = snapshot.entries.get(this.#root + key);
      if (!entry) {
        if (checked) return undefined;
        checked = true;
        if ((await this.#revalidated(options.signal, snapshot)) !== snapshot) continue;
        return undefined;
      }
      this.#checkNesting(snapshot, entry);
      try {
        return await read(context, snapshot, entry);
      } catch (error) {
        if (!(error instanceof PreconditionFailedError) || snapshot.version === undefined) throw error;
        this.#forget(snapshot);
        if (options.ifMatch !== undefined || attempt > 0)
          throw new PreconditionFailedError(error.message, { key, cause: error });
      }
    }
  }

  #checkNesting(snapshot: ArchiveSnapshot, entry: ZipEntry): void {
    if (this.#allowNestedArchives || isArchiveName(entry.name)) return;
    const nested = snapshot.nestedArchive;
    if (nested === undefined) return;
    throw zipError(
      StoreError,
      { archive: this.archive, entry: nested },
      "a zip archive holds another archive, which RFC-9 forbids; open the inner one through a URL pipeline " +
        `("<outer>|zip:${nested}|zip:") or pass allowNestedArchives`,
    );
  }

  /** The snapshot, loading it when there is none (again once, if the archive changed while it was read). */
  #current(signal?: AbortSignal): Promise<ArchiveSnapshot> {
    if (!this.#snapshot) {
      const loading = this.#load(signal);
      this.#snapshot = loading;
      loading.then(
        (snapshot) => {
          if (this.#snapshot === loading) this.#resolved = snapshot;
        },
        () => {
          if (this.#snapshot === loading) this.#snapshot = undefined;
        },
      );
    }
    return this.#snapshot;
  }

  async #load(signal?: AbortSignal): Promise<ArchiveSnapshot> {
    const place = { archive: this.archive };
    let snapshot: ArchiveSnapshot;
    try {
      snapshot = await loadSnapshot(this.#store, this.#key, this.#limits, place, signal);
    } catch (error) {
      if (!(error instanceof PreconditionFailedError)) throw error;
      snapshot = await loadSnapshot(this.#store, this.#key, this.#limits, place, signal);
    }
    if (this.#requireZarrRoot && !snapshot.entries.has(`${this.#root}zarr.json`)) {
      throw zipError(
        StoreError,
        place,
        "its root is not a Zarr hierarchy (no zarr.json at the root, as an OME-Zarr zip file must have)",
      );
    }
    return snapshot;
  }

  /** The current snapshot, once the store said whether the archive still has `known`'s version (a small request). */
  async #revalidated(signal?: AbortSignal, known?: ArchiveSnapshot): Promise<ArchiveSnapshot> {
    const snapshot = known ?? (await this.#current(signal));
    if (snapshot.version === undefined) return snapshot;
    const now = await this.#store.getRangeWithSize!(this.#key, { suffixLength: 0 }, signal ? { signal } : {});
    if (now?.version === snapshot.version) return snapshot;
    this.#forget(snapshot);
    return this.#current(signal);
  }

  #forget(snapshot: ArchiveSnapshot): void {
    if (this.#resolved !== snapshot) return;
    this.#snapshot = undefined;
    this.#resolved = undefined;
  }
}

function normalizeRoot(root: string, archive: string): string {
  const trimmed = root.replace(/^\/+|\/+$/g, "");
  if (trimmed === "") return "";
  try {
    checkStoreKey(trimmed);
  } catch (cause) {
    throw zipError(StoreError, { archive }, `root ${JSON.stringify(root)} is not a path inside the archive`, cause);
  }
  return `${trimmed}/`;
}

function definedOnly(options: ZipStoreOptions): Partial<typeof DEFAULTS> {
  const out: Partial<typeof DEFAULTS> = {};
  for (const name of Object.keys(DEFAULTS) as (keyof typeof DEFAULTS)[])
    if (options[name] !== undefined) out[name] = options[name];
  return out;
}
