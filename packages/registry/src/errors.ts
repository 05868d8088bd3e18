/**
 * Every error zarrkit throws on purpose is a ZarrkitError, so callers can catch
 * one class and branch on `code`. Each subclass carries the key, field or value
 * at fault so messages can name it.
 */
export interface ErrorContext {
  /** Store key the error concerns (never a URL with credentials). */
  key?: string;
  /** Metadata field or configuration path, e.g. `codecs[1].configuration.level`. */
  field?: string;
  /** The error that led to this one. */
  cause?: unknown;
}

/** The base of every error zarrkit throws on purpose: catch it and branch on `code`. */
export class ZarrkitError extends Error {
  /** A stable code per class, e.g. "NOT_FOUND", "CHECKSUM_MISMATCH" (also across copies of this package). */
  readonly code: string = "ZARRKIT_ERROR";
  /** Store key the error concerns. */
  readonly key?: string;
  /** Metadata field or configuration path the error concerns. */
  readonly field?: string;
  constructor(message: string, context: ErrorContext = {}) {
    super(message, context.cause === undefined ? undefined : { cause: context.cause });
    this.name = new.target.name;
    if (context.key !== undefined) this.key = context.key;
    if (context.field !== undefined) this.field = context.field;
  }
}

/** A node (array, group) or a required key does not exist. */
export class NotFoundError extends ZarrkitError {
  override readonly code = "NOT_FOUND";
}

/** zarr.json or a codec configuration is malformed or inconsistent. */
export class InvalidMetadataError extends ZarrkitError {
  override readonly code = "INVALID_METADATA";
}

/**
 * An option passed in code (to a store, a codec through `codecOptions`, `createArray`, a reader) is unknown, malformed
 * or out of range; `field` names it. Metadata read from a store is never the cause: that is an InvalidMetadataError.
 */
export class InvalidOptionError extends ZarrkitError {
  override readonly code = "INVALID_OPTION";
}

/** A valid feature this build cannot handle: unknown codec, extension, data type. */
export class UnsupportedError extends ZarrkitError {
  override readonly code = "UNSUPPORTED";
}

/** Stored bytes fail a checksum. */
export class ChecksumError extends ZarrkitError {
  override readonly code = "CHECKSUM_MISMATCH";
}

/** Stored bytes cannot be decoded: truncated, corrupt, or inconsistent with the metadata. */
export class CorruptDataError extends ZarrkitError {
  override readonly code = "CORRUPT_DATA";
}

/** A selection or value does not fit the array. */
export class InvalidSelectionError extends ZarrkitError {
  override readonly code = "INVALID_SELECTION";
}

/** A store failed, refused, or was asked for something it cannot do. */
export class StoreError extends ZarrkitError {
  override readonly code: string = "STORE_ERROR";
}

/** A conditional write lost against a concurrent writer (`ifMatch` / `ifNoneMatch`). */
export class PreconditionFailedError extends StoreError {
  override readonly code = "PRECONDITION_FAILED";
}

/**
 * A network store waited `idleTimeoutMs` with no byte arriving (for the
 * headers, or within a body) and cancelled the request.
 */
export class StoreTimeoutError extends StoreError {
  override readonly code = "STORE_TIMEOUT";
}

/**
 * A reply was larger than what was asked for (a range's length) or than the
 * store's cap (`maxBodyBytes`): the store stopped reading it and closed the connection.
 */
export class ResponseTooLargeError extends StoreError {
  override readonly code = "RESPONSE_TOO_LARGE";
}

/** Credentials were rejected. Messages never include the secret. */
export class AuthError extends StoreError {
  override readonly code = "AUTH_FAILED";
}

/** A storage quota was exceeded; the previous value is intact. */
export class QuotaExceededError extends StoreError {
  override readonly code = "QUOTA_EXCEEDED";
}

/** Creating a node where one already exists, without `overwrite`. */
export class NodeExistsError extends ZarrkitError {
  override readonly code = "NODE_EXISTS";
}
