import {
  isWellFormed,
  type ListDirResult,
  PreconditionFailedError,
  type RangeQuery,
  type ReadOptions,
  type RequestOptions,
  type SetOptions,
  type SizedValue,
  type Store,
  StoreError,
  storeKeyProblem,
  type VersionedValue,
} from "@zarrkit/registry";
import { S3Client, type S3Reply, type S3Request } from "./client.js";
import {
  type BodyLimit,
  bodyLength,
  checkIfMatch,
  confirmVersion,
  isWeak,
  strongEtag,
  unquoteEtag,
  wholeValueProblem,
  withVersion,
} from "@zarrkit/http";
import { listPages } from "./listing.js";
import { uploadMultipart } from "./multipart.js";
import { type S3Config, type S3StoreOptions, resolveConfig } from "./options.js";
import { checkContentRange, s3RangeHeader, sliceLocally } from "./ranges.js";

/**
 * A store over an S3 bucket (AWS or S3-compatible), over fetch: Node and
 * browsers. Key "a/zarr.json" is the object `<prefix>/a/zarr.json`.
 */
export class S3Store implements Store {
  /** The bucket the store reads and writes. */
  readonly bucket: string;
  /** "" or the key prefix ending in "/". */
  readonly prefix: string;
  /**
   * Ranges of one object at most this many bytes apart are cheaper to read as one GET (the `coalesceGapBytes`
   * option).
   */
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
    return (await this.#whole(key, options))?.body;
  }

