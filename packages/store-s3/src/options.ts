import { InvalidOptionError, normalizeStorePrefix, redactUnparsedUrl } from "@zarrkit/registry";
import { type CrossOriginRedirects, MAX_RETRY_AFTER_MS } from "@zarrkit/http";

/** AWS credentials that sign every request (SigV4). */
export interface S3Credentials {
  /** The access key id. */
  accessKeyId: string;
  /** The secret access key. */
  secretAccessKey: string;
  /** The session token of temporary credentials. */
  sessionToken?: string;
}

/** Options of `S3Store` (`openStore("s3://bucket/prefix", options)` takes them without `bucket` and `prefix`). */
export interface S3StoreOptions {
  /** The bucket name. */
  bucket: string;
  /** Key prefix inside the bucket that the store is rooted at, e.g. "datasets/a.zarr". Default: the bucket root. */
  prefix?: string;
  /** Signing region. Default: AWS_REGION, then AWS_DEFAULT_REGION (Node only), then "us-east-1". */
  region?: string;
  /** Server URL for S3-compatible services, e.g. "http://127.0.0.1:7480". Default: AWS for the region. */
  endpoint?: string;
  /**
   * Path-style addressing (`endpoint/bucket/key`) instead of virtual-hosted
   * (`bucket.endpoint/key`). Default: true with a custom endpoint, false for AWS.
   */
  pathStyle?: boolean;
  /**
   * Default: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN
   * (Node only); without those, requests are sent unsigned.
   */
  credentials?: S3Credentials;
  /** Send unsigned requests (public buckets) even when credentials are in the environment. */
  anonymous?: boolean;
  /** Values larger than this many bytes are uploaded in parts (default 64 MiB). */
  multipartThreshold?: number;
  /** Size of each part of a multipart upload; S3 requires at least 5 MiB (default 16 MiB). */
  partSize?: number;
  /** Parts uploaded at the same time (default 4). */
  partConcurrency?: number;
  /** Retries of a request after a 5xx, a 429 or a network error, with exponential backoff (default 4). */
  retries?: number;
  /**
   * The store's `coalesceGapBytes` hint: readers that coalesce ranges (the
   * sharding codec) fetch ranges of one object at most this far apart with one
   * GET. Default 4 MiB, about what a round trip to S3 costs in transfer.
   */
  coalesceGapBytes?: number;
  /**
   * Milliseconds without a byte from S3 (waiting for the headers of a request
   * without a body, or between chunks of any body) after which the request is
   * cancelled and retried like a network error; the last failure is a
   * `StoreTimeoutError` (code "STORE_TIMEOUT"). Default 30 000; 0 disables it.
   */
  idleTimeoutMs?: number;
  /**
   * The largest body accepted for whole values (`get`, `getVersioned`) and
   * for ranged reads answered with the whole object; a larger reply is a
   * `ResponseTooLargeError` (code "RESPONSE_TOO_LARGE") and its connection is
   * closed. Ranged reads accept at most the bytes of the range. Default
   * 2 GiB - 1 (2^31 - 1), the largest buffer every JavaScript engine allocates.
   */
  maxBodyBytes?: number;
  /**
   * Milliseconds an attempt of a request may take in all, headers and body,
   * however steadily bytes arrive; past it the request is cancelled with a
   * `StoreTimeoutError` and not retried. Default 600 000 (10 minutes); 0 disables it.
   */
  requestTimeoutMs?: number;
  /**
   * The slowest body accepted, in bytes per second over every 10 seconds once
   * the reply's headers are in; a slower one (a trickle the idle timeout never
   * sees) is cancelled with a `StoreTimeoutError` and not retried. Default 1024; 0 disables it.
   */
  minBytesPerSecond?: number;
  /**
   * The longest Retry-After of a 429 or 503 waited for before a retry; a longer one ends the request with its error at
   * once. Default 30 000.
   */
  maxRetryAfterMs?: number;
  /**
   * Redirects to another origin: "strip-headers" (the default) follows them
   * without the signature and every other header but the request's Range and
   * conditions; "refuse" makes them a `StoreError`. A redirect from https to
   * http is always refused.
   */
  crossOriginRedirects?: CrossOriginRedirects;
  /**
   * The most pages (of up to 1000 keys) one listing reads; a listing that
   * would go on is a `StoreError`, as is one whose server repeats a
   * continuation token (which would loop forever). Default 10 000 (10 million keys).
   */
  maxListPages?: number;
  /** The fetch to use (default: globalThis.fetch). */
  fetch?: typeof globalThis.fetch;
}

