/**
 * Run `task` for every item with at most `limit` in flight, stopping at the
 * first failure. Items are pulled lazily, so a selection touching millions of
 * chunks never materialises them all.
 */
export async function forEachConcurrent<T>(items: Iterable<T>, limit: number, task: (item: T) => Promise<void>): Promise<void> {
  const iterator = items[Symbol.iterator]();
  let failed = false;
  let failure: unknown;
  const worker = async () => {
    while (!failed) {
      const next = iterator.next();
      if (next.done) return;
      try {
        await task(next.value);
      } catch (error) {
        if (!failed) failure = error;
        failed = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
  if (failed) throw failure;
}
