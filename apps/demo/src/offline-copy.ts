// "Save for offline": the stored bytes of one array (its metadata and every
// chunk or shard, as stored: nothing is decoded or re-encoded) copied key by key
// into another store, skipping keys already there, so a cancelled or
// interrupted copy resumes where it stopped. Each key is read back from the
// copy and compared with what was fetched, and each shard's index is checked
// against the shard's size, so a copy is reported saved only once it can be read.
import { describeShard, openArray, type Store, UnsupportedError, type ZarrArray } from "zarrkit";

export interface CopyProgress {
  keysDone: number;
  keysTotal: number;
  bytes: number;
  /** Seconds left at the rate so far; undefined until something was copied. */
  etaSeconds: number | undefined;
}

/** The keys of an array relative to it, metadata first: what a copy of it needs. */
export function arrayKeys(array: ZarrArray): string[] {
  const metadata = array.format === 3 ? ["zarr.json"] : [".zarray", ".zattrs"];
  const base = array.path === "" ? "" : `${array.path}/`;
  const chunks = [...array.chunkRegions()].map((region) => region.key.slice(base.length));
  return [...metadata, ...chunks];
}

export interface CopyOptions {
  /** Keys already copied (a resumed copy skips them). */
  present?: ReadonlySet<string>;
  signal?: AbortSignal;
  onProgress?: (progress: CopyProgress) => void;
  /** Bytes already copied by an earlier run, counted in the progress. */
  bytesBefore?: number;
}

/**
 * Copy `keys` of the array at `path` in `source` to the root of `target`, in
 * order, one at a time (a key is written whole or not at all), each read back
 * and compared with what was fetched. Missing keys (never-written chunks) are
 * skipped. Resolves with the bytes copied in total.
 */
export async function copyArray(
  source: Store,
  path: string,
  keys: readonly string[],
  target: Store,
  options: CopyOptions = {},
): Promise<number> {
  const { present = new Set(), signal, onProgress } = options;
  const base = path === "" ? "" : `${path}/`;
  let bytes = options.bytesBefore ?? 0;
  let done = 0;
  let copiedNow = 0;
  const started = performance.now();
  const report = () => {
    const elapsed = (performance.now() - started) / 1000;
    const left = keys.length - done;
    const etaSeconds = copiedNow > 0 ? (elapsed / copiedNow) * left : undefined;
    onProgress?.({ keysDone: done, keysTotal: keys.length, bytes, etaSeconds });
  };
  report();
  for (const key of keys) {
    signal?.throwIfAborted();
    if (!present.has(key)) {
      const value = await source.get(base + key, signal ? { signal } : {});
      signal?.throwIfAborted();
      if (value !== undefined) {
        await target.set!(key, value, signal ? { signal } : {});
        const stored = await target.get(key, signal ? { signal } : {});
        if (!sameBytes(stored, value)) {
          throw new Error(
            `The saved copy of ${key} is not what was read (${stored?.byteLength ?? "no"} bytes stored ` +
              `of ${value.byteLength}).`,
          );
        }
        bytes += value.byteLength;
      }
      copiedNow++;
    }
    done++;
    report();
  }
  return bytes;
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  if (a === undefined || a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Check that the copy in `target` (an array at its root) can be read: its
 * metadata opens, and the index of every stored shard (of a sharded array) is
 * whole and points inside its shard. Throws what it found otherwise.
 */
export async function checkCopy(target: Store): Promise<void> {
  const copy = await openArray(target, "");
  for (const region of copy.chunkRegions()) {
    try {
      await describeShard(copy, region.coords);
    } catch (error) {
      // Not sharded: its chunks were compared byte for byte as they were stored.
      if (error instanceof UnsupportedError && /not sharded/.test(error.message)) return;
      throw error;
    }
  }
}
