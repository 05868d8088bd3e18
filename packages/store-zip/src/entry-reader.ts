import {
  ChecksumError,
  CorruptDataError,
  PreconditionFailedError,
  type Store,
  StoreError,
  UnsupportedError,
} from "@zarrkit/registry";
import type { ArchiveSnapshot } from "./archive-snapshot.js";
import type { ZipEntry } from "./central-directory.js";
import { crc32 } from "./crc32.js";
import { checkLocalHeader, hasZip64Extra, localHeaderLength } from "./local-header.js";
import { METHOD_DEFLATED, METHOD_STORED } from "./zip-records.js";
import { type ZipPlace, zipError } from "./zip-errors.js";

/** Room read past a local header's name for its extra field, so one read usually holds the whole header. */
const HEADER_SLACK_BYTES = 512;
/** A window ending this close to an entry's start is read together with its (not yet checked) local header. */
const COMBINED_READ_BYTES = 64 * 1024;

/** What reading entries needs besides the snapshot. */
export interface EntryReaderContext {
  store: Store;
  key: string;
  archive: string;
  maxInflatedBytes: number;
  signal?: AbortSignal;
}

/**
 * Bytes [offset, offset + length) of the archive at the snapshot's version.
 * A replaced (or removed) archive is a PreconditionFailedError, so the
 * caller re-reads the directory rather than mixing versions.
 */
async function readArchive(
  context: EntryReaderContext,
  snapshot: ArchiveSnapshot,
  offset: number,
  length: number,
): Promise<Uint8Array> {
  const options = {
    ...(snapshot.version !== undefined && { ifMatch: snapshot.version }),
    ...(context.signal && { signal: context.signal }),
  };
  const read = await context.store.getRangeWithSize!(context.key, { offset, length }, options);
  if (!read || (snapshot.version !== undefined && read.version !== undefined && read.version !== snapshot.version)) {
    throw new PreconditionFailedError(
      `zip archive ${JSON.stringify(context.archive)} was replaced or removed while being read`,
      { key: context.key },
    );
  }
  if (read.value.length !== length) {
    throw zipError(
      CorruptDataError,
      { archive: context.archive },
      `it ends before offset ${offset + length}, which its central directory promises`,
    );
  }
  return read.value;
}

/**
 * Bytes [start, end) of the entry's stored data. The first read of an entry
 * checks its local header (and learns where its data starts); a window near
 * the entry's start comes with that read.
 */
export async function readStoredBytes(
  context: EntryReaderContext,
  snapshot: ArchiveSnapshot,
  entry: ZipEntry,
  start: number,
  end: number,
): Promise<Uint8Array> {
  const place = { archive: context.archive, entry: entry.name };
  let dataOffset = snapshot.dataOffsets.get(entry.name);
  if (dataOffset === undefined) {
    const combined = end <= COMBINED_READ_BYTES;
    const wanted = (headerBytes: number) =>
      Math.min(headerBytes + (combined ? end : 0), snapshot.directoryOffset - entry.headerOffset);
    let bytes = await readArchive(
      context,
      snapshot,
      entry.headerOffset,
      wanted(localHeaderLength(entry, HEADER_SLACK_BYTES)),
    );
    let headerLength = checkLocalHeader(bytes, entry, snapshot.directoryOffset, place);
    if (headerLength === undefined) {
      // An extra field longer than the slack: read the header again, now that its length is known.
      const extraLength = bytes[28]! | (bytes[29]! << 8);
      bytes = await readArchive(context, snapshot, entry.headerOffset, wanted(localHeaderLength(entry, extraLength)));
      headerLength = checkLocalHeader(bytes, entry, snapshot.directoryOffset, place);
      if (headerLength === undefined) throw zipError(CorruptDataError, place, "its local header is truncated");
    }
    dataOffset = entry.headerOffset + headerLength;
    snapshot.dataOffsets.set(entry.name, dataOffset);
    if (hasZip64Extra(bytes, entry, headerLength)) snapshot.zip64Headers.add(entry.name);
    if (bytes.length >= headerLength + end) return bytes.slice(headerLength + start, headerLength + end);
  }
  if (end === start) return new Uint8Array(0);
  return readArchive(context, snapshot, dataOffset + start, end - start);
}

/** The entry's whole value: STORED bytes, or DEFLATE data inflated within `maxInflatedBytes`; its CRC-32 checked. */
export async function readWholeEntry(
  context: EntryReaderContext,
  snapshot: ArchiveSnapshot,
  entry: ZipEntry,
): Promise<Uint8Array> {
  const place = { archive: context.archive, entry: entry.name };
  checkMethod(entry, place);
  if (entry.method === METHOD_DEFLATED && entry.size > context.maxInflatedBytes) {
    throw zipError(
      StoreError,
      place,
      `the entry inflates to ${entry.size} bytes, more than maxInflatedBytes (${context.maxInflatedBytes})`,
    );
  }
  const stored = await readStoredBytes(context, snapshot, entry, 0, entry.compressedSize);
  const value = entry.method === METHOD_STORED ? stored : await inflate(stored, entry, place);
  const computed = crc32(value);
  if (computed !== entry.crc32) {
    throw zipError(
      ChecksumError,
      place,
      `CRC-32 mismatch: the directory says ${hex(entry.crc32)}, the data has ${hex(computed)}`,
    );
  }
  return value;
}

/** STORED and DEFLATE are read; any other method is an UnsupportedError naming it. */
export function checkMethod(entry: ZipEntry, place: ZipPlace): void {
  if (entry.method !== METHOD_STORED && entry.method !== METHOD_DEFLATED) {
    throw zipError(
      UnsupportedError,
      place,
      `compression method ${entry.method} is not supported (only STORED and DEFLATE are)`,
    );
  }
}

// fflate is loaded with the first DEFLATE entry: archives of STORED entries (RFC-9's) never need it in a bundle.
async function inflate(data: Uint8Array, entry: ZipEntry, place: ZipPlace): Promise<Uint8Array> {
  const { inflateSync } = await import("fflate");
  // The output buffer has the declared size: fflate cannot write past it, so a lying size cannot cost more memory.
  const out = new Uint8Array(entry.size);
  let inflated: Uint8Array;
  try {
    inflated = inflateSync(data, { out });
  } catch (cause) {
    throw zipError(
      CorruptDataError,
      place,
      `invalid deflate data (${cause instanceof Error ? cause.message : String(cause)})`,
      cause,
    );
  }
  if (inflated.length !== entry.size) {
    throw zipError(
      CorruptDataError,
      place,
      `inflates to ${inflated.length} bytes where the directory declares ${entry.size}`,
    );
  }
  return inflated;
}

const hex = (value: number) => `0x${value.toString(16).padStart(8, "0")}`;
