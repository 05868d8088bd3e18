import {
  type LentRange,
  PreconditionFailedError,
  type RangeQuery,
  type ReadOptions,
  registerRangeReader,
  type SetOptions,
  type Store,
  StoreError,
  type WindowQuery,
} from "@zarrkit/registry";
import { MEMORY_READER, MemoryStore } from "./memory-store.js";

type LendUse<T> = (lent: LentRange | undefined) => Promise<T>;

/** Stores whose lent sources read the value as it is when read (a mutant's reader). */
const liveStores: MemoryStore[] = [];
registerRangeReader("test:live", (source, offset, target) => {
  const value = liveStores[source.store as number]!.values.get(source.key as string) ?? new Uint8Array(0);
  const window = value.subarray(offset, offset + target.length);
  target.set(window);
  return window.length;
});

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const empty = new Uint8Array(0);

/** A reference store whose every lent window `alter` changes before the caller gets it. */
function lendingAltered(
  alter: (lent: LentRange | undefined, range: WindowQuery, store: MemoryStore, key: string) => LentRange | undefined,
): Store {
  return new (class extends MemoryStore {
    override lendRange<T>(
      key: string,
      range: WindowQuery,
      options: ReadOptions | undefined,
      use: LendUse<T>,
    ): Promise<T> {
      return super.lendRange(key, range, options, (lent) => use(alter(lent, range, this, key)));
    }
  })();
}

/**
 * Broken stores, each with one realistic bug. The suite is honest when every
 * check fails against at least one of them.
 */