  /**
   * A GET of the whole object: only a complete value (a 206 with part of it, or bytes short of the announced size, are
   * a StoreError).
   */
  async #whole(key: string, options: RequestOptions | undefined): Promise<S3Reply | undefined> {
    const reply = await this.#object("GET", key, options, { limit: this.#wholeLimit() });
    if (!reply) return undefined;
    const problem = wholeValueProblem(reply.status, reply.headers, reply.body.byteLength);
    if (problem)
      throw new StoreError(this.#client.redact(`S3 GET ${this.#location(key)} answered with ${problem}; refused.`), {
        key,
      });
    return reply;
  }

  async getRange(key: string, range: RangeQuery, options?: ReadOptions): Promise<Uint8Array | undefined> {
    return (await this.getRangeWithSize(key, range, options))?.value;
  }

  /**
   * A ranged GET that also reports the object's size (the Content-Range
   * total) and version (its ETag, as `getVersioned` reports it). With
   * `ifMatch` the GET carries `If-Match`, and the answer must come from that
   * version: a 412, another ETag, no ETag or a deleted key are a
   * `PreconditionFailedError` naming the key.
   */
  async getRangeWithSize(key: string, range: RangeQuery, options?: ReadOptions): Promise<SizedValue | undefined> {
    const header = s3RangeHeader(key, range);
    const ifMatch = checkIfMatch(key, options?.ifMatch, "read");
    // An empty range cannot be asked for; only whether the key exists is left to find out.
    if (header === undefined) {
      const head = await this.#head(key, options, ifMatch);
      return head && withVersion({ value: new Uint8Array(0), size: head.size }, head.version);
    }
    const headers: Record<string, string> = { Range: header };
    if (ifMatch !== undefined) headers["If-Match"] = ifMatch;
    // 416: the range starts at or past the end (the key exists; a missing one is 404).
    const reply = await this.#object("GET", key, options, { headers, limit: this.#rangeLimit(range) }, [416]);
    if (!reply) return this.#gone(key, ifMatch);
    if (reply.status === 416) {
      // radosgw sends no ETag with a 416: then a HEAD with If-Match says which version it was (and the size).
      if (ifMatch !== undefined && strongEtag(reply.headers) === undefined) {
        const head = await this.#head(key, options, ifMatch);
        return head && withVersion({ value: new Uint8Array(0), size: head.size }, head.version);
      }
      return withVersion({ value: new Uint8Array(0) }, this.#confirmVersion(key, reply, ifMatch));
    }
    const version = this.#confirmVersion(key, reply, ifMatch);
    const bytes = reply.body;
    if (reply.status === 200) {
      // The whole object: for a suffix only its end was kept, for a window its start up to the window's end.
      if (reply.tail) return withVersion({ value: bytes, size: reply.total }, version);
      const size = reply.complete ? bytes.byteLength : bodyLength(reply.headers);
      return withVersion(
        size === undefined ? { value: sliceLocally(bytes, range) } : { value: sliceLocally(bytes, range), size },
        version,
      );
    }
    const size = checkContentRange(key, range, reply.headers.get("content-range"), bytes.byteLength);
    return withVersion(size === undefined ? { value: bytes } : { value: bytes, size }, version);
  }

  /**
   * The value and its ETag as the version. A `StoreError` when the answer has
   * no ETag or only a weak one (`W/"..."`, which S3 never sends but a proxy
   * may): a weak ETag does not promise identical bytes, so it is no version.
   */
  async getVersioned(key: string, options?: RequestOptions): Promise<VersionedValue | undefined> {
    const reply = await this.#whole(key, options);
    if (!reply) return undefined;
    const version = strongEtag(reply.headers);
    if (!version) {
      const etag = reply.headers.get("etag");
      const what =
        etag && isWeak(etag) ? "only a weak ETag, which does not promise identical bytes" : "without an ETag";
      throw new StoreError(`S3 GET ${this.#location(key)} answered ${what}.`, { key });
    }
    return { value: reply.body, version };
  }

  async size(key: string, options?: RequestOptions): Promise<number | undefined> {
    return (await this.#head(key, options, undefined))?.size;
  }

  /** HEAD: the object's size and version, checked against `ifMatch` when given. */
  async #head(
    key: string,
    options: RequestOptions | undefined,
    ifMatch: string | undefined,
  ): Promise<{ size: number; version?: string } | undefined> {
    const headers: Record<string, string> = ifMatch === undefined ? {} : { "If-Match": ifMatch };
    const reply = await this.#object("HEAD", key, options, { headers });
    if (!reply) return this.#gone(key, ifMatch);
    const version = this.#confirmVersion(key, reply, ifMatch);
    const length = reply.headers.get("content-length")?.trim();
    if (length === undefined || !/^\d{1,16}$/.test(length)) {
      throw new StoreError(`S3 HEAD ${this.#location(key)} answered without a valid Content-Length.`, { key });
    }
    return withVersion({ size: Number(length) }, version);
  }

  /**
   * Replace the value: one PUT, or a multipart upload above `multipartThreshold`.
   * Conditional writes are always one PUT (S3 takes up to 5 GiB that way),
   * since not every S3 server checks conditions when completing a multipart upload.
   */
  async set(key: string, value: Uint8Array, options: SetOptions = {}): Promise<void> {
    checkKey(key);
    const { ifNoneMatch, signal } = options;
    const ifMatch = checkIfMatch(key, options.ifMatch, "write");
    if (ifNoneMatch !== undefined && ifNoneMatch !== "*")
      throw new StoreError(`ifNoneMatch for ${JSON.stringify(key)} must be "*".`, { key });
    if (ifMatch === undefined && ifNoneMatch === undefined && value.byteLength > this.#config.multipartThreshold) {
      const { partSize, partConcurrency } = this.#config;
      const location = this.#location(key);
      await uploadMultipart({
        client: this.#client,
        objectKey: this.prefix + key,
        key,
        location,
        value,
        partSize,
        partConcurrency,
        signal,
      });
      return;
    }
    const headers: Record<string, string> = {};
    if (ifNoneMatch === "*") headers["If-None-Match"] = "*";
    if (ifMatch === undefined) {
      await this.#put(key, value, headers, signal);
      return;
    }
    const quoted = `"${unquoteEtag(ifMatch)}"`;
    try {
      await this.#put(
        key,
        value,
        { ...headers, "If-Match": this.#unquotedIfMatch ? unquoteEtag(ifMatch) : quoted },
        signal,
      );
    } catch (error) {
      if (this.#unquotedIfMatch || !(error instanceof PreconditionFailedError)) throw error;
      await this.#put(key, value, { ...headers, "If-Match": unquoteEtag(ifMatch) }, signal);
      this.#unquotedIfMatch = true;
    }
  }

  async delete(key: string, options?: RequestOptions): Promise<void> {
    await this.#object("DELETE", key, options);
  }

  async *list(prefix: string, options?: RequestOptions): AsyncIterable<string> {
    checkPrefix(prefix);
    for await (const page of listPages(
      this.#client,
      this.bucket,
      this.prefix + prefix,
      undefined,
      options?.signal,
      this.#config.maxListPages,
    )) {
      for (const key of page.keys) yield key.slice(this.prefix.length);
    }
  }

  async listDir(prefix: string, options?: RequestOptions): Promise<ListDirResult> {
    checkPrefix(prefix);
    const result: ListDirResult = { keys: [], prefixes: [] };
    for await (const page of listPages(
      this.#client,
      this.bucket,
      this.prefix + prefix,
      "/",
      options?.signal,
      this.#config.maxListPages,
    )) {
      for (const key of page.keys) result.keys.push(key.slice(this.prefix.length));
      for (const child of page.prefixes) result.prefixes.push(child.slice(this.prefix.length));
    }
    return result;
  }

  async #put(
    key: string,
    value: Uint8Array,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const reply = await this.#object("PUT", key, signal && { signal }, { headers, body: value });
    // AWS answers If-Match on a missing key with 404 NoSuchKey (radosgw with 412).
    if (!reply)
      throw new PreconditionFailedError(`S3 PUT ${this.#location(key)} failed: the key does not exist (If-Match).`, {
        key,
      });
  }

  /** The reply's version (strong ETag), which must be `ifMatch` when given (compared without quotes). */
  #confirmVersion(key: string, reply: S3Reply, ifMatch: string | undefined): string | undefined {
    return confirmVersion(reply.headers, ifMatch, key, (got) =>
      this.#client.redact(
        `S3 read of ${this.#location(key)} answered with ${got}, not the version ${ifMatch} asked for with ` +
          `If-Match: the object was replaced.`,
      ),
    );
  }

  /** A missing key: undefined, or a PreconditionFailedError when a version of it was asked for. */
  #gone(key: string, ifMatch: string | undefined): undefined {
    if (ifMatch === undefined) return undefined;
    throw new PreconditionFailedError(
      `S3 read of ${this.#location(key)}: the object no longer exists, so it does not have the version ${ifMatch} ` +
        `asked for with If-Match.`,
      {
        key,
      },
    );
  }

  #wholeLimit(): BodyLimit {
    const bytes = this.#config.maxBodyBytes;
    return () => ({ bytes, why: "maxBodyBytes allows" });
  }

  /**
   * A 206 holds at most the range; a 200 (a server that ignores Range) is the
   * whole object, up to `maxBodyBytes`, of which a window needs only the start:
   * reading stops after the window's end and a margin, so a huge or endless
   * body is not read to the cap; a suffix keeps only the object's end.
   */
  #rangeLimit(range: RangeQuery): BodyLimit {
    const max = this.#config.maxBodyBytes;
    return (status) => {
      if (status === 206)
        return {
          bytes: Math.min("suffixLength" in range ? range.suffixLength : range.length, max),
          why: "the range asked for",
        };
      const whole = { bytes: max, why: "maxBodyBytes allows" };
      if ("suffixLength" in range) return { ...whole, keepTail: { after: 0, bytes: range.suffixLength } };
      return { ...whole, stopAt: range.offset + range.length + WINDOW_MARGIN_BYTES };
    };
  }

  async #object(
    method: S3Request["method"],
    key: string,
    options: RequestOptions | undefined,
    extra: Pick<S3Request, "headers" | "body" | "limit"> = {},
    accept: readonly number[] = [],
  ): Promise<S3Reply | undefined> {
    checkKey(key);
    const signal = options?.signal;
    const request: S3Request = {
      method,
      url: this.#client.objectUrl(this.prefix + key),
      what: `${method} ${this.#location(key)}`,
      key,
      ...extra,
    };
    if (signal) request.signal = signal;
    return this.#client.request(request, accept);
  }

  #location(key: string): string {
    return `s3://${this.bucket}/${this.prefix}${key}`;
  }
}

/**
 * Bytes read past a window's end when a server answers it with the whole object (200): a value ending just after is
 * then seen whole.
 */
const WINDOW_MARGIN_BYTES = 64 * 2 ** 10;

function checkPrefix(prefix: string): void {
  if (typeof prefix !== "string" || !isWellFormed(prefix))
    throw new StoreError(`Invalid listing prefix ${JSON.stringify(String(prefix))}: a string of whole characters.`);
}

/** A StoreError naming `key` unless it is a plain relative key S3 can be asked for. */
function checkKey(key: string): void {
  if (typeof key !== "string") throw new StoreError(`Invalid key ${String(key)}: keys are strings.`);
  const problem = storeKeyProblem(key);
  if (problem) throw new StoreError(`Invalid key ${JSON.stringify(key)}: ${problem}.`, { key });
}
