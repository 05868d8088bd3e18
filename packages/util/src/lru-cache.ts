/**
 * A cache bounded by the total cost of its values (bytes, or 1 each for a
 * count), evicting the least recently used. Concurrent loads of one key share
 * a single in-flight promise, so a burst of readers of one value fetches it once.
 */
export class LruCache<K, V> {
  readonly #entries = new Map<K, { value: V; cost: number }>();
  readonly #loading = new Map<K, Promise<V | undefined>>();
  #cost = 0;

  /** `maxCost`: the budget; `costOf`: what one value costs of it (default 1: a cache of at most `maxCost` entries). */
  constructor(
    /** The budget the cached values' costs stay within. */
    readonly maxCost: number,
    private readonly costOf: (value: V) => number = () => 1,
  ) {}

  /** Entries cached. */
  get size(): number {
    return this.#entries.size;
  }

  /** Cost of the values held. */
  get usedCost(): number {
    return this.#cost;
  }

  /** The cached value (now the most recently used), or undefined. */
  get(key: K): V | undefined {
    const hit = this.#entries.get(key);
    if (!hit) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, hit);
    return hit.value;
  }

  /**
   * The cached value, else the result of `load`, cached when it is defined,
   * `keep` accepts it, and it fits. Concurrent calls share one load.
   */
  async getOrLoad(
    key: K,
    load: () => Promise<V | undefined>,
    keep: (value: V) => boolean = () => true,
  ): Promise<V | undefined> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const pending = this.#loading.get(key);
    if (pending) return pending;
    const promise = load().then(
      (value) => {
        if (this.#loading.get(key) === promise) {
          this.#loading.delete(key);
          if (value !== undefined && keep(value)) this.set(key, value);
        }
        return value;
      },
      (error) => {
        if (this.#loading.get(key) === promise) this.#loading.delete(key);
        throw error;
      },
    );
    this.#loading.set(key, promise);
    return promise;
  }

  /** Keep a value (unless it alone costs more than the budget), evicting the least recently used beyond the budget. */
  set(key: K, value: V): void {
    this.delete(key);
    const cost = this.costOf(value);
    if (cost > this.maxCost) return;
    this.#entries.set(key, { value, cost });
    this.#cost += cost;
    for (const [oldest, entry] of this.#entries) {
      if (this.#cost <= this.maxCost) break;
      this.#entries.delete(oldest);
      this.#cost -= entry.cost;
    }
  }

  /** Forget a key, including a load in flight (its result will not be cached). */
  delete(key: K): void {
    this.#loading.delete(key);
    const entry = this.#entries.get(key);
    if (entry) {
      this.#entries.delete(key);
      this.#cost -= entry.cost;
    }
  }

  /** Drop every entry. */
  clear(): void {
    this.#loading.clear();
    this.#entries.clear();
    this.#cost = 0;
  }
}
