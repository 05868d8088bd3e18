/**
 * Serialises async tasks per key within this process (JavaScript has no
 * threads, so a promise chain is enough). Other processes are not excluded.
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<void>>();

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
