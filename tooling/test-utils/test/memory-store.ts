import {
  checkRangeInto,
  checkWindow,
  isWellFormed,
  type LentRange,
  type ListDirResult,
  PreconditionFailedError,
  type RangeQuery,
  type ReadOptions,
  registerRangeReader,
  type SetOptions,
  type SizedValue,
  type Store,
  StoreError,
  type VersionedValue,
  type WindowQuery,
} from "@zarrkit/registry";
import { concatBytes } from "@zarrkit/util";

const empty = new Uint8Array(0);

/** Values lent by `lendRange`, by lending: what the memory reader reads (on this thread only). */
const lendings = new Map<number, Uint8Array>();
let nextLending = 0;
export const MEMORY_READER = "@zarrkit/test-utils:memory";
registerRangeReader(MEMORY_READER, (source, offset, target) => {
  const value = lendings.get(source.id as number);
  if (!value) throw new Error(`lending ${String(source.id)} has ended`);
  const window = value.subarray(offset, offset + target.length);
  target.set(window);
  return window.length;
});

/**
 * A reference store with every capability, written as plainly as possible:
 * the conformance suite must pass on it, and the broken variants in
 * mutants.ts override one behaviour each. (The `coalesceGapBytes` hint is not
 * a capability: like memory stores in general, it has none.)
 */
export class MemoryStore implements Required<Omit<Store, "coalesceGapBytes">> {
  readonly values = new Map<string, Uint8Array>();
  readonly versions = new Map<string, string>();
  #writes = 0;

  protected check(key: string): void {
    const segments = key.split("/");
    const bad =
      key.includes("\0") ||
      key.includes("\\") ||
      segments.some((s) => s === "" || s === "." || s === "..") ||
      !isWellFormed(key);
    if (bad) throw new StoreError(`Invalid key ${JSON.stringify(key)}`, { key });
  }

  protected write(key: string, value: Uint8Array): void {
    this.values.set(key, value);
    this.versions.set(key, String(++this.#writes));
  }

  /** Throw PreconditionFailedError unless the key's current state meets `ifMatch` / `ifNoneMatch`. */
  protected checkConditions(key: string, options: { ifMatch?: string; ifNoneMatch?: "*" }): void {
    const current = this.versions.get(key);
    if (options.ifNoneMatch === "*" && current !== undefined)
      throw new PreconditionFailedError(`${key} exists`, { key });
    if (options.ifMatch !== undefined && options.ifMatch !== current)
      throw new PreconditionFailedError(`${key} changed`, { key });
  }

  protected existing(key: string): Uint8Array {
    const value = this.values.get(key);
    if (!value) throw new StoreError(`No value at ${JSON.stringify(key)}`, { key });
    return value;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    this.check(key);
    return this.values.get(key)?.slice();
  }

  async getRange(key: string, range: RangeQuery, options: ReadOptions = {}): Promise<Uint8Array | undefined> {
    this.check(key);
    this.checkConditions(key, { ifMatch: options.ifMatch });
    const value = this.values.get(key);
    if (!value) return undefined;
    if ("suffixLength" in range) return value.slice(Math.max(0, value.length - range.suffixLength));
    return value.slice(Math.min(range.offset, value.length), Math.min(range.offset + range.length, value.length));
  }

  async getRangeWithSize(key: string, range: RangeQuery, options: ReadOptions = {}): Promise<SizedValue | undefined> {
    const value = await this.getRange(key, range, options);
    return value && { value, size: this.values.get(key)!.length, version: this.versions.get(key)! };
  }

  async getRangeInto(
    key: string,
    range: WindowQuery,
    target: Uint8Array,
    options: ReadOptions = {},
  ): Promise<number | undefined> {
    checkRangeInto(key, range, target);
    const value = await this.getRange(key, range, options);
    if (!value) return undefined;
    target.set(value);
    return value.length;
  }

  async lendRange<T>(
    key: string,
    range: WindowQuery,
    options: ReadOptions | undefined,
    use: (lent: LentRange | undefined) => Promise<T>,
  ): Promise<T> {
    checkWindow(key, range, "lendRange");
    this.check(key);
    this.checkConditions(key, { ifMatch: options?.ifMatch });
    const value = this.values.get(key);
    if (!value) return use(undefined);
    // Lent as it is now: a copy, readable until use settles.
    const id = nextLending++;
    lendings.set(id, value.slice());
    try {
      const length = Math.max(0, Math.min(range.length, value.length - range.offset));
      return await use({ source: { reader: MEMORY_READER, id }, offset: range.offset, length, splittable: true });
    } finally {
      lendings.delete(id);
    }
  }

  async set(key: string, value: Uint8Array, options: SetOptions = {}): Promise<void> {
    this.check(key);
    this.checkConditions(key, options);
    this.write(key, value.slice());
  }

  async setParts(key: string, parts: readonly Uint8Array[], options: SetOptions = {}): Promise<void> {
    return this.set(key, concatBytes(parts), options);
  }

  async delete(key: string): Promise<void> {
    this.check(key);
    this.values.delete(key);
    this.versions.delete(key);
  }

  async *list(prefix: string): AsyncIterable<string> {
    for (const key of [...this.values.keys()]) if (key.startsWith(prefix)) yield key;
  }

  async listDir(prefix: string): Promise<ListDirResult> {
    const keys = new Set<string>();
    const prefixes = new Set<string>();
    for (const key of this.values.keys()) {
      if (!key.startsWith(prefix)) continue;
      const slash = key.indexOf("/", prefix.length);
      if (slash < 0) keys.add(key);
      else prefixes.add(key.slice(0, slash + 1));
    }
    return { keys: [...keys], prefixes: [...prefixes] };
  }

  async getVersioned(key: string): Promise<VersionedValue | undefined> {
    this.check(key);
    const value = this.values.get(key);
    return value && { value: value.slice(), version: this.versions.get(key)! };
  }

  async size(key: string): Promise<number | undefined> {
    this.check(key);
    return this.values.get(key)?.byteLength;
  }

  async append(key: string, value: Uint8Array, options: SetOptions = {}): Promise<number> {
    this.check(key);
    this.checkConditions(key, options);
    const current = this.values.get(key) ?? empty;
    const next = new Uint8Array(current.length + value.length);
    next.set(current);
    next.set(value, current.length);
    this.write(key, next);
    return current.length;
  }

  async setRange(key: string, offset: number, value: Uint8Array, options: SetOptions = {}): Promise<string> {
    this.check(key);
    const current = this.existing(key);
    this.checkConditions(key, options);
    if (offset + value.length > current.length) throw new StoreError(`setRange past the end of ${key}`, { key });
    const next = current.slice();
    next.set(value, offset);
    this.write(key, next);
    return this.versions.get(key)!;
  }

  async truncate(key: string, length: number): Promise<void> {
    this.check(key);
    const current = this.existing(key);
    if (length > current.length) throw new StoreError(`truncate would grow ${key}`, { key });
    this.write(key, current.slice(0, length));
  }

  /** Nothing is ever torn in memory: no write to wait for or undo. */
  async recover(key: string): Promise<boolean> {
    this.check(key);
    return false;
  }
}
