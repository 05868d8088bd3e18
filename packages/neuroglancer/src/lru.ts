/** A bounded least-recently-used map; Map iteration order is insertion order, so the first key is the oldest. */
export class LruCache<K, V> {
  readonly #map = new Map<K, V>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = Math.max(0, Math.floor(capacity));
  }

  get size(): number {
    return this.#map.size;
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  get(key: K): V | undefined {
    if (!this.#map.has(key)) return undefined;
    const value = this.#map.get(key) as V;
    this.#map.delete(key);
    this.#map.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.#map.delete(key);
    if (this.#capacity === 0) return;
    this.#map.set(key, value);
    if (this.#map.size > this.#capacity) this.#map.delete(this.#map.keys().next().value as K);
  }

  clear(): void {
    this.#map.clear();
  }
}
