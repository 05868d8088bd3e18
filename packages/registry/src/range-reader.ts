import { registryState } from "./global-state.js";
import type { RangeReader } from "./store.js";

/**
 * Teach this thread to read sources lent under `name` (`Store.lendRange`).
 * A store registers its reader in a module it also registers with
 * `registerCodecWorkerModule`, so that codec workers learn it.
 */
export function registerRangeReader(name: string, reader: RangeReader): void {
  registryState().rangeReaders.set(name, reader);
}

/** The reader registered for `name` in this thread, if any. */
export function rangeReader(name: string): RangeReader | undefined {
  return registryState().rangeReaders.get(name);
}
