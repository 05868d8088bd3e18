import { StoreError } from "@zarrkit/registry";
import { abortableSleep } from "@zarrkit/registry/http";
import { AwsClient } from "aws4fetch";
import { isMissingKey, responseError, storeErrorFor } from "./errors.js";
import type { S3Config } from "./options.js";

export interface S3Request {
  method: "GET" | "HEAD" | "PUT" | "POST" | "DELETE";
  url: string;
  headers?: Record<string, string>;
  body?: Uint8Array | string;
  signal?: AbortSignal;
  /** For error messages, e.g. "GET s3://bucket/a/zarr.json". */
  what: string;
  /** The store key the request is about, for the error's `key`. */
  key?: string;
}

/**
 * Sends signed (or, without credentials, unsigned) requests, retrying 5xx,
 * 429 and network failures with exponential backoff. Retrying a 5xx is also
 * what makes conditional writes exact on radosgw, which answers some of the
 * losers of a race with 500 instead of 412 (their write did not land; the
 * retry gets the 412).
 */
export class S3Client {
  readonly #config: S3Config;
  readonly #signer: AwsClient | undefined;

  constructor(config: S3Config) {
    this.#config = config;
    const { credentials, region } = config;
    this.#signer = credentials && new AwsClient({ ...credentials, service: "s3", region, retries: 0 });
  }

  /** URL of an object; `objectKey` is the full key in the bucket. */
  objectUrl(objectKey: string, query: Record<string, string> = {}): string {
    return withQuery(this.#config.baseUrl + encodeKey(objectKey), query);
  }

  bucketUrl(query: Record<string, string>): string {
    return withQuery(this.#config.baseUrl, query);
  }

  /**
   * Send `request`: the response when it succeeded or its status is in
   * `accept`, undefined when the key does not exist, the typed error otherwise.
   */
  async request(request: S3Request, accept: readonly number[] = []): Promise<Response | undefined> {
    const response = await this.send(request);
    if (response.ok || accept.includes(response.status)) return response;
    const error = await responseError(response);
    if (isMissingKey(error)) return undefined;
    throw storeErrorFor(request.what, request.key, error);
  }

  /** Send `request`, retrying what is worth retrying; the last response whatever its status. */
  async send(request: S3Request): Promise<Response> {
    const { retries } = this.#config;
    for (let attempt = 0; ; attempt++) {
      request.signal?.throwIfAborted();
      let response: Response;
      try {
        response = await this.#config.fetch(await this.#prepare(request));
      } catch (error) {
        if (request.signal?.aborted) throw request.signal.reason;
        if (attempt >= retries) {
          const reason = error instanceof Error ? error.message : String(error);
          throw new StoreError(`S3 ${request.what} failed: ${reason}.`, { cause: error, ...(request.key === undefined ? {} : { key: request.key }) });
        }
        await backoff(attempt, request.signal);
        continue;
      }
      if ((response.status < 500 && response.status !== 429) || attempt >= retries) return response;
      await response.body?.cancel();
      await backoff(attempt, request.signal);
    }
  }

  async #prepare({ method, url, headers, body, signal }: S3Request): Promise<Request> {
    const init: RequestInit = { method, ...(headers && { headers }), ...(signal && { signal }) };
    // Store values are ArrayBuffer-backed; TypeScript's Uint8Array type also admits SharedArrayBuffer.
    if (body !== undefined) init.body = body as Uint8Array<ArrayBuffer> | string;
    return this.#signer ? this.#signer.sign(url, init) : new Request(url, init);
  }
}

/**
 * Percent-encode each path segment the way SigV4 canonicalises S3 paths
 * (RFC 3986: also `!'()*`), so the signed path is the path sent and keys with
 * spaces, "+", "%" or Unicode reach S3 unchanged.
 */
export function encodeKey(key: string): string {
  return key.split("/").map(encodeRfc3986).join("/");
}

// Not URLSearchParams: it writes spaces as "+", which the signature would not cover.
function withQuery(url: string, query: Record<string, string>): string {
  const search = Object.entries(query)
    .map(([name, value]) => `${encodeRfc3986(name)}=${encodeRfc3986(value)}`)
    .join("&");
  return search ? `${url}?${search}` : url;
}

function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function backoff(attempt: number, signal: AbortSignal | undefined): Promise<void> {
  // 50, 100, 200, 400 ms ... with jitter, so racing writers spread out.
  return abortableSleep(50 * 2 ** attempt * (0.5 + Math.random() / 2), signal);
}
