/**
 * Helpers for store implementers whose stores speak HTTP (`FetchStore`,
 * `S3Store`, third-party stores over fetch): the `Range` header and checks of
 * a `Content-Range` answer, bounded body reads under an idle timeout, strong
 * ETags as versions, redaction of credentials from anything an error carries,
 * and one retry policy (retryable statuses, backoff, the error for a final status). Import them from
 * "@zarrkit/registry/http"; they are not part of the main entry point.
 */
export { checkIfMatch, confirmVersion, isWeak, strongEtag, unquoteEtag, withVersion } from "./http/etag.js";
export { contentRangeProblem, contentRangeTotal, rangeHeader, unsatisfiedRangeSize } from "./http/ranges.js";
export { configuredSecrets, redactError, redactText, redactUnparsedUrl, redactUrl } from "./http/redact.js";
export { abortableSleep, backoffMs, isRetryableStatus, RETRY, type RetryLoop, type RetryOptions, retrying, statusError } from "./http/retry.js";
export { Attempt, type BodyLimit, type BodyLimits, bodyLength, discard, readBody, untilAborted } from "./http/transfer.js";
