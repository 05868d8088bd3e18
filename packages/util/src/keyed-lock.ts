/**
 * Serialises async tasks per key within this process (JavaScript has no
 * threads, so a promise chain is enough): a read-modify-write of one key never
 * interleaves with another. Other processes are not excluded.
 */
export class KeyedLock<K = string> {
  readonly #tails = new Map<K, Promise<void>>();

  /** A task holds or awaits the key's lock. */
  busy(key: K): boolean {
    return this.#tails.has(key);
  }

  /** Run `task` once every earlier task for `key` has settled (resolved or not). */
  async run<T>(key: K, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => done);
    this.#tails.set(key, tail);
    await previous;
    try {
      return await task();
    } finally {
      release();
      // Forget idle keys so the map does not grow with every key ever written.
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
