import type { StoreError } from "@zarrkit/registry";
import { parseXml, statusError, xmlChildText } from "@zarrkit/http";
import { redactText } from "@zarrkit/registry";

/**
 * What S3 answered, kept as the `cause` of the StoreError reporting it; its texts come from the server and are
 * redacted.
 */
export class S3ResponseError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** S3 error code, e.g. "NoSuchBucket"; undefined when the answer had no error body (HEAD). */
  readonly s3Code: string | undefined;
  /** S3's request id (x-amz-request-id), for the provider's support. */
  readonly requestId: string | undefined;
  constructor(
    status: number,
    s3Code: string | undefined,
    s3Message: string | undefined,
    requestId: string | undefined,
  ) {
    super(`${status} ${s3Code ?? "(no error code)"}${s3Message ? `: ${s3Message}` : ""}`);
    this.name = "S3ResponseError";
    this.status = status;
    this.s3Code = s3Code;
    this.requestId = requestId;
  }
}

/**
 * S3's error document (if any) of a failed reply, from at most the first
 * 64 KiB of its body (`text`). The server's texts go through `redactText`
 * with the configured secrets: a proxy echoing the request's Authorization
 * header, or a server quoting a key it rejected, leaks nothing.
 */
export function responseError(
  status: number,
  headers: Headers,
  text: string,
  secrets: readonly string[],
): S3ResponseError {
  const clean = (value: string | null | undefined) => (value ? redactText(value, secrets) : undefined);
  const document = errorDocument(text);
  const field = (name: string) => (document ? xmlChildText(document, name) : undefined);
  const requestId = clean(field("RequestId") ?? headers.get("x-amz-request-id"));
  return new S3ResponseError(status, clean(field("Code")), clean(field("Message")), requestId);
}

/**
 * S3's `<Error>` document, or undefined when the body is none (empty, HTML from a proxy, malformed); one cut at 64 KiB
 * is read up to its last tag.
 */
function errorDocument(text: string): ReturnType<typeof parseXml> | undefined {
  const end = text.lastIndexOf(">");
  if (end < 0) return undefined;
  try {
    const root = parseXml(text.slice(0, end + 1), "an S3 error document", { partial: true });
    return root.name === "Error" ? root : undefined;
  } catch {
    return undefined;
  }
}

/** A key that does not exist, as opposed to a missing bucket, which is an error. */
export function isMissingKey(error: S3ResponseError): boolean {
  return error.status === 404 && (error.s3Code === undefined || error.s3Code === "NoSuchKey");
}

/**
 * The typed error for a failed request. Messages name the operation, bucket,
 * key and S3's answer (redacted), never credentials.
 */
export function storeErrorFor(what: string, key: string | undefined, error: S3ResponseError): StoreError {
  const message = `S3 ${what} failed: ${error.message}${error.requestId ? ` (request id ${error.requestId})` : ""}.`;
  return statusError(error.status, message, { cause: error, ...(key === undefined ? {} : { key }) }, error.s3Code);
}
