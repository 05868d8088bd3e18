/** A whole value fetched from a server that ignores Range, with its version (strong ETag) when the server sent one. */
export interface CachedBody {
  value: Uint8Array;
  version: string | undefined;
}

/**
 * The last whole values fetched from a server that ignores Range, so ranged
 * reads of one key (a shard index, then its chunks) fetch it once.
 * Least-recently-used entries go first once `maxBytes` is exceeded; values
 * larger than that are not kept.
 */
export class BodyCache {
  readonly #entries = new Map<string, CachedBody>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  get(key: string): CachedBody | undefined {
    const entry = this.#entries.get(key);
    if (entry) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, value: Uint8Array, version: string | undefined): void {
    this.delete(key);
    if (value.byteLength > this.maxBytes) return;
    this.#entries.set(key, { value, version });
    this.#bytes += value.byteLength;
    for (const [oldest, evicted] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= evicted.value.byteLength;
    }
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.value.byteLength;
  }
}
