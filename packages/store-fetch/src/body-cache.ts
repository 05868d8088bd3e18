/**
 * The last whole values fetched from a server that ignores Range, so ranged
 * reads of one key (a shard index, then its chunks) fetch it once.
 * Least-recently-used entries go first once `maxBytes` is exceeded; values
 * larger than that are not kept.
 */
export class BodyCache {
  readonly #entries = new Map<string, Uint8Array>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  get(key: string): Uint8Array | undefined {
    const value = this.#entries.get(key);
    if (value) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: Uint8Array): void {
    this.delete(key);
    if (value.byteLength > this.maxBytes) return;
    this.#entries.set(key, value);
    this.#bytes += value.byteLength;
    for (const [oldest, evicted] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= evicted.byteLength;
    }
  }

  delete(key: string): void {
    const value = this.#entries.get(key);
    if (!value) return;
    this.#entries.delete(key);
    this.#bytes -= value.byteLength;
  }
}
