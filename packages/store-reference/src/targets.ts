/**
 * The target files of one reference store: each absolute URL's folder opened
 * once through `openStore` (file, http(s), s3, whatever is registered) and
 * kept in a bounded LRU cache, with one `TargetReader` per target file, also
 * bounded, so a file referring to thousands of targets holds only the recent ones.
 */
import { LruCache } from "@zarrkit/util";
import { openStore, type Store, StoreError } from "@zarrkit/registry";
import { TargetReader } from "./target-reader.js";
import { locateTarget } from "./target-urls.js";

/** How targets are opened. */
export interface TargetOptions {
  /** Options for `openStore` of each target folder (headers, credentials): never the reference file's own options. */
  targetOptions: Readonly<Record<string, unknown>>;
  /** Whether a target URL may be read; false is a StoreError naming the key. */
  allowTarget: (url: string) => boolean;
  /** Target stores and target readers kept open. */
  maxOpenTargets: number;
  /** Largest coalesced read of a target. */
  maxRequestBytes: number;
}

export class Targets {
  readonly #stores: LruCache<string, Store>;
  readonly #readers: LruCache<string, TargetReader>;

  constructor(
    /** The store holding the reference file: relative targets are read there. */
    private readonly home: Store,
    private readonly referenceFile: string,
    private readonly options: TargetOptions,
  ) {
    this.#stores = new LruCache(options.maxOpenTargets);
    this.#readers = new LruCache(options.maxOpenTargets);
  }

  /** The reader of `url`, the target of the reference of `context.key`. */
  async reader(url: string, context: { key: string; field: string }): Promise<TargetReader> {
    const location = locateTarget(url, this.referenceFile, context);
    if (location.kind === "url" && !this.options.allowTarget(url)) {
      throw new StoreError(
        `The reference of ${JSON.stringify(context.key)} (${context.field}) ` +
          `points to ${JSON.stringify(url)}, which allowTarget refuses`,
        context,
      );
    }
    const id = location.kind === "beside" ? `beside:${location.key}` : `url:${location.folder}${location.key}`;
    const reader = await this.#readers.getOrLoad(id, async () => {
      const store = location.kind === "beside" ? this.home : await this.#store(location.folder);
      return new TargetReader(store, location.key, url, this.options.maxRequestBytes);
    });
    return reader!;
  }

  async #store(folder: string): Promise<Store> {
    const store = await this.#stores.getOrLoad(folder, async () => openStore(folder, this.options.targetOptions));
    return store!;
  }
}
