/** Whether the fallback warning was given: once per thread, the stats keep the latest reason. */
let warned = false;

/**
 * Warn, once, that codec work meant for workers runs on the calling thread:
 * it is still correct, only slower, so a warning rather than an error.
 */
export function warnFallback(reason: string): void {
  if (warned) return;
  warned = true;
  console.warn(
    `zarrkit: codec work runs on the calling thread instead of the codec workers: ${reason}. ` +
      "A plugin codec reaches the workers when registered with registerCodec(name, loader, { workerModule: " +
      "import.meta.url }) " +
      "(or registerCodecWorkerModule(url)); codecWorkerStats() shows what the workers did.",
  );
}
