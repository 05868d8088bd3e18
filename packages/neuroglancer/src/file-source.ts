import { CorruptDataError, type RequestOptions, type Store } from "@zarrkit/registry";
import type { ByteRange } from "@zarrkit/util";

/** Reads exact byte ranges of stored files, hiding whether the store can read ranges. */
export interface FileSource {
  /**
   * Exactly `range.length` bytes at `range.offset` of `key`, or undefined when
   * the file does not exist. A file too short for the range is corrupt: every
   * range comes from an index that claims those bytes exist.
   */
  read(key: string, range: ByteRange, what: string): Promise<Uint8Array | undefined>;
}

/**
 * A source for one operation. Stores without `getRange` have each file read
 * whole once per operation (not cached beyond it: shard files can be large).
 */
export function fileSource(store: Store, options: RequestOptions = {}): FileSource {
  const wholeFiles = new Map<string, Promise<Uint8Array | undefined>>();
  const fetch = (key: string, range: ByteRange): Promise<Uint8Array | undefined> => {
    if (store.getRange) return store.getRange(key, { offset: range.offset, length: range.length }, options);
    let file = wholeFiles.get(key);
    if (!file) {
      file = store.get(key, options);
      wholeFiles.set(key, file);
    }
    return file.then((bytes) => bytes?.subarray(range.offset, range.offset + range.length));
  };
  return {
    async read(key, range, what) {
      if (range.length === 0) return new Uint8Array(0);
      const bytes = await fetch(key, range);
      if (bytes !== undefined && bytes.length !== range.length) {
        throw new CorruptDataError(
          `${what} at bytes [${range.offset}, ${range.offset + range.length}) of ${key} lies past the end of the ` +
            `file (got ${bytes.length} bytes)`,
          { key },
        );
      }
      return bytes;
    },
  };
}
