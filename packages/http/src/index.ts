/**
 * The HTTP policy of stores that speak HTTP (`FetchStore`, `S3Store`,
 * third-party stores over fetch): the `Range` header and checks of a
 * `Content-Range` answer and of whole values, bounded body reads under an idle
 * timeout, a deadline and a minimum rate, versions (strong ETags, else a strong
 * Last-Modified with the size), redirects that keep credentials with their
 * origin, one retry policy (retryable statuses, backoff, Retry-After, the error
 * for a final status), and one XML reader for the documents servers send.
 */
export {
  checkIfMatch,
  confirmVersion,
  httpDate,
  ifMatchHeaders,
  ifNoneMatchHeaders,
  isLastModifiedVersion,
  isWeak,
  lastModifiedOf,
  lastModifiedVersion,
  replyVersion,
  sameVersion,
  strongEtag,
  unquoteEtag,
  withVersion,
} from "./etag.js";
export {
  contentRangeProblem,
  contentRangeTotal,
  rangeHeader,
  unsatisfiedRangeSize,
  wholeValueProblem,
} from "./ranges.js";
export { type CrossOriginRedirects, fetchFollowing, PROTOCOL_HEADERS, type RedirectPolicy } from "./redirect.js";
export {
  abortableSleep,
  backoffMs,
  isRetryableStatus,
  MAX_RETRY_AFTER_MS,
  RETRY,
  RetryAfter,
  type RetryLoop,
  type RetryOptions,
  retryAfterMs,
  retryAfterNote,
  retryFor,
  retrying,
  statusError,
} from "./retry.js";
export {
  Attempt,
  type AttemptLimits,
  type BodyLimit,
  type BodyLimits,
  type BodyPart,
  bodyLength,
  type KeepTail,
  discard,
  RATE_WINDOW_MS,
  readBody,
  readBodyPart,
  type TimeoutKind,
  untilAborted,
} from "./transfer.js";
export {
  escapeXml,
  parseXml,
  type XmlElement,
  type XmlLimits,
  xmlChild,
  xmlChildren,
  xmlChildText,
} from "./xml.js";
