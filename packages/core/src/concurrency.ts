/**
 * Run `task` for every item with at most `limit` in flight, stopping at the
 * first failure. Items are pulled lazily, so a selection touching millions of
 * chunks never materialises them all.
 */
export async function forEachConcurrent<T>(
  items: Iterable<T>,
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
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

/**
 * Wait for every task, then throw the first failure: nothing is left running
 * (a read planned again, a buffer lent to the tasks) when the caller goes on.
 */
export async function settleAll<T>(tasks: Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(tasks);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}
