import {
  checkRangeInto,
  type ListDirResult,
  PreconditionFailedError,
  type RangeQuery,
  type ReadOptions,
  rangeBounds,
  type SetOptions,
  type SizedValue,
  type Store,
  StoreError,
  type VersionedValue,
  type WindowQuery,
} from "@zarrkit/registry";

/**
 * A store in a Map, with every capability (ranges, versions, appends,
 * in-place writes). Values are copied in and out so callers can never alter
 * what is stored by mutating a buffer. Every write gives the value a new
 * version; reads and writes with `ifMatch` check it.
 */
export class MemoryStore implements Store {
  private readonly values = new Map<string, { bytes: Uint8Array; version: number }>();
  private nextVersion = 1;

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.values.get(key)?.bytes.slice();
  }

  async getRange(key: string, range: RangeQuery, options: ReadOptions = {}): Promise<Uint8Array | undefined> {
    return (await this.getRangeWithSize(key, range, options))?.value;
  }

  async getRangeWithSize(key: string, range: RangeQuery, options: ReadOptions = {}): Promise<SizedValue | undefined> {
    const entry = this.values.get(key);
    checkVersion(key, entry, options);
    if (!entry) return undefined;
    const [start, end] = rangeBounds(range, entry.bytes.length);
    return { value: entry.bytes.slice(start, end), size: entry.bytes.length, version: String(entry.version) };
  }

  async getRangeInto(
    key: string,
    range: WindowQuery,
    target: Uint8Array,
    options: ReadOptions = {},
  ): Promise<number | undefined> {
    checkRangeInto(key, range, target);
    const entry = this.values.get(key);
    checkVersion(key, entry, options);
    if (!entry) return undefined;
    const [start, end] = rangeBounds(range, entry.bytes.length);
    target.set(entry.bytes.subarray(start, end));
    return end - start;
  }

  async getVersioned(key: string): Promise<VersionedValue | undefined> {
    const entry = this.values.get(key);
    return entry && { value: entry.bytes.slice(), version: String(entry.version) };
  }

  async size(key: string): Promise<number | undefined> {
    return this.values.get(key)?.bytes.length;
  }

  async set(key: string, value: Uint8Array, options: SetOptions = {}): Promise<void> {
    const entry = this.values.get(key);
    if (options.ifNoneMatch === "*" && entry) {
      throw new PreconditionFailedError(`${key} already exists`, { key });
    }
    checkVersion(key, entry, options);
    this.put(key, copy(value));
  }

  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }

  async *list(prefix: string): AsyncIterable<string> {
    for (const key of [...this.values.keys()]) if (key.startsWith(prefix)) yield key;
  }

  async listDir(prefix: string): Promise<ListDirResult> {
    const keys: string[] = [];
    const prefixes = new Set<string>();
    for (const key of this.values.keys()) {
      if (!key.startsWith(prefix)) continue;
      const rest = key.slice(prefix.length);
      const slash = rest.indexOf("/");
      if (slash < 0) keys.push(key);
      else prefixes.add(prefix + rest.slice(0, slash + 1));
    }
    return { keys, prefixes: [...prefixes] };
  }

  async append(key: string, value: Uint8Array, options: SetOptions = {}): Promise<number> {
    const entry = this.values.get(key);
    checkVersion(key, entry, options);
    const old = entry?.bytes ?? new Uint8Array(0);
    const bytes = new Uint8Array(old.length + value.length);
    bytes.set(old);
    bytes.set(value, old.length);
    this.put(key, bytes);
    return old.length;
  }

  async setRange(key: string, offset: number, value: Uint8Array, options: SetOptions = {}): Promise<string> {
    const entry = this.values.get(key);
    if (!entry) throw new StoreError(`Cannot write a range of ${key}: it does not exist`, { key });
    checkVersion(key, entry, options);
    if (offset < 0 || offset + value.length > entry.bytes.length) {
      throw new StoreError(
        `Cannot write bytes [${offset}, ${offset + value.length}) of ${key}: it has ${entry.bytes.length} bytes`,
        { key },
      );
    }
    const bytes = entry.bytes.slice();
    bytes.set(value, offset);
    return this.put(key, bytes);
  }

  async truncate(key: string, length: number): Promise<void> {
    const entry = this.values.get(key);
    if (!entry) throw new StoreError(`Cannot truncate ${key}: it does not exist`, { key });
    this.put(key, entry.bytes.slice(0, length));
  }

  private put(key: string, bytes: Uint8Array): string {
    const version = this.nextVersion++;
    this.values.set(key, { bytes, version });
    return String(version);
  }
}

function checkVersion(key: string, entry: { version: number } | undefined, options: { ifMatch?: string }): void {
  if (options.ifMatch !== undefined && String(entry?.version) !== options.ifMatch) {
    throw new PreconditionFailedError(`${key} changed since version ${options.ifMatch}`, { key });
  }
}

/** A copy that owns its memory: `Buffer#slice` would return a view of the caller's (pooled) buffer. */
function copy(value: Uint8Array): Uint8Array {
  return Uint8Array.prototype.slice.call(value);
}

const named = new Map<string, MemoryStore>();

/** The store behind `memory://name`: one per name for the life of the process. */
export function namedMemoryStore(name: string): MemoryStore {
  let store = named.get(name);
  if (!store) {
    store = new MemoryStore();
    named.set(name, store);
  }
  return store;
}