export interface S3Config {
  bucket: string;
  /** "" or a prefix ending in "/". */
  prefix: string;
  region: string;
  /** Base URL for object keys: ends in "/", and a key's encoded path is appended to it. */
  baseUrl: string;
  credentials: S3Credentials | undefined;
  multipartThreshold: number;
  partSize: number;
  partConcurrency: number;
  retries: number;
  coalesceGapBytes: number;
  idleTimeoutMs: number;
  maxBodyBytes: number;
  requestTimeoutMs: number;
  minBytesPerSecond: number;
  maxRetryAfterMs: number;
  crossOriginRedirects: CrossOriginRedirects;
  maxListPages: number;
  fetch: typeof globalThis.fetch;
  /** The secret key and session token, longest first: redacted from any text the server sends back. */
  secrets: readonly string[];
}

const MiB = 2 ** 20;
/** S3 listings and multipart answers are at most a few MiB (1000 keys of up to 1 KiB each); a larger one is refused. */
export const MAX_XML_BYTES = 16 * MiB;
/** S3's smallest part (all but the last). */
export const MIN_PART_SIZE = 5 * MiB;

/** The environment in Node; nothing in browsers, where `process` does not exist. */
function environment(): Record<string, string | undefined> {
  const holder = globalThis as { process?: { env?: Record<string, string | undefined> } };
  return holder.process?.env ?? {};
}

export function resolveConfig(options: S3StoreOptions): S3Config {
  if (typeof options !== "object" || options === null)
    throw new InvalidOptionError("S3Store needs options with at least a bucket.", { field: "bucket" });
  const env = environment();
  const bucket = options.bucket;
  // Loose on purpose: legacy buckets may have capitals and "_"; this only keeps URLs well formed.
  if (typeof bucket !== "string" || !/^[A-Za-z0-9._-]{1,255}$/.test(bucket)) {
    throw new InvalidOptionError(
      `Invalid S3 bucket name ${JSON.stringify(bucket)}: use letters, digits, ".", "-" and "_".`,
      { field: "bucket" },
    );
  }
  const region = options.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? "us-east-1";
  const pathStyle = options.pathStyle ?? options.endpoint !== undefined;
  const credentials = options.anonymous
    ? undefined
    : (checkCredentials(options.credentials) ?? environmentCredentials(env));
  const secrets = secretsOf(credentials);
  const config: S3Config = {
    bucket,
    prefix: normalizeStorePrefix(options.prefix ?? "", "S3"),
    region,
    baseUrl: baseUrl(bucket, options.endpoint ?? `https://s3.${region}.amazonaws.com`, pathStyle, secrets),
    credentials,
    multipartThreshold: options.multipartThreshold ?? 64 * MiB,
    partSize: options.partSize ?? 16 * MiB,
    partConcurrency: options.partConcurrency ?? 4,
    retries: options.retries ?? 4,
    coalesceGapBytes: options.coalesceGapBytes ?? 4 * MiB,
    idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
    maxBodyBytes: options.maxBodyBytes ?? 2 ** 31 - 1,
    requestTimeoutMs: options.requestTimeoutMs ?? 600_000,
    minBytesPerSecond: options.minBytesPerSecond ?? 1024,
    maxRetryAfterMs: options.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS,
    crossOriginRedirects: options.crossOriginRedirects ?? "strip-headers",
    maxListPages: options.maxListPages ?? 10_000,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    secrets,
  };
  if (!(config.partSize >= MIN_PART_SIZE))
    throw new InvalidOptionError(
      `S3 partSize must be at least ${MIN_PART_SIZE} bytes (5 MiB), got ${config.partSize}.`,
      {
        field: "partSize",
      },
    );
  const integers = [
    "multipartThreshold",
    "partConcurrency",
    "retries",
    "coalesceGapBytes",
    "idleTimeoutMs",
    "maxBodyBytes",
    "requestTimeoutMs",
    "minBytesPerSecond",
    "maxRetryAfterMs",
    "maxListPages",
  ] as const;
  for (const name of integers) {
    const value = config[name];
    const positive = name === "partConcurrency" || name === "maxListPages";
    if (!(Number.isSafeInteger(value) && value >= (positive ? 1 : 0))) {
      const shown = typeof value === "number" ? String(value) : JSON.stringify(value);
      throw new InvalidOptionError(
        `S3 option ${name} must be a ${positive ? "positive" : "non-negative"} integer, got ${shown}.`,
        { field: name },
      );
    }
  }
  if (config.crossOriginRedirects !== "strip-headers" && config.crossOriginRedirects !== "refuse") {
    throw new InvalidOptionError(
      'S3 option crossOriginRedirects must be "strip-headers" or "refuse", ' +
        `got ${JSON.stringify(String(config.crossOriginRedirects))}.`,
      { field: "crossOriginRedirects" },
    );
  }
  return config;
}