export const mutants: Record<string, () => Store> = {
  "get returns empty bytes for a missing key": () =>
    new (class extends MemoryStore {
      override async get(key: string) {
        return (await super.get(key)) ?? new Uint8Array(0);
      }
    })(),
  "get throws on a key that is a directory": () =>
    new (class extends MemoryStore {
      override async get(key: string) {
        if ([...this.values.keys()].some((k) => k.startsWith(`${key}/`))) throw new StoreError("EISDIR", { key });
        return super.get(key);
      }
    })(),
  "setParts writes at most 1024 parts (one vectored write)": () =>
    new (class extends MemoryStore {
      override async setParts(key: string, parts: readonly Uint8Array[], options?: SetOptions) {
        return super.setParts(key, parts.slice(0, 1024), options);
      }
    })(),
  "setParts keeps a lone part as it was given, not a copy": () =>
    new (class extends MemoryStore {
      override async setParts(key: string, parts: readonly Uint8Array[], options?: SetOptions) {
        if (parts.length !== 1) return super.setParts(key, parts, options);
        this.check(key);
        this.checkConditions(key, options ?? {});
        this.write(key, parts[0]!);
      }
    })(),
  "set drops the last byte": () =>
    new (class extends MemoryStore {
      override async set(key: string, value: Uint8Array, options?: SetOptions) {
        return super.set(key, value.subarray(0, -1), options);
      }
    })(),
  "get reports empty values as missing": () =>
    new (class extends MemoryStore {
      override async get(key: string) {
        const value = await super.get(key);
        return value?.length ? value : undefined;
      }
    })(),
  "set round-trips values through text": () =>
    new (class extends MemoryStore {
      override async set(key: string, value: Uint8Array, options?: SetOptions) {
        return super.set(key, new TextEncoder().encode(new TextDecoder().decode(value)), options);
      }
    })(),
  "keys are flattened to their last segment": () =>
    new (class extends MemoryStore {
      override async get(key: string) {
        return super.get(key.split("/").pop()!);
      }
      override async set(key: string, value: Uint8Array, options?: SetOptions) {
        return super.set(key.split("/").pop()!, value, options);
      }
    })(),
  "keys are URL-decoded": () => {
    const decode = (key: string) => {
      try {
        return decodeURIComponent(key.replace(/\+/g, " "));
      } catch {
        return key;
      }
    };
    return new (class extends MemoryStore {
      override async get(key: string) {
        return super.get(decode(key));
      }
      override async set(key: string, value: Uint8Array, options?: SetOptions) {
        return super.set(decode(key), value, options);
      }
    })();
  },
  "set stores the whole underlying buffer of a view": () =>
    new (class extends MemoryStore {
      override async set(key: string, value: Uint8Array, options?: SetOptions) {
        return super.set(key, new Uint8Array(value.buffer), options);
      }
    })(),
  "set overwrites in place without truncating": () =>
    new (class extends MemoryStore {
      override async set(key: string, value: Uint8Array, options?: SetOptions) {
        const old = this.values.get(key);
        if (!old || old.length <= value.length) return super.set(key, value, options);
        const merged = old.slice();
        merged.set(value);
        return super.set(key, merged, options);
      }
    })(),
  "set loses concurrent updates to other keys": () =>
    new (class extends MemoryStore {
      override async set(key: string, value: Uint8Array) {
        const snapshot = new Map(this.values);
        await tick();
        snapshot.set(key, value.slice());
        this.values.clear();
        for (const [k, v] of snapshot) this.write(k, v);
      }
    })(),
  "set writes in two steps": () =>
    new (class extends MemoryStore {
      override async set(key: string, value: Uint8Array) {
        const half = value.length >> 1;
        this.write(key, value.slice(0, half));
        await tick();
        const current = this.values.get(key)!;
        const joined = new Uint8Array(current.length + value.length - half);
        joined.set(current);
        joined.set(value.subarray(half), current.length);
        this.write(key, joined);
      }
    })(),
  "writes keep the caller's buffer": () =>
    new (class extends MemoryStore {
      override async set(key: string, value: Uint8Array) {
        this.write(key, value);
      }
      override async append(key: string, value: Uint8Array) {
        if (!this.values.has(key)) {
          this.write(key, value);
          return 0;
        }
        return super.append(key, value);
      }
    })(),
  "reads return internal buffers": () =>
    new (class extends MemoryStore {
      override async get(key: string) {
        return this.values.get(key);
      }
      override async getRange(key: string, range: RangeQuery) {
        const value = this.values.get(key);
        if (!value || "suffixLength" in range) return super.getRange(key, range);
        return value.subarray(range.offset, range.offset + range.length);
      }
    })(),
  "getRangeWithSize reports the range's length as the size": () =>
    new (class extends MemoryStore {
      override async getRangeWithSize(key: string, range: RangeQuery) {
        const value = await this.getRange(key, range);
        return value && { value, size: value.length };
      }
    })(),
  "getRange starts one byte late": () =>
    new (class extends MemoryStore {
      override async getRange(key: string, range: RangeQuery) {
        return super.getRange(key, "offset" in range ? { offset: range.offset + 1, length: range.length } : range);
      }
    })(),
  "getRange reads a suffix as an offset": () =>
    new (class extends MemoryStore {
      override async getRange(key: string, range: RangeQuery) {
        return super.getRange(
          key,
          "suffixLength" in range ? { offset: range.suffixLength, length: Number.MAX_SAFE_INTEGER } : range,
        );
      }
    })(),
  "getRange rejects suffixes longer than the value": () =>
    new (class extends MemoryStore {
      override async getRange(key: string, range: RangeQuery) {
        const size = this.values.get(key)?.length ?? 0;
        if ("suffixLength" in range && range.suffixLength > size) throw new StoreError("416", { key });
        return super.getRange(key, range);
      }
    })(),
  "getRange rejects windows past the end": () =>
    new (class extends MemoryStore {
      override async getRange(key: string, range: RangeQuery) {
        const size = this.values.get(key)?.length ?? 0;
        if ("offset" in range && range.offset + range.length > size) throw new StoreError("416", { key });
        return super.getRange(key, range);
      }
    })(),
  "getRange returns undefined past the end": () =>
    new (class extends MemoryStore {
      override async getRange(key: string, range: RangeQuery) {
        const size = this.values.get(key)?.length ?? 0;
        if ("offset" in range && range.offset >= size) return undefined;
        return super.getRange(key, range);
      }
    })(),
  "getRange treats zero lengths as 'to the end'": () =>
    new (class extends MemoryStore {
      override async getRange(key: string, range: RangeQuery) {
        const value = this.values.get(key);
        if (!value) return undefined;
        if ("suffixLength" in range) return value.slice(-range.suffixLength);
        return value.slice(range.offset, range.length ? range.offset + range.length : undefined);
      }
    })(),
  "getRange returns empty bytes for a missing key": () =>
    new (class extends MemoryStore {
      override async getRange(key: string, range: RangeQuery) {
        return (await super.getRange(key, range)) ?? new Uint8Array(0);
      }
    })(),
  "getRange stops after one 64 KiB read": () =>
    new (class extends MemoryStore {
      override async getRange(key: string, range: RangeQuery) {
        return (await super.getRange(key, range))?.slice(0, 65536);
      }
    })(),
  "getRangeInto returns the window's length, not the bytes read": () =>
    new (class extends MemoryStore {
      override async getRangeInto(key: string, range: WindowQuery, target: Uint8Array, options?: ReadOptions) {
        return (await super.getRangeInto(key, range, target, options)) === undefined ? undefined : range.length;
      }
    })(),
  "getRangeInto starts one byte late": () =>
    new (class extends MemoryStore {
      override async getRangeInto(key: string, range: WindowQuery, target: Uint8Array, options?: ReadOptions) {
        return super.getRangeInto(key, { offset: range.offset + 1, length: range.length }, target, options);
      }
    })(),
  "getRangeInto zeroes the target past the bytes read": () =>
    new (class extends MemoryStore {
      override async getRangeInto(key: string, range: WindowQuery, target: Uint8Array, options?: ReadOptions) {
        const read = await super.getRangeInto(key, range, target, options);
        if (read !== undefined) target.fill(0, read);
        return read;
      }
    })(),
  "getRangeInto returns 0 for a missing key": () =>
    new (class extends MemoryStore {
      override async getRangeInto(key: string, range: WindowQuery, target: Uint8Array, options?: ReadOptions) {
        return (await super.getRangeInto(key, range, target, options)) ?? 0;
      }
    })(),
  "getRangeInto stops after one 64 KiB read": () =>
    new (class extends MemoryStore {
      override async getRangeInto(key: string, range: WindowQuery, target: Uint8Array, options?: ReadOptions) {
        return super.getRangeInto(
          key,
          { offset: range.offset, length: Math.min(range.length, 65536) },
          target,
          options,
        );
      }
    })(),
  "getRangeInto reads what fits into a short target": () =>
    new (class extends MemoryStore {
      override async getRangeInto(key: string, range: WindowQuery, target: Uint8Array, options?: ReadOptions) {
        return super.getRangeInto(
          key,
          { offset: range.offset, length: Math.min(range.length, target.length) },
          target,
          options,
        );
      }
    })(),
  "getRangeInto ignores ifMatch": () =>
    new (class extends MemoryStore {
      override async getRangeInto(key: string, range: WindowQuery, target: Uint8Array, _options?: ReadOptions) {
        return super.getRangeInto(key, range, target);
      }
    })(),
  "getRangeInto skips the key check": () =>
    new (class extends MemoryStore {
      override async getRangeInto(key: string, range: WindowQuery, target: Uint8Array) {
        const value = this.values.get(key)?.subarray(range.offset, range.offset + range.length);
        if (!value) return undefined;
        target.set(value);
        return value.length;
      }
    })(),
  "lendRange does not cut the window at the end of the value": () =>
    lendingAltered((lent, range) => lent && { ...lent, length: range.length }),
  "lendRange lends a window starting one byte late": () =>
    lendingAltered((lent) => lent && { ...lent, offset: lent.offset + 1 }),
  "lendRange lends a missing key as an empty window": () =>
    lendingAltered((lent) => lent ?? { source: { reader: MEMORY_READER, id: -1 }, offset: 0, length: 0 }),
  "lendRange's source reads the value as it is when read, not as lent": () =>
    lendingAltered(
      (lent, _range, store, key) =>
        lent && { ...lent, source: { reader: "test:live", store: liveStores.push(store) - 1, key } },
    ),
  "lendRange's source holds a function, which does not survive structured clone": () =>
    lendingAltered((lent) => lent && { ...lent, source: { ...lent.source, close: () => {} } }),
  "lendRange wraps what use throws in a StoreError": () =>
    new (class extends MemoryStore {
      override async lendRange<T>(
        key: string,
        range: WindowQuery,
        options: ReadOptions | undefined,
        use: LendUse<T>,
      ): Promise<T> {
        try {
          return await super.lendRange(key, range, options, use);
        } catch (error) {
          throw new StoreError(`Could not read ${key}: ${String(error)}`, { key, cause: error });
        }
      }
    })(),
  "lendRange reads a suffix as the window at the end": () =>
    new (class extends MemoryStore {
      override async lendRange<T>(
        key: string,
        range: WindowQuery,
        options: ReadOptions | undefined,
        use: LendUse<T>,
      ): Promise<T> {
        if ("suffixLength" in range) {
          const size = this.values.get(key)?.length ?? 0;
          const n = (range as { suffixLength: number }).suffixLength;
          return super.lendRange(key, { offset: Math.max(0, size - n), length: n }, options, use);
        }
        return super.lendRange(key, range, options, use);
      }
    })(),
  "lendRange ignores ifMatch": () =>
    new (class extends MemoryStore {
      override lendRange<T>(
        key: string,
        range: WindowQuery,
        _options: ReadOptions | undefined,
        use: LendUse<T>,
      ): Promise<T> {
        return super.lendRange(key, range, undefined, use);
      }
    })(),
  "lendRange skips the key check": () =>
    new (class extends MemoryStore {
      override async lendRange<T>(
        key: string,
        range: WindowQuery,
        _options: ReadOptions | undefined,
        use: LendUse<T>,
      ): Promise<T> {
        const value = this.values.get(key)?.slice(range.offset, range.offset + range.length);
        return use(value && { source: { reader: MEMORY_READER, id: -1 }, offset: range.offset, length: value.length });
      }
    })(),
  "size returns 0 for a missing key": () =>
    new (class extends MemoryStore {
      override async size(key: string) {
        return (await super.size(key)) ?? 0;
      }
    })(),
  "size treats empty values as missing": () =>
    new (class extends MemoryStore {
      override async size(key: string) {
        return (await super.size(key)) || undefined;
      }
    })(),
  "list yields keys twice": () =>
    new (class extends MemoryStore {
      override async *list(prefix: string) {
        yield* super.list(prefix);
        yield* super.list(prefix);
      }
    })(),
  "list ignores the prefix": () =>
    new (class extends MemoryStore {
      override list() {
        return super.list("");
      }
    })(),
  "list treats the prefix as a directory": () =>
    new (class extends MemoryStore {
      override list(prefix: string) {
        return super.list(prefix === "" || prefix.endsWith("/") ? prefix : `${prefix}/`);
      }
    })(),
  "delete leaves the key listed": () =>
    new (class extends MemoryStore {
      deleted = new Set<string>();
      override async delete(key: string) {
        await super.delete(key);
        this.deleted.add(key);
      }
      override async *list(prefix: string) {
        yield* super.list(prefix);
        for (const key of this.deleted) if (key.startsWith(prefix)) yield key;
      }
    })(),
  "listDir names entries relative to the prefix": () =>
    new (class extends MemoryStore {
      override async listDir(prefix: string) {
        const { keys, prefixes } = await super.listDir(prefix);
        return { keys: keys.map((k) => k.slice(prefix.length)), prefixes: prefixes.map((p) => p.slice(prefix.length)) };
      }
    })(),
  "listDir lists keys at every depth": () =>
    new (class extends MemoryStore {
      override async listDir(prefix: string) {
        const { prefixes } = await super.listDir(prefix);
        return { keys: [...this.values.keys()].filter((k) => k.startsWith(prefix)), prefixes };
      }
    })(),
  "listDir throws for a missing prefix": () =>
    new (class extends MemoryStore {
      override async listDir(prefix: string) {
        const result = await super.listDir(prefix);
        if (!result.keys.length && !result.prefixes.length) throw new StoreError("ENOENT", { key: prefix });
        return result;
      }
    })(),
  "delete does nothing": () =>
    new (class extends MemoryStore {
      override async delete() {}
    })(),
  "delete throws for a missing key": () =>
    new (class extends MemoryStore {
      override async delete(key: string) {
        this.existing(key);
        return super.delete(key);
      }
    })(),
  "delete removes every key starting with the key": () =>
    new (class extends MemoryStore {
      override async delete(key: string) {
        for (const k of [...this.values.keys()]) if (k.startsWith(key)) await super.delete(k);
      }
    })(),
  "set fails in a directory that was emptied": () =>
    new (class extends MemoryStore {
      removedDirs = new Set<string>();
      override async delete(key: string) {
        await super.delete(key);
        const dir = key.slice(0, key.lastIndexOf("/") + 1);
        if (![...this.values.keys()].some((k) => k.startsWith(dir))) this.removedDirs.add(dir);
      }
      override async set(key: string, value: Uint8Array, options?: SetOptions) {
        if (this.removedDirs.has(key.slice(0, key.lastIndexOf("/") + 1))) throw new StoreError("ENOENT", { key });
        return super.set(key, value, options);
      }
    })(),
  "append returns the new length": () =>
    new (class extends MemoryStore {
      override async append(key: string, value: Uint8Array) {
        return (await super.append(key, value)) + value.length;
      }
    })(),
  "append of no bytes creates nothing": () =>
    new (class extends MemoryStore {
      override async append(key: string, value: Uint8Array) {
        if (!value.length) return this.values.get(key)?.length ?? 0;
        return super.append(key, value);
      }
    })(),
  "append keeps its own length counter": () =>
    new (class extends MemoryStore {
      lengths = new Map<string, number>();
      override async append(key: string, value: Uint8Array) {
        const offset = this.lengths.get(key) ?? 0;
        this.lengths.set(key, offset + value.length);
        await super.append(key, value);
        return offset;
      }
    })(),
  "append reads the length before yielding": () =>
    new (class extends MemoryStore {
      override async append(key: string, value: Uint8Array) {
        const current = this.values.get(key) ?? empty;
        await tick();
        const next = new Uint8Array(current.length + value.length);
        next.set(current);
        next.set(value, current.length);
        this.write(key, next);
        return current.length;
      }
    })(),
  "setRange writes one byte late": () =>
    new (class extends MemoryStore {
      override async setRange(key: string, offset: number, value: Uint8Array) {
        const room = (this.values.get(key)?.length ?? 0) - offset - 1;
        return super.setRange(key, offset + 1, value.subarray(0, Math.max(0, room)));
      }
    })(),
  "setRange creates a missing value": () =>
    new (class extends MemoryStore {
      override async setRange(key: string, offset: number, value: Uint8Array) {
        if (!this.values.has(key)) this.write(key, new Uint8Array(offset + value.length));
        return super.setRange(key, offset, value);
      }
    })(),
  "setRange drops bytes past the end": () =>
    new (class extends MemoryStore {
      override async setRange(key: string, offset: number, value: Uint8Array) {
        const size = this.existing(key).length;
        return super.setRange(key, offset, value.subarray(0, Math.max(0, size - offset)));
      }
    })(),
  "truncate to 0 deletes the value": () =>
    new (class extends MemoryStore {
      override async truncate(key: string, length: number) {
        if (length === 0) return this.delete(key);
        return super.truncate(key, length);
      }
    })(),
  "truncate creates a missing value": () =>
    new (class extends MemoryStore {
      override async truncate(key: string, length: number) {
        if (!this.values.has(key)) this.write(key, new Uint8Array(length));
        return super.truncate(key, length);
      }
    })(),
  "getVersioned returns an empty value for a missing key": () =>
    new (class extends MemoryStore {
      override async getVersioned(key: string) {
        return (await super.getVersioned(key)) ?? { value: new Uint8Array(0), version: "0" };
      }
    })(),
  "versions change on every read": () =>
    new (class extends MemoryStore {
      reads = 0;
      override async getVersioned(key: string) {
        const current = await super.getVersioned(key);
        return current && { value: current.value, version: `${current.version}.${++this.reads}` };
      }
    })(),
  "versions are the size of the value": () =>
    new (class extends MemoryStore {
      protected override write(key: string, value: Uint8Array) {
        this.values.set(key, value);
        this.versions.set(key, String(value.length));
      }
    })(),
  "in-place writes keep the version": () =>
    new (class extends MemoryStore {
      #keep = async (key: string, write: () => Promise<unknown>) => {
        const version = this.versions.get(key);
        const result = await write();
        if (version !== undefined) this.versions.set(key, version);
        return result;
      };
      override async append(key: string, value: Uint8Array) {
        return (await this.#keep(key, () => super.append(key, value))) as number;
      }
      override async setRange(key: string, offset: number, value: Uint8Array) {
        await this.#keep(key, () => super.setRange(key, offset, value));
        return this.versions.get(key)!;
      }
      override async truncate(key: string, length: number) {
        await this.#keep(key, () => super.truncate(key, length));
      }
    })(),
  "ranged reads report versions but ignore ifMatch": () =>
    new (class extends MemoryStore {
      override async getRange(key: string, range: RangeQuery, _options?: ReadOptions) {
        return super.getRange(key, range);
      }
      override async getRangeWithSize(key: string, range: RangeQuery, _options?: ReadOptions) {
        return super.getRangeWithSize(key, range);
      }
    })(),
  "getRangeWithSize reports a version getVersioned does not know": () =>
    new (class extends MemoryStore {
      override async getRangeWithSize(key: string, range: RangeQuery, options?: ReadOptions) {
        const sized = await super.getRangeWithSize(key, range, options);
        return sized && { ...sized, version: `W/"${sized.version}"` };
      }
      override async getRange(key: string, range: RangeQuery, options?: ReadOptions) {
        const ifMatch = options?.ifMatch?.replace(/^W\/"(.*)"$/, "$1");
        return super.getRange(key, range, { ...options, ifMatch });
      }
    })(),
  "append ignores ifMatch": () =>
    new (class extends MemoryStore {
      override async append(key: string, value: Uint8Array) {
        return super.append(key, value);
      }
    })(),
  "setRange ignores ifMatch": () =>
    new (class extends MemoryStore {
      override async setRange(key: string, offset: number, value: Uint8Array) {
        return super.setRange(key, offset, value);
      }
    })(),
  "setRange returns the version it started from": () =>
    new (class extends MemoryStore {
      override async setRange(key: string, offset: number, value: Uint8Array, options?: SetOptions) {
        const before = this.versions.get(key)!;
        await super.setRange(key, offset, value, options);
        return before;
      }
    })(),
  "ifNoneMatch fails even for a missing key": () =>
    new (class extends MemoryStore {
      override async set(key: string, value: Uint8Array, options?: SetOptions) {
        if (options?.ifNoneMatch) throw new PreconditionFailedError("exists", { key });
        return super.set(key, value, options);
      }
    })(),
  "set ignores conditions": () =>
    new (class extends MemoryStore {
      override async set(key: string, value: Uint8Array) {
        return super.set(key, value);
      }
    })(),
  "ifMatch never matches": () =>
    new (class extends MemoryStore {
      override async set(key: string, value: Uint8Array, options?: SetOptions) {
        return super.set(
          key,
          value,
          options?.ifMatch === undefined ? options : { ...options, ifMatch: `"${options.ifMatch}"` },
        );
      }
    })(),
  "ifMatch passes for a missing key": () =>
    new (class extends MemoryStore {
      override async set(key: string, value: Uint8Array, options?: SetOptions) {
        return super.set(key, value, this.values.has(key) ? options : { ...options, ifMatch: undefined });
      }
    })(),
  "conditions are checked before yielding": () =>
    new (class extends MemoryStore {
      override async set(key: string, value: Uint8Array, options: SetOptions = {}) {
        const current = this.versions.get(key);
        if (options.ifNoneMatch === "*" && current !== undefined) throw new PreconditionFailedError("exists", { key });
        if (options.ifMatch !== undefined && options.ifMatch !== current)
          throw new PreconditionFailedError("changed", { key });
        await tick();
        this.write(key, value.slice());
      }
    })(),
  "invalid keys are accepted": () =>
    new (class extends MemoryStore {
      protected override check() {}
    })(),
  "invalid keys are rejected without naming the key": () =>
    new (class extends MemoryStore {
      protected override check(key: string) {
        try {
          super.check(key);
        } catch {
          throw new StoreError("invalid key");
        }
      }
    })(),
};
