/**
 * Serialises async tasks per key within this process (JavaScript has no
 * threads, so a promise chain is enough). Other processes are excluded by the
 * lock files of file-lock.ts, taken behind this one so that a process never
 * polls a lock file against itself.
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<void>>();

  /** A task holds or awaits the key's lock. */
  busy(key: string): boolean {
    return this.#tails.has(key);
  }

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
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
