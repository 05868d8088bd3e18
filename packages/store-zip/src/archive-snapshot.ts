import { CorruptDataError, NotFoundError, type Store, StoreError } from "@zarrkit/registry";
import { parseCentralDirectory, type ZipEntry } from "./central-directory.js";
import { parseEndRecords } from "./end-records.js";
import { isArchiveName } from "./ome-comment.js";
import { CENTRAL_HEADER_BYTES } from "./zip-records.js";
import { type ZipPlace, zipError } from "./zip-errors.js";

/** The archive as one read of its end and directory saw it. */
export interface ArchiveSnapshot {
  /** The archive's version in its store (undefined when the store keeps none: the archive is taken as unchanging). */
  version: string | undefined;
  size: number;
  /** Entries by full name (directories left out). */
  entries: Map<string, ZipEntry>;
  comment: Uint8Array;
  /** Where the central directory starts: every entry's data ends before it. */
  directoryOffset: number;
  /** Data offsets learnt from local headers, by entry name (valid for this version only). */
  dataOffsets: Map<string, number>;
  /** Entries whose local header (once read) has a ZIP64 extra field. */
  zip64Headers: Set<string>;
  /** The first entry that is an archive itself (`.zip`, `.ozx`), if any: found once, checked on every read. */
  nestedArchive: string | undefined;
}

/** Bounds on what reading the directory may cost. */
export interface SnapshotLimits {
  tailBytes: number;
  maxDirectoryBytes: number;
  maxEntries: number;
}

/**
 * Read the archive's end records with one suffix read (`tailBytes`, which
 * also brings the central directory along when it is small) and its central
 * directory (from the tail, or one ranged read at the tail's version).
 */
export async function loadSnapshot(
  store: Store,
  key: string,
  limits: SnapshotLimits,
  place: ZipPlace,
  signal?: AbortSignal,
): Promise<ArchiveSnapshot> {
  if (typeof store.getRangeWithSize !== "function") {
    throw zipError(
      StoreError,
      place,
      "its store has no ranged reads with sizes (getRangeWithSize), which reading an archive needs",
    );
  }
  const tail = await store.getRangeWithSize(key, { suffixLength: limits.tailBytes }, signal ? { signal } : {});
  if (!tail) throw zipError(NotFoundError, place, "the archive does not exist");
  if (tail.size === undefined) throw zipError(StoreError, place, "its store did not report the archive's size");
  const { size, version } = tail;
  const tailOffset = size - tail.value.length;
  const end = parseEndRecords(tail.value, tailOffset, place);
  if (end.entryCount > limits.maxEntries) {
    throw zipError(StoreError, place, `it has ${end.entryCount} entries, more than maxEntries (${limits.maxEntries})`);
  }
  if (end.directorySize > limits.maxDirectoryBytes) {
    throw zipError(
      StoreError,
      place,
      `its central directory takes ${end.directorySize} bytes, more than maxDirectoryBytes ` +
        `(${limits.maxDirectoryBytes})`,
    );
  }
  if (end.directorySize < end.entryCount * CENTRAL_HEADER_BYTES) {
    throw zipError(
      CorruptDataError,
      place,
      `${end.directorySize} bytes of central directory cannot hold ${end.entryCount} entries`,
    );
  }
  let directory: Uint8Array | undefined;
  if (end.directoryOffset >= tailOffset) {
    directory = tail.value.subarray(end.directoryOffset - tailOffset, end.recordsOffset - tailOffset);
  } else {
    const options = { ...(version !== undefined && { ifMatch: version }), ...(signal && { signal }) };
    directory = (await store.getRangeWithSize(key, { offset: end.directoryOffset, length: end.directorySize }, options))
      ?.value;
    if (!directory || directory.length !== end.directorySize) {
      throw zipError(CorruptDataError, place, "the archive ended before its central directory did");
    }
  }
  const entries = parseCentralDirectory(directory, end.entryCount, end.directoryOffset, place);
  const nestedArchive = [...entries.keys()].find(isArchiveName);
  const { comment, directoryOffset } = end;
  return {
    version,
    size,
    entries,
    comment,
    directoryOffset,
    dataOffsets: new Map(),
    zip64Headers: new Set(),
    nestedArchive,
  };
}
