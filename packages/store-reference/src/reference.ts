import type { ListDirResult, RequestOptions, WindowQuery } from "@zarrkit/registry";

/** Where the bytes of one key are: inline in the reference file, or a target file (whole, or a window of it). */
export type Reference =
  | {
      /** The bytes are in the reference file. */
      kind: "inline";
      /** The value. */
      bytes: Uint8Array;
    }
  | {
      /** The bytes are in a target file. */
      kind: "target";
      /** The target's URL as the reference file gives it, templates rendered: absolute, or relative to the file. */
      url: string;
      /** The window of the target (`length` bytes from `offset`); absent: the whole target. */
      window?: WindowQuery;
      /** Where in the reference file this reference was found, for error messages (e.g. `refs["a/0.0"]`). */
      field: string;
    };

/** The keys of a reference file and what each one refers to; the store reads through it. */
export interface ReferenceTable {
  /** The reference of `key`, or undefined when there is none. Malformed entries throw typed errors naming the key. */
  lookup(key: string, options?: RequestOptions): Promise<Reference | undefined>;
  /** Every key starting with `prefix`, lazily (a table may describe more keys than fit in memory). */
  keys(prefix: string, options?: RequestOptions): AsyncIterable<string>;
  /** One level of listing below `prefix`, where the table can answer it without walking every key below. */
  listDir?(prefix: string, options?: RequestOptions): Promise<ListDirResult>;
}
