import { CorruptDataError } from "@zarrkit/registry";
import { findExtra, type ZipEntry } from "./central-directory.js";
import {
  FLAG_DATA_DESCRIPTOR,
  FLAG_ENCRYPTED,
  Fields,
  LOCAL_HEADER_BYTES,
  LOCAL_HEADER_SIGNATURE,
  U32_SENTINEL,
  ZIP64_EXTRA_ID,
} from "./zip-records.js";
import { type ZipPlace, zipError } from "./zip-errors.js";

/** Whether the local header at the start of `bytes` (`length` bytes, already checked) has a ZIP64 extra field. */
export function hasZip64Extra(bytes: Uint8Array, entry: ZipEntry, length: number): boolean {
  return (
    findExtra(new Fields(bytes.subarray(LOCAL_HEADER_BYTES + entry.rawName.length, length)), ZIP64_EXTRA_ID) !==
    undefined
  );
}

/** Bytes the local header of `entry` takes when its extra field is as long as `extraLength`. */
export function localHeaderLength(entry: ZipEntry, extraLength: number): number {
  return LOCAL_HEADER_BYTES + entry.rawName.length + extraLength;
}

/**
 * Check the local header at the start of `bytes` against the central
 * directory's record of `entry` and return its length (the entry's data
 * follows it); `undefined` when `bytes` is too short to hold the header (the
 * caller reads more). Any disagreement (name, method, encryption, and CRC and
 * sizes unless a data descriptor holds them) is a CorruptDataError: a reader
 * trusting either copy could be shown other bytes than the other promises.
 */
export function checkLocalHeader(
  bytes: Uint8Array,
  entry: ZipEntry,
  dataEnd: number,
  place: ZipPlace,
): number | undefined {
  if (bytes.length < LOCAL_HEADER_BYTES) return undefined;
  const fields = new Fields(bytes);
  if (fields.u32(0) !== LOCAL_HEADER_SIGNATURE) {
    throw zipError(
      CorruptDataError,
      place,
      `no local header at offset ${entry.headerOffset}, where the central directory puts it`,
    );
  }
  const length = localHeaderLength(entry, fields.u16(28));
  if (bytes.length < length) return undefined;
  const disagree = (what: string) =>
    zipError(
      CorruptDataError,
      place,
      `the local header disagrees with the central directory about the entry's ${what}`,
    );
  const nameLength = fields.u16(26);
  const name = bytes.subarray(LOCAL_HEADER_BYTES, LOCAL_HEADER_BYTES + nameLength);
  if (nameLength !== entry.rawName.length || !name.every((byte, i) => byte === entry.rawName[i]))
    throw disagree("name");
  if (fields.u16(8) !== entry.method) throw disagree("compression method");
  const flags = fields.u16(6);
  if ((flags & FLAG_ENCRYPTED) !== (entry.flags & FLAG_ENCRYPTED)) throw disagree("encryption");
  if (!(flags & FLAG_DATA_DESCRIPTOR)) {
    if (fields.u32(14) !== entry.crc32) throw disagree("CRC-32");
    let compressedSize: number | undefined = fields.u32(18);
    let size: number | undefined = fields.u32(22);
    if (compressedSize === U32_SENTINEL || size === U32_SENTINEL) {
      // A ZIP64 local header holds both sizes in its extra field, the uncompressed one first.
      const zip64 = findExtra(new Fields(bytes.subarray(LOCAL_HEADER_BYTES + nameLength, length)), ZIP64_EXTRA_ID);
      size = zip64 && zip64.bytes.length >= 16 ? zip64.u64(0) : undefined;
      compressedSize = zip64 && zip64.bytes.length >= 16 ? zip64.u64(8) : undefined;
    }
    if (compressedSize !== entry.compressedSize) throw disagree("compressed size");
    if (size !== entry.size) throw disagree("size");
  }
  const dataEndOffset = entry.headerOffset + length + entry.compressedSize;
  if (dataEndOffset > dataEnd) {
    throw zipError(
      CorruptDataError,
      place,
      `its data (to offset ${dataEndOffset}) runs into the central directory (offset ${dataEnd})`,
    );
  }
  return length;
}
