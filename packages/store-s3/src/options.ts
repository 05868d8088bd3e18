import { StoreError, storeKeyProblem } from "@zarrkit/registry";

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface S3StoreOptions {
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
   * sharding codec) fetch ranges of one object less than this apart with one
   * GET. Default 4 MiB, about what a round trip to S3 costs in transfer.
   */
  coalesceGapBytes?: number;
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
  fetch: typeof globalThis.fetch;
}

const MiB = 2 ** 20;
/** S3's smallest part (all but the last). */
export const MIN_PART_SIZE = 5 * MiB;

/** The environment in Node; nothing in browsers, where `process` does not exist. */
function environment(): Record<string, string | undefined> {
  const holder = globalThis as { process?: { env?: Record<string, string | undefined> } };
  return holder.process?.env ?? {};
}

export function resolveConfig(options: S3StoreOptions): S3Config {
  const env = environment();
  const bucket = options.bucket;
  // Loose on purpose: legacy buckets may have capitals and "_"; this only keeps URLs well formed.
  if (typeof bucket !== "string" || !/^[A-Za-z0-9._-]{1,255}$/.test(bucket)) {
    throw new StoreError(`Invalid S3 bucket name ${JSON.stringify(bucket)}: use letters, digits, ".", "-" and "_".`);
  }
  const region = options.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? "us-east-1";
  const pathStyle = options.pathStyle ?? options.endpoint !== undefined;
  const config: S3Config = {
    bucket,
    prefix: normalizePrefix(options.prefix ?? ""),
    region,
    baseUrl: baseUrl(bucket, options.endpoint ?? `https://s3.${region}.amazonaws.com`, pathStyle),
    credentials: options.anonymous ? undefined : (options.credentials ?? environmentCredentials(env)),
    multipartThreshold: options.multipartThreshold ?? 64 * MiB,
    partSize: options.partSize ?? 16 * MiB,
    partConcurrency: options.partConcurrency ?? 4,
    retries: options.retries ?? 4,
    coalesceGapBytes: options.coalesceGapBytes ?? 4 * MiB,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  };
  if (!(config.partSize >= MIN_PART_SIZE)) throw new StoreError(`S3 partSize must be at least ${MIN_PART_SIZE} bytes (5 MiB), got ${config.partSize}.`);
  for (const name of ["multipartThreshold", "partConcurrency", "retries", "coalesceGapBytes"] as const) {
    const value = config[name];
    if (!(Number.isSafeInteger(value) && value >= (name === "partConcurrency" ? 1 : 0))) {
      throw new StoreError(`S3 option ${name} must be a ${name === "partConcurrency" ? "positive" : "non-negative"} integer, got ${value}.`);
    }
  }
  return config;
}

function environmentCredentials(env: Record<string, string | undefined>): S3Credentials | undefined {
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = env;
  if (!accessKeyId || !secretAccessKey) return undefined;
  return sessionToken ? { accessKeyId, secretAccessKey, sessionToken } : { accessKeyId, secretAccessKey };
}

function normalizePrefix(prefix: string): string {
  const trimmed = prefix.replace(/^\/+|\/+$/g, "");
  if (trimmed === "") return "";
  // A ".." segment would climb out of the bucket once the URL is normalised.
  const problem = storeKeyProblem(trimmed);
  if (problem) throw new StoreError(`Invalid S3 prefix ${JSON.stringify(prefix)}: ${problem}.`);
  return `${trimmed}/`;
}

function baseUrl(bucket: string, endpoint: string, pathStyle: boolean): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch (cause) {
    throw new StoreError(`Invalid S3 endpoint ${JSON.stringify(endpoint)}: not a URL.`, { cause });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new StoreError(`Invalid S3 endpoint ${JSON.stringify(endpoint)}: not http(s).`);
  if (url.username || url.password) throw new StoreError("Invalid S3 endpoint: pass credentials as options, not in the URL.");
  const path = url.pathname.replace(/\/+$/, "");
  return pathStyle ? `${url.origin}${path}/${bucket}/` : `${url.protocol}//${bucket}.${url.host}${path}/`;
}
