import {
  InvalidMetadataError,
  NotFoundError,
  PreconditionFailedError,
  type Store,
  StoreError,
} from "@zarrkit/registry";
import { crc32 } from "./crc32.js";
import { archiveOrder } from "./entry-order.js";
import { omeComment } from "./ome-comment.js";
import {
  CENTRAL_HEADER_BYTES,
  CENTRAL_HEADER_SIGNATURE,
  END_BYTES,
  END_SIGNATURE,
  FLAG_UTF8,
  LOCAL_HEADER_BYTES,
  LOCAL_HEADER_SIGNATURE,
  MAX_COMMENT_BYTES,
  METHOD_STORED,
  RecordWriter,
  U16_SENTINEL,
  U32_SENTINEL,
  ZIP64_END_BYTES,
  ZIP64_END_SIGNATURE,
  ZIP64_EXTRA_ID,
  ZIP64_LOCATOR_BYTES,
  ZIP64_LOCATOR_SIGNATURE,
} from "./zip-records.js";

/** Options of {@link zipChunks}, `writeZip` and {@link zipBlob}. */
export interface ZipWriteOptions {
  /**
   * The RFC-9 archive comment: an OME-Zarr version ("0.5"), `true` to take it
   * from the root `zarr.json` (`attributes.ome.version`, an error when it has
   * none), `false` for no comment. Default: the root's OME-Zarr version when
   * it has one, else no comment.
   */
  ome?: string | boolean;
  /** Refuse a source without a root `zarr.json` (an InvalidMetadataError). Default: true when `ome` is given. */
  requireZarrRoot?: boolean;
  /** Values larger than this are read in windows this large (twice: for the CRC-32, then the data). Default 16 MiB. */
  windowBytes?: number;
  /** Stops the writing (between values and windows) with the signal's reason. */
  signal?: AbortSignal;
}

// ZIP64 everywhere (RFC-9): "version needed to extract" 4.5; made by Unix (3), so the external attributes are modes.
const VERSION_NEEDED = 45;
const VERSION_MADE_BY = (3 << 8) | VERSION_NEEDED;
const FILE_MODE = 0o100644;
// 1980-01-01 00:00, DOS's first day: the archive's bytes depend on the hierarchy only.
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const DOS_TIME = 0;

interface WrittenEntry {
  name: Uint8Array;
  crc: number;
  size: number;
  offset: number;
}

/**
 * The archive of every key of `source` (which must be listable), as
 * consecutive byte chunks: RFC-9's recommended variant (STORED, ZIP64,
 * metadata first and breadth first, the OME comment). Memory holds one value
 * (or one window of a large one) and the directory records.
 */
export async function* zipChunks(source: Store, options: ZipWriteOptions = {}): AsyncGenerator<Uint8Array> {
  if (typeof source.list !== "function")
    throw new StoreError("Writing a zip archive needs a source store that can list its keys");
  const windowBytes = options.windowBytes ?? 16 * 1024 * 1024;
  const keys: string[] = [];
  for await (const key of source.list("", signalOf(options))) keys.push(key);
  const comment = await archiveComment(source, keys, options);
  const written: WrittenEntry[] = [];
  let offset = 0;
  for (const key of archiveOrder(keys)) {
    options.signal?.throwIfAborted();
    const name = new TextEncoder().encode(key);
    if (name.length > U16_SENTINEL) {
      throw new StoreError(`${key.slice(0, 60)}...: a zip entry name has at most 65535 bytes`, { key });
    }
    const value = await readValue(source, key, windowBytes, options.signal);
    const header = localHeader(name, value.crc, value.size);
    written.push({ name, crc: value.crc, size: value.size, offset });
    yield header;
    for await (const chunk of value.chunks()) yield chunk;
    offset += header.length + value.size;
  }
  const directoryOffset = offset;
  let directorySize = 0;
  for (const entry of written) {
    const record = centralRecord(entry);
    directorySize += record.length;
    yield record;
  }
  yield endRecords(written.length, directoryOffset, directorySize, comment);
}

