/**
 * One record file of the Parquet reference layout (`<var>/refs.<n>.parq`):
 * the columns path, offset, size and raw, one row per chunk, read with
 * hyparquet (snappy, zstd and gzip built in; other codecs through
 * `compressors`, see parquet-compressors.ts). Rows are kept columnar: a record of 100 000 chunks is four
 * arrays, not 100 000 objects.
 */
import { CorruptDataError, UnsupportedError, ZarrkitError } from "@zarrkit/registry";
import type { Compressors } from "hyparquet";

/** The columns of one record file. */
export interface RecordColumns {
  rows: number;
  path: readonly (string | null | undefined)[];
  offset: ArrayLike<number | bigint | null | undefined>;
  size: ArrayLike<number | bigint | null | undefined>;
  raw: readonly (Uint8Array | string | null | undefined)[];
}

const COLUMNS = ["path", "offset", "size", "raw"] as const;

/** Parse `bytes` (the record file `key`), no page decoding to more than `maxPageBytes`. */
export async function readRecordColumns(
  bytes: Uint8Array,
  key: string,
  compressors: Compressors,
  maxPageBytes: number,
): Promise<RecordColumns> {
  const buffer =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer;
  const columns: Record<string, unknown[]> = {};
  let rows = 0;
  // Loaded on first use: JSON references (and bundles that never read Parquet) do without the reader and decompressors.
  const [{ parquetRead }, { cappedCompressors }] = await Promise.all([
    import("hyparquet"),
    import("./parquet-compressors.js"),
  ]);
  try {
    await parquetRead({
      file: buffer as ArrayBuffer,
      utf8: false,
      compressors: cappedCompressors(compressors, maxPageBytes, key),
      onChunk: ({ columnName, columnData, rowStart, rowEnd }) => {
        if (!(COLUMNS as readonly string[]).includes(columnName)) return;
        const column = (columns[columnName] ??= []);
        for (let i = 0; i < rowEnd - rowStart; i++) column[rowStart + i] = columnData[i];
        rows = Math.max(rows, rowEnd);
      },
    });
  } catch (error) {
    if (error instanceof ZarrkitError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (/compression|codec/i.test(message)) {
      throw new UnsupportedError(
        `Parquet record file ${JSON.stringify(key)}: ${message} (pass its decompressor in the compressors option)`,
        {
          key,
          cause: error,
        },
      );
    }
    throw new CorruptDataError(`Parquet record file ${JSON.stringify(key)} cannot be read: ${message}`, {
      key,
      cause: error,
    });
  }
  if (!columns.path && !columns.raw) {
    throw new CorruptDataError(`Parquet record file ${JSON.stringify(key)} has neither a "path" nor a "raw" column`, {
      key,
    });
  }
  const empty = new Array<undefined>(rows);
  return {
    rows,
    path: (columns.path as RecordColumns["path"]) ?? empty,
    offset: (columns.offset as RecordColumns["offset"]) ?? empty,
    size: (columns.size as RecordColumns["size"]) ?? empty,
    raw: (columns.raw as RecordColumns["raw"]) ?? empty,
  };
}
