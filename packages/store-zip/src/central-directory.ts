import { CorruptDataError, StoreError, UnsupportedError } from "@zarrkit/registry";
import { decodeEntryName, entryNameProblem } from "./entry-name.js";
import {
  CENTRAL_HEADER_BYTES,
  CENTRAL_HEADER_SIGNATURE,
  FLAG_ENCRYPTED,
  FLAG_STRONG_ENCRYPTION,
  Fields,
  LOCAL_HEADER_BYTES,
  METHOD_DEFLATED,
  METHOD_STORED,
  U16_SENTINEL,
  U32_SENTINEL,
  ZIP64_EXTRA_ID,
} from "./zip-records.js";
import { type ZipPlace, zipError } from "./zip-errors.js";

/** One file of the archive, as the central directory describes it. */
export interface ZipEntry {
  name: string;
  /** Position in the central directory. */
  index: number;
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  size: number;
  /** Offset of the entry's local header. */
  headerOffset: number;
  /** The raw name, which the local header must repeat. */
  rawName: Uint8Array;
  /** "Version needed to extract": 45 (4.5) or more for ZIP64 entries. */
  versionNeeded: number;
}

// Deflate cannot expand data more than 1032:1 (a 258-byte match in 2 bits).
const MAX_DEFLATE_RATIO = 1032;

/**
 * Parse `count` central directory records from `bytes` (the whole directory)
 * into entries by name, directories left out. Refused: encrypted entries and
 * entries on other disks (UnsupportedError), names escaping the root or that
 * are no plain keys, duplicate names (StoreError), sizes that cannot be true
 * (CorruptDataError): data past the central directory (`dataEnd`), a STORED
 * entry whose sizes differ, a DEFLATE entry inflating beyond 1032:1.
 */
export function parseCentralDirectory(
  bytes: Uint8Array,
  count: number,
  dataEnd: number,
  place: ZipPlace,
): Map<string, ZipEntry> {
  const fields = new Fields(bytes);
  const entries = new Map<string, ZipEntry>();
  let at = 0;
  for (let index = 0; index < count; index++) {
    if (at + CENTRAL_HEADER_BYTES > bytes.length || fields.u32(at) !== CENTRAL_HEADER_SIGNATURE) {
      throw zipError(
        CorruptDataError,
        place,
        `central directory record ${index} of ${count} is missing or truncated (at byte ${at} of ${bytes.length})`,
      );
    }
    const nameLength = fields.u16(at + 28);
    const extraLength = fields.u16(at + 30);
    const commentLength = fields.u16(at + 32);
    const end = at + CENTRAL_HEADER_BYTES + nameLength + extraLength + commentLength;
    if (end > bytes.length)
      throw zipError(CorruptDataError, place, `central directory record ${index} runs past the directory`);
    const rawName = bytes.slice(at + CENTRAL_HEADER_BYTES, at + CENTRAL_HEADER_BYTES + nameLength);
    const flags = fields.u16(at + 8);
    const name = decodeEntryName(rawName, flags, place);
    const entryPlace = { ...place, entry: name };
    const extra = new Fields(
      bytes.subarray(at + CENTRAL_HEADER_BYTES + nameLength, at + CENTRAL_HEADER_BYTES + nameLength + extraLength),
    );
    const sizes = zip64Sizes(fields, at, extra, entryPlace);
    const method = fields.u16(at + 10);
    const versionNeeded = fields.u16(at + 6) & 0xff;
    at = end;
    if (flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION))
      throw zipError(UnsupportedError, entryPlace, "encrypted entries are not supported");
    if (sizes.disk !== 0)
      throw zipError(
        UnsupportedError,
        entryPlace,
        `multi-part archives are not supported (the entry starts on disk ${sizes.disk})`,
      );
    const problem = entryNameProblem(name);
    if (problem) throw zipError(StoreError, entryPlace, `the entry name cannot be a key: ${problem}`);
    if (name.endsWith("/")) continue;
    if (entries.has(name)) throw zipError(StoreError, entryPlace, "the archive holds two entries of this name");
    const entry: ZipEntry = { name, index, method, flags, ...sizes, rawName, versionNeeded };
    entries.set(name, checkSizes(entry, dataEnd, entryPlace));
  }
  if (at !== bytes.length) {
    throw zipError(
      CorruptDataError,
      place,
      `the central directory holds ${bytes.length - at} bytes after its ${count} records`,
    );
  }
  return entries;
}

function checkSizes(entry: ZipEntry, dataEnd: number, place: ZipPlace): ZipEntry {
  const minimalEnd = entry.headerOffset + LOCAL_HEADER_BYTES + entry.rawName.length + entry.compressedSize;
  if (minimalEnd > dataEnd) {
    throw zipError(
      CorruptDataError,
      place,
      `its ${entry.compressedSize} bytes at offset ${entry.headerOffset} run past the central directory ` +
        `(offset ${dataEnd})`,
    );
  }
  if (entry.method === METHOD_STORED && entry.compressedSize !== entry.size) {
    throw zipError(
      CorruptDataError,
      place,
      `a STORED entry of ${entry.compressedSize} stored bytes cannot hold ${entry.size} bytes`,
    );
  }
  if (entry.method === METHOD_DEFLATED && entry.size > entry.compressedSize * MAX_DEFLATE_RATIO + 64) {
    throw zipError(
      CorruptDataError,
      place,
      `${entry.compressedSize} bytes of deflate data cannot inflate to the declared ${entry.size} bytes`,
    );
  }
  return entry;
}

interface EntrySizes {
  compressedSize: number;
  size: number;
  headerOffset: number;
  disk: number;
}

/** The sizes, offset and disk of the record at `at`, from the ZIP64 extra field for sentinels. */
function zip64Sizes(record: Fields, at: number, extra: Fields, place: ZipPlace): EntrySizes & { crc32: number } {
  const sizes: EntrySizes = {
    size: record.u32(at + 24),
    compressedSize: record.u32(at + 20),
    headerOffset: record.u32(at + 42),
    disk: record.u16(at + 34),
  };
  const wanted: (keyof EntrySizes)[] = [];
  if (sizes.size === U32_SENTINEL) wanted.push("size");
  if (sizes.compressedSize === U32_SENTINEL) wanted.push("compressedSize");
  if (sizes.headerOffset === U32_SENTINEL) wanted.push("headerOffset");
  if (sizes.disk === U16_SENTINEL) wanted.push("disk");
  const result = { ...sizes, crc32: record.u32(at + 16) };
  if (wanted.length === 0) return result;
  const data = findExtra(extra, ZIP64_EXTRA_ID);
  let offset = 0;
  for (const field of wanted) {
    const width = field === "disk" ? 4 : 8;
    const value =
      data === undefined || offset + width > data.bytes.length
        ? undefined
        : field === "disk"
          ? data.u32(offset)
          : data.u64(offset);
    if (value === undefined)
      throw zipError(CorruptDataError, place, `its ZIP64 extra field lacks the ${field} its record defers to it`);
    result[field] = value;
    offset += width;
  }
  return result;
}

/** The data of the extra field with header ID `id`, or undefined. */
export function findExtra(extra: Fields, id: number): Fields | undefined {
  for (let at = 0; at + 4 <= extra.bytes.length; ) {
    const size = extra.u16(at + 2);
    if (extra.u16(at) === id)
      return at + 4 + size <= extra.bytes.length ? new Fields(extra.bytes.subarray(at + 4, at + 4 + size)) : undefined;
    at += 4 + size;
  }
  return undefined;
}