/** Credentials given as options, checked without ever naming their values. */
function checkCredentials(credentials: S3Credentials | undefined): S3Credentials | undefined {
  if (credentials === undefined) return undefined;
  const { accessKeyId, secretAccessKey, sessionToken } = (credentials ?? {}) as Partial<S3Credentials>;
  const text = (value: unknown) => typeof value === "string" && value !== "";
  if (!text(accessKeyId) || !text(secretAccessKey) || !(sessionToken === undefined || text(sessionToken))) {
    throw new InvalidOptionError(
      "S3 option credentials needs accessKeyId and secretAccessKey (and optionally sessionToken) as non-empty strings.",
      { field: "credentials" },
    );
  }
  return credentials;
}

/**
 * What must never appear in an error: the secret key and session token, also percent-encoded (as in presigned URLs).
 */
function secretsOf(credentials: S3Credentials | undefined): string[] {
  const secrets = [credentials?.secretAccessKey, credentials?.sessionToken].filter(
    (s): s is string => s !== undefined && s !== "",
  );
  const all = new Set([...secrets, ...secrets.map(encodeURIComponent)]);
  return [...all].sort((a, b) => b.length - a.length);
}

function environmentCredentials(env: Record<string, string | undefined>): S3Credentials | undefined {
  const {
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: secretAccessKey,
    AWS_SESSION_TOKEN: sessionToken,
  } = env;
  if (!accessKeyId || !secretAccessKey) return undefined;
  return sessionToken ? { accessKeyId, secretAccessKey, sessionToken } : { accessKeyId, secretAccessKey };
}

function baseUrl(bucket: string, endpoint: string, pathStyle: boolean, secrets: readonly string[]): string {
  // Endpoints are sometimes pasted with credentials in them (secret keys often hold "/", so such a URL may not even
  // parse).
  const shown = () => JSON.stringify(redactUnparsedUrl(String(endpoint), secrets));
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    // No cause: the URL parser's TypeError keeps the input, secrets and all, in its `input` field.
    throw new InvalidOptionError(`Invalid S3 endpoint ${shown()}: not a URL.`, { field: "endpoint" });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new InvalidOptionError(`Invalid S3 endpoint ${shown()}: not http(s).`, { field: "endpoint" });
  if (url.username || url.password)
    throw new InvalidOptionError("Invalid S3 endpoint: pass credentials as options, not in the URL.", {
      field: "endpoint",
    });
  const path = url.pathname.replace(/\/+$/, "");
  return pathStyle ? `${url.origin}${path}/${bucket}/` : `${url.protocol}//${bucket}.${url.host}${path}/`;
}
