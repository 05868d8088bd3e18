import {
  checkRange,
  type RangeQuery,
  type RequestOptions,
  rangeBounds,
  type SizedValue,
  type Store,
} from "@zarrkit/registry";

/**
 * A read-only store of one value, a `Blob` (a browser `File` from a file
 * picker or a drop), under the key `name`: ranged reads are `Blob.slice`s, so
 * a {@link ZipStore} over it reads an archive of any size lazily. A Blob never
 * changes, so it reports no versions.
 */
export class BlobStore implements Store {
  /** The Blob read. */
  readonly blob: Blob;
  /** The one key the Blob is found under (default: a File's name, else "archive.zip"). */
  readonly name: string;

  constructor(blob: Blob, name: string = (blob as { name?: string }).name || "archive.zip") {
    this.blob = blob;
    this.name = name;
  }

  async get(key: string, options: RequestOptions = {}): Promise<Uint8Array | undefined> {
    return (await this.getRangeWithSize(key, { offset: 0, length: this.blob.size }, options))?.value;
  }

  async getRange(key: string, range: RangeQuery, options: RequestOptions = {}): Promise<Uint8Array | undefined> {
    return (await this.getRangeWithSize(key, range, options))?.value;
  }

  async getRangeWithSize(
    key: string,
    range: RangeQuery,
    options: RequestOptions = {},
  ): Promise<SizedValue | undefined> {
    checkRange(key, range);
    options.signal?.throwIfAborted();
    if (key !== this.name) return undefined;
    const [start, end] = rangeBounds(range, this.blob.size);
    const value = new Uint8Array(await this.blob.slice(start, end).arrayBuffer());
    return { value, size: this.blob.size };
  }

  async size(key: string): Promise<number | undefined> {
    return key === this.name ? this.blob.size : undefined;
  }
}