/** The archive as a Blob (browsers: a download, or an IndexedDB value); the parts are held until it is built. */
export async function zipBlob(source: Store, options: ZipWriteOptions = {}): Promise<Blob> {
  const parts: Uint8Array[] = [];
  for await (const chunk of zipChunks(source, options)) parts.push(chunk);
  return new Blob(parts as BlobPart[], { type: "application/zip" });
}

function signalOf(options: ZipWriteOptions): { signal?: AbortSignal } {
  return options.signal ? { signal: options.signal } : {};
}

async function archiveComment(source: Store, keys: readonly string[], options: ZipWriteOptions): Promise<Uint8Array> {
  const requireRoot = options.requireZarrRoot ?? (options.ome !== undefined && options.ome !== false);
  if (!keys.includes("zarr.json")) {
    if (requireRoot)
      throw new InvalidMetadataError(
        "The hierarchy to archive has no root zarr.json: its root is not a Zarr v3 hierarchy",
        { key: "zarr.json" },
      );
    if (options.ome === true)
      throw new InvalidMetadataError("ome: true takes the OME-Zarr version from the root zarr.json, which is missing", {
        key: "zarr.json",
      });
    return typeof options.ome === "string" ? checkedComment(options.ome) : new Uint8Array(0);
  }
  if (options.ome === false) return new Uint8Array(0);
  if (typeof options.ome === "string") return checkedComment(options.ome);
  const root = await source.get("zarr.json", signalOf(options));
  let version: unknown;
  try {
    version = (JSON.parse(new TextDecoder().decode(root)) as { attributes?: { ome?: { version?: unknown } } })
      .attributes?.ome?.version;
  } catch (cause) {
    throw new InvalidMetadataError("The root zarr.json is not JSON", { key: "zarr.json", cause });
  }
  if (typeof version === "string") return checkedComment(version);
  if (options.ome === true) {
    throw new InvalidMetadataError("The root zarr.json has no attributes.ome.version for the RFC-9 comment", {
      key: "zarr.json",
      field: "attributes.ome.version",
    });
  }
  return new Uint8Array(0);
}

function checkedComment(version: string): Uint8Array {
  const comment = omeComment(version);
  if (comment.length > MAX_COMMENT_BYTES)
    throw new StoreError(
      `The OME-Zarr version ${JSON.stringify(version.slice(0, 40))}... makes a comment longer than 64 KiB`,
      { field: "ome" },
    );
  return comment;
}

interface ReadValue {
  crc: number;
  size: number;
  chunks(): AsyncIterable<Uint8Array>;
}

/** A value's CRC-32 and size, and its bytes: whole when small, else in windows read twice at one version. */
async function readValue(source: Store, key: string, windowBytes: number, signal?: AbortSignal): Promise<ReadValue> {
  const size = (await source.size?.(key, signal ? { signal } : {})) ?? undefined;
  if (size === undefined || size <= windowBytes || typeof source.getRangeWithSize !== "function") {
    const value = await source.get(key, signal ? { signal } : {});
    if (!value) throw new NotFoundError(`${key} disappeared while the archive was written`, { key });
    return {
      crc: crc32(value),
      size: value.length,
      chunks: async function* () {
        yield value;
      },
    };
  }
  let version: string | undefined;
  const windows = async function* () {
    for (let at = 0; at < size; at += windowBytes) {
      const options = { ...(version !== undefined && { ifMatch: version }), ...(signal && { signal }) };
      const read = await source.getRangeWithSize!(
        key,
        { offset: at, length: Math.min(windowBytes, size - at) },
        options,
      );
      if (!read || read.value.length !== Math.min(windowBytes, size - at)) {
        throw new PreconditionFailedError(`${key} changed while the archive was written`, { key });
      }
      version ??= read.version;
      yield read.value;
    }
  };
  let crc = 0;
  for await (const window of windows()) crc = crc32(window, crc);
  return { crc, size, chunks: windows };
}

