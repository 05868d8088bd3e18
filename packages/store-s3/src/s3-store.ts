import {
  type ListDirResult,
  PreconditionFailedError,
  type RangeQuery,
  type RequestOptions,
  type SetOptions,
  type SizedValue,
  type Store,
  StoreError,
  checkStoreKey,
  type VersionedValue,
} from "@zarrkit/registry";
import { S3Client, type S3Request } from "./client.js";
import { listPages } from "./listing.js";
import { uploadMultipart } from "./multipart.js";
import { type S3Config, type S3StoreOptions, resolveConfig } from "./options.js";
import { checkContentRange, s3RangeHeader, sliceLocally } from "./ranges.js";

/**
 * A store over an S3 bucket (AWS or S3-compatible), over fetch: Node and
 * browsers. Key "a/zarr.json" is the object `<prefix>/a/zarr.json`.
 */
export class S3Store implements Store {
  readonly bucket: string;
  /** "" or the key prefix ending in "/". */
  readonly prefix: string;
  /** Ranges of one object less than this many bytes apart are cheaper to read as one GET (the `coalesceGapBytes` option). */
  readonly coalesceGapBytes: number;
  readonly #config: S3Config;
  readonly #client: S3Client;
  /**
   * radosgw matches If-Match only against the ETag without its quotes, which
   * AWS sends and accepts quoted. A conditional write that fails quoted is
   * tried once unquoted; when that succeeds, the store sends unquoted from then on.
   */
  #unquotedIfMatch = false;

  constructor(options: S3StoreOptions) {
    this.#config = resolveConfig(options);
    this.#client = new S3Client(this.#config);
    this.bucket = this.#config.bucket;
    this.prefix = this.#config.prefix;
    this.coalesceGapBytes = this.#config.coalesceGapBytes;
  }

  async get(key: string, options?: RequestOptions): Promise<Uint8Array | undefined> {
    const response = await this.#object("GET", key, options);
    return response && new Uint8Array(await response.arrayBuffer());
  }

  async getRange(key: string, range: RangeQuery, options?: RequestOptions): Promise<Uint8Array | undefined> {
    return (await this.getRangeWithSize(key, range, options))?.value;
  }

  /** A ranged GET that also reports the object's size (the Content-Range total). */
  async getRangeWithSize(key: string, range: RangeQuery, options?: RequestOptions): Promise<SizedValue | undefined> {
    const header = s3RangeHeader(key, range);
    // An empty range cannot be asked for; only whether the key exists is left to find out.
    if (header === undefined) {
      const size = await this.size(key, options);
      return size === undefined ? undefined : { value: new Uint8Array(0), size };
    }
    // 416: the range starts at or past the end (the key exists; a missing one is 404).
    const response = await this.#object("GET", key, options, { headers: { Range: header } }, [416]);
    if (!response) return undefined;
    if (response.status === 416) {
      await response.body?.cancel();
      return { value: new Uint8Array(0) };
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (response.status === 200) return { value: sliceLocally(bytes, range), size: bytes.byteLength };
    const size = checkContentRange(key, range, response.headers.get("content-range"), bytes.byteLength);
    return size === undefined ? { value: bytes } : { value: bytes, size };
  }

  async getVersioned(key: string, options?: RequestOptions): Promise<VersionedValue | undefined> {
    const response = await this.#object("GET", key, options);
    if (!response) return undefined;
    const value = new Uint8Array(await response.arrayBuffer());
    const version = response.headers.get("etag");
    if (!version) throw new StoreError(`S3 GET ${this.#location(key)} answered without an ETag.`, { key });
    return { value, version };
  }

  async size(key: string, options?: RequestOptions): Promise<number | undefined> {
    const response = await this.#object("HEAD", key, options);
    return response && Number(response.headers.get("content-length"));
  }

  /**
   * Replace the value: one PUT, or a multipart upload above `multipartThreshold`.
   * Conditional writes are always one PUT (S3 takes up to 5 GiB that way),
   * since not every S3 server checks conditions when completing a multipart upload.
   */
  async set(key: string, value: Uint8Array, options: SetOptions = {}): Promise<void> {
    checkStoreKey(key);
    const { ifMatch, ifNoneMatch, signal } = options;
    if (ifMatch === undefined && ifNoneMatch === undefined && value.byteLength > this.#config.multipartThreshold) {
      const { partSize, partConcurrency } = this.#config;
      const location = this.#location(key);
      await uploadMultipart({ client: this.#client, objectKey: this.prefix + key, key, location, value, partSize, partConcurrency, signal });
      return;
    }
    const headers: Record<string, string> = {};
    if (ifNoneMatch === "*") headers["If-None-Match"] = "*";
    if (ifMatch === undefined) {
      await this.#put(key, value, headers, signal);
      return;
    }
    const quoted = `"${unquote(ifMatch)}"`;
    try {
      await this.#put(key, value, { ...headers, "If-Match": this.#unquotedIfMatch ? unquote(ifMatch) : quoted }, signal);
    } catch (error) {
      if (this.#unquotedIfMatch || !(error instanceof PreconditionFailedError)) throw error;
      await this.#put(key, value, { ...headers, "If-Match": unquote(ifMatch) }, signal);
      this.#unquotedIfMatch = true;
    }
  }

  async delete(key: string, options?: RequestOptions): Promise<void> {
    const response = await this.#object("DELETE", key, options);
    await response?.body?.cancel();
  }

  async *list(prefix: string, options?: RequestOptions): AsyncIterable<string> {
    for await (const page of listPages(this.#client, this.bucket, this.prefix + prefix, undefined, options?.signal)) {
      for (const key of page.keys) yield key.slice(this.prefix.length);
    }
  }

  async listDir(prefix: string, options?: RequestOptions): Promise<ListDirResult> {
    const result: ListDirResult = { keys: [], prefixes: [] };
    for await (const page of listPages(this.#client, this.bucket, this.prefix + prefix, "/", options?.signal)) {
      for (const key of page.keys) result.keys.push(key.slice(this.prefix.length));
      for (const child of page.prefixes) result.prefixes.push(child.slice(this.prefix.length));
    }
    return result;
  }

  async #put(key: string, value: Uint8Array, headers: Record<string, string>, signal: AbortSignal | undefined): Promise<void> {
    const response = await this.#object("PUT", key, signal && { signal }, { headers, body: value });
    // AWS answers If-Match on a missing key with 404 NoSuchKey (radosgw with 412).
    if (!response) throw new PreconditionFailedError(`S3 PUT ${this.#location(key)} failed: the key does not exist (If-Match).`, { key });
    await response.body?.cancel();
  }

  async #object(
    method: S3Request["method"],
    key: string,
    options: RequestOptions | undefined,
    extra: Pick<S3Request, "headers" | "body"> = {},
    accept: readonly number[] = [],
  ): Promise<Response | undefined> {
    checkStoreKey(key);
    const signal = options?.signal;
    const request: S3Request = { method, url: this.#client.objectUrl(this.prefix + key), what: `${method} ${this.#location(key)}`, key, ...extra };
    if (signal) request.signal = signal;
    return this.#client.request(request, accept);
  }

  #location(key: string): string {
    return `s3://${this.bucket}/${this.prefix}${key}`;
  }
}

function unquote(etag: string): string {
  return etag.replace(/^"(.*)"$/, "$1");
}
