/**
 * A read-only Store over a reference table: each key's bytes are inline in
 * the reference file or a window of a target file, read through the target's
 * own store (see targets.ts). Listing walks the table's keys.
 */
import {
  checkRange,
  checkStoreKey,
  normalizeStorePrefix,
  type ListDirResult,
  type RangeQuery,
  type ReadOptions,
  type RequestOptions,
  rangeBounds,
  type Store,
} from "@zarrkit/registry";
import { ListLevel } from "./list-level.js";
import type { Reference, ReferenceTable } from "./reference.js";
import { type ReferenceStoreOptions, resolveOptions } from "./options.js";
import { Targets } from "./targets.js";

/** A Store whose values are the references of a kerchunk JSON or Parquet reference file. */
export class ReferenceStore implements Store {
  readonly #targets: Targets;
  readonly #root: string;

  /**
   * A store over `table` (see `openReferenceStore` for reference files).
   * Relative target URLs are keys beside `referenceFile` in `home`; `path`
   * roots the store inside the table ("" for its root).
   */
  constructor(
    /** The keys and their references. */
    readonly table: ReferenceTable,
    home: Store,
    referenceFile: string,
    options: ReferenceStoreOptions = {},
    path = "",
  ) {
    this.#targets = new Targets(home, referenceFile, resolveOptions(options));
    this.#root = normalizeStorePrefix(path, "reference store");
  }

  async get(key: string, options: RequestOptions = {}): Promise<Uint8Array | undefined> {
    checkStoreKey(key);
    const reference = await this.table.lookup(this.#root + key, options);
    if (!reference) return undefined;
    if (reference.kind === "inline") return reference.bytes.slice();
    const reader = await this.#targets.reader(reference.url, { key: this.#root + key, field: reference.field });
    const context = { key: this.#root + key, field: reference.field };
    if (!reference.window) return reader.readWhole(context, options.signal);
    return reader.read(reference.window.offset, reference.window.length, context, options.signal);
  }

  async getRange(key: string, range: RangeQuery, options: ReadOptions = {}): Promise<Uint8Array | undefined> {
    checkStoreKey(key);
    checkRange(key, range);
    const reference = await this.table.lookup(this.#root + key, options);
    if (!reference) return undefined;
    if (reference.kind === "inline") {
      const [start, end] = rangeBounds(range, reference.bytes.length);
      return reference.bytes.slice(start, end);
    }
    const context = { key: this.#root + key, field: reference.field };
    const reader = await this.#targets.reader(reference.url, context);
    if (!reference.window) {
      const whole = await reader.readWhole(context, options.signal);
      const [start, end] = rangeBounds(range, whole.length);
      return whole.slice(start, end);
    }
    const [start, end] = rangeBounds(range, reference.window.length);
    if (end === start) return new Uint8Array(0);
    return reader.read(reference.window.offset + start, end - start, context, options.signal);
  }

  async size(key: string, options: RequestOptions = {}): Promise<number | undefined> {
    checkStoreKey(key);
    const reference = await this.table.lookup(this.#root + key, options);
    if (!reference) return undefined;
    return sizeOf(reference) ?? (await this.get(key, options))?.length;
  }

  async *list(prefix: string, options: RequestOptions = {}): AsyncGenerator<string> {
    for await (const key of this.table.keys(this.#root + prefix, options)) yield key.slice(this.#root.length);
  }

  async listDir(prefix: string, options: RequestOptions = {}): Promise<ListDirResult> {
    const root = this.#root;
    if (this.table.listDir) {
      const { keys, prefixes } = await this.table.listDir(root + prefix, options);
      return { keys: keys.map((k) => k.slice(root.length)), prefixes: prefixes.map((p) => p.slice(root.length)) };
    }
    const level = new ListLevel(prefix);
    for await (const key of this.list(prefix, options)) level.addKey(key);
    return level.result();
  }
}

function sizeOf(reference: Reference): number | undefined {
  return reference.kind === "inline" ? reference.bytes.length : reference.window?.length;
}
