/**
 * The decompressors of Parquet record files: hyparquet's own snappy (pyarrow's
 * default), zstd (fzstd; what fsspec's LazyReferenceMapper writes) and gzip
 * (fflate), plus any the caller adds. Each refuses a page that claims to
 * decode to more than the cap before allocating it: a page header is input
 * like any other and could claim gigabytes.
 */
import { CorruptDataError } from "@zarrkit/registry";
import { gunzipSync } from "fflate";
import { decompress as decompressZstd } from "fzstd";
import { type Compressors, snappyUncompress } from "hyparquet";

type Codec = keyof Compressors;

const BUILT_IN: Compressors = {
  SNAPPY: (input, length) => {
    const output = new Uint8Array(length);
    snappyUncompress(input, output);
    return output;
  },
  ZSTD: (input, length) => decompressZstd(input, new Uint8Array(length)),
  GZIP: (input, length) => gunzipSync(input, { out: new Uint8Array(length) }),
};

/** The built-in decompressors and `extra` (which win), each capped at `maxPageBytes` decoded bytes a page of `key`. */
export function cappedCompressors(extra: Compressors, maxPageBytes: number, key: string): Compressors {
  const all: Compressors = { ...BUILT_IN, ...extra };
  const capped: Compressors = {};
  for (const [codec, decompress] of Object.entries(all) as [Codec, NonNullable<Compressors[Codec]>][]) {
    capped[codec] = (input, length) => {
      if (length > maxPageBytes) {
        throw new CorruptDataError(
          `Parquet record file ${JSON.stringify(key)}: a ${codec} page claims ${length} decoded bytes, ` +
            `over the cap of ${maxPageBytes}`,
          {
            key,
          },
        );
      }
      return decompress(input, length);
    };
  }
  return capped;
}