function localHeader(name: Uint8Array, crc: number, size: number): Uint8Array {
  const extraBytes = 20;
  return new RecordWriter(LOCAL_HEADER_BYTES + name.length + extraBytes)
    .u32(0, LOCAL_HEADER_SIGNATURE)
    .u16(4, VERSION_NEEDED)
    .u16(6, FLAG_UTF8)
    .u16(8, METHOD_STORED)
    .u16(10, DOS_TIME)
    .u16(12, DOS_DATE)
    .u32(14, crc)
    .u32(18, U32_SENTINEL)
    .u32(22, U32_SENTINEL)
    .u16(26, name.length)
    .u16(28, extraBytes)
    .set(LOCAL_HEADER_BYTES, name)
    .u16(LOCAL_HEADER_BYTES + name.length, ZIP64_EXTRA_ID)
    .u16(LOCAL_HEADER_BYTES + name.length + 2, 16)
    .u64(LOCAL_HEADER_BYTES + name.length + 4, size)
    .u64(LOCAL_HEADER_BYTES + name.length + 12, size).bytes;
}

function centralRecord(entry: WrittenEntry): Uint8Array {
  const extraBytes = 28;
  const at = CENTRAL_HEADER_BYTES + entry.name.length;
  return new RecordWriter(at + extraBytes)
    .u32(0, CENTRAL_HEADER_SIGNATURE)
    .u16(4, VERSION_MADE_BY)
    .u16(6, VERSION_NEEDED)
    .u16(8, FLAG_UTF8)
    .u16(10, METHOD_STORED)
    .u16(12, DOS_TIME)
    .u16(14, DOS_DATE)
    .u32(16, entry.crc)
    .u32(20, U32_SENTINEL)
    .u32(24, U32_SENTINEL)
    .u16(28, entry.name.length)
    .u16(30, extraBytes)
    .u32(38, (FILE_MODE << 16) >>> 0)
    .u32(42, U32_SENTINEL)
    .set(CENTRAL_HEADER_BYTES, entry.name)
    .u16(at, ZIP64_EXTRA_ID)
    .u16(at + 2, 24)
    .u64(at + 4, entry.size)
    .u64(at + 12, entry.size)
    .u64(at + 20, entry.offset).bytes;
}

function endRecords(count: number, directoryOffset: number, directorySize: number, comment: Uint8Array): Uint8Array {
  const zip64At = directoryOffset + directorySize;
  return new RecordWriter(ZIP64_END_BYTES + ZIP64_LOCATOR_BYTES + END_BYTES + comment.length)
    .u32(0, ZIP64_END_SIGNATURE)
    .u64(4, ZIP64_END_BYTES - 12)
    .u16(12, VERSION_MADE_BY)
    .u16(14, VERSION_NEEDED)
    .u64(24, count)
    .u64(32, count)
    .u64(40, directorySize)
    .u64(48, directoryOffset)
    .u32(ZIP64_END_BYTES, ZIP64_LOCATOR_SIGNATURE)
    .u64(ZIP64_END_BYTES + 8, zip64At)
    .u32(ZIP64_END_BYTES + 16, 1)
    .u32(ZIP64_END_BYTES + ZIP64_LOCATOR_BYTES, END_SIGNATURE)
    .u16(ZIP64_END_BYTES + ZIP64_LOCATOR_BYTES + 8, U16_SENTINEL)
    .u16(ZIP64_END_BYTES + ZIP64_LOCATOR_BYTES + 10, U16_SENTINEL)
    .u32(ZIP64_END_BYTES + ZIP64_LOCATOR_BYTES + 12, U32_SENTINEL)
    .u32(ZIP64_END_BYTES + ZIP64_LOCATOR_BYTES + 16, U32_SENTINEL)
    .u16(ZIP64_END_BYTES + ZIP64_LOCATOR_BYTES + 20, comment.length)
    .set(ZIP64_END_BYTES + ZIP64_LOCATOR_BYTES + END_BYTES, comment).bytes;
}
