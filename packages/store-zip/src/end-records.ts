import { CorruptDataError, UnsupportedError } from "@zarrkit/registry";
import {
  END_BYTES,
  END_SIGNATURE,
  Fields,
  MAX_COMMENT_BYTES,
  U16_SENTINEL,
  U32_SENTINEL,
  ZIP64_END_BYTES,
  ZIP64_END_SIGNATURE,
  ZIP64_LOCATOR_BYTES,
  ZIP64_LOCATOR_SIGNATURE,
} from "./zip-records.js";
import { type ZipPlace, zipError } from "./zip-errors.js";

/** Where the central directory is, from the end of central directory record (and its ZIP64 form). */
export interface EndRecords {
  entryCount: number;
  directoryOffset: number;
  directorySize: number;
  /** The archive comment's raw bytes. */
  comment: Uint8Array;
  /** Offset of the first end record: the central directory ends right there. */
  recordsOffset: number;
}

/** Largest suffix that can hold the end records: the comment, the ZIP64 record and locator, the end record. */
export const MAX_END_RECORDS_BYTES = MAX_COMMENT_BYTES + END_BYTES + ZIP64_LOCATOR_BYTES + ZIP64_END_BYTES;

function findEndRecord(tail: Fields): number | undefined {
  const last = tail.bytes.length - END_BYTES;
  // The comment is at most 64 KiB; the record is the one whose comment ends exactly at the end of the archive.
  for (let at = last; at >= 0 && at >= last - MAX_COMMENT_BYTES; at--) {
    if (tail.bytes[at] !== 0x50 || tail.u32(at) !== END_SIGNATURE) continue;
    if (tail.u16(at + 20) === last - at) return at;
  }
  return undefined;
}

/**
 * Parse the end records from `tail`, the last bytes of the archive (starting
 * at `tailOffset`). Multi-part archives are refused (an UnsupportedError), a
 * missing or inconsistent record is a CorruptDataError.
 */
export function parseEndRecords(tail: Uint8Array, tailOffset: number, place: ZipPlace): EndRecords {
  const fields = new Fields(tail);
  const at = findEndRecord(fields);
  if (at === undefined) {
    throw zipError(
      CorruptDataError,
      place,
      "no end of central directory record in its last bytes: not a zip archive, or truncated",
    );
  }
  const disk = fields.u16(at + 4);
  const directoryDisk = fields.u16(at + 6);
  const entriesHere = fields.u16(at + 8);
  let records: EndRecords = {
    entryCount: fields.u16(at + 10),
    directorySize: fields.u32(at + 12),
    directoryOffset: fields.u32(at + 16),
    comment: tail.slice(at + END_BYTES),
    recordsOffset: tailOffset + at,
  };
  const locatorAt = at - ZIP64_LOCATOR_BYTES;
  const hasLocator = locatorAt >= 0 && fields.u32(locatorAt) === ZIP64_LOCATOR_SIGNATURE;
  if (hasLocator) {
    records = zip64Records(fields, locatorAt, tailOffset, records.comment, place);
  } else {
    const multiPart =
      (disk !== 0 && disk !== U16_SENTINEL) ||
      (directoryDisk !== 0 && directoryDisk !== U16_SENTINEL) ||
      entriesHere !== records.entryCount;
    if (multiPart)
      throw multiPartError(place, `this part is disk ${disk}, the directory starts on disk ${directoryDisk}`);
    if (
      records.entryCount === U16_SENTINEL ||
      records.directorySize === U32_SENTINEL ||
      records.directoryOffset === U32_SENTINEL
    ) {
      throw zipError(
        CorruptDataError,
        place,
        "the end record points to ZIP64 records, but there is no ZIP64 locator before it",
      );
    }
  }
  if (records.directoryOffset + records.directorySize !== records.recordsOffset) {
    throw zipError(
      CorruptDataError,
      place,
      `the central directory (${records.directorySize} bytes at offset ${records.directoryOffset}) ` +
        `does not end where the end records start (offset ${records.recordsOffset})`,
    );
  }
  return records;
}

function multiPartError(place: ZipPlace, detail: string): UnsupportedError {
  return zipError(UnsupportedError, place, `multi-part (split or spanned) archives are not supported (${detail})`);
}

function zip64Records(
  fields: Fields,
  locatorAt: number,
  tailOffset: number,
  comment: Uint8Array,
  place: ZipPlace,
): EndRecords {
  const totalDisks = fields.u32(locatorAt + 16);
  if (fields.u32(locatorAt + 4) !== 0 || totalDisks > 1)
    throw multiPartError(place, `the ZIP64 locator counts ${totalDisks} disks`);
  const recordOffset = fields.u64(locatorAt + 8);
  const at = recordOffset === undefined ? -1 : recordOffset - tailOffset;
  if (at < 0 || at + ZIP64_END_BYTES > locatorAt || fields.u32(at) !== ZIP64_END_SIGNATURE) {
    throw zipError(
      CorruptDataError,
      place,
      `the ZIP64 locator points to offset ${recordOffset}, where there is no ZIP64 end record`,
    );
  }
  if (fields.u32(at + 16) !== 0 || fields.u32(at + 20) !== 0)
    throw multiPartError(place, `this part is disk ${fields.u32(at + 16)}`);
  const entriesHere = fields.u64(at + 24);
  const entryCount = fields.u64(at + 32);
  const directorySize = fields.u64(at + 40);
  const directoryOffset = fields.u64(at + 48);
  if (entryCount === undefined || directorySize === undefined || directoryOffset === undefined) {
    throw zipError(CorruptDataError, place, "the ZIP64 end record holds sizes beyond 2^53 bytes");
  }
  if (entriesHere !== entryCount)
    throw multiPartError(place, `${entriesHere} of ${entryCount} entries are on this disk`);
  return { entryCount, directorySize, directoryOffset, comment, recordsOffset: recordOffset! };
}
