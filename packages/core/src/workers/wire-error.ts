import {
  AuthError,
  ChecksumError,
  CorruptDataError,
  InvalidMetadataError,
  InvalidOptionError,
  InvalidSelectionError,
  NodeExistsError,
  NotFoundError,
  PreconditionFailedError,
  QuotaExceededError,
  StoreError,
  UnsupportedError,
  ZarrkitError,
} from "@zarrkit/registry";

/** An error as it crosses a thread boundary: structured clone would drop its class and key. */
export interface WireError {
  name: string;
  message: string;
  stack?: string;
  code?: string;
  key?: string;
  field?: string;
}

type ZarrkitErrorClass = new (message: string, context?: { key?: string; field?: string }) => ZarrkitError;

const BY_CODE = new Map<string, ZarrkitErrorClass>(
  [
    ZarrkitError,
    NotFoundError,
    InvalidMetadataError,
    InvalidOptionError,
    UnsupportedError,
    ChecksumError,
    CorruptDataError,
    InvalidSelectionError,
    StoreError,
    PreconditionFailedError,
    AuthError,
    QuotaExceededError,
    NodeExistsError,
  ].map((Class) => [new Class("").code, Class]),
);

const STANDARD = new Map<string, ErrorConstructor>(
  Object.entries({ TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError }),
);

export function toWire(error: unknown): WireError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const wire: WireError = { name: error.name, message: error.message, stack: error.stack };
  if (error instanceof ZarrkitError) {
    wire.code = error.code;
    if (error.key !== undefined) wire.key = error.key;
    if (error.field !== undefined) wire.field = error.field;
  }
  return wire;
}

/**
 * The error again, as the class its code names (a ZarrkitError keeping the code of classes this side does not know).
 */
export function fromWire(wire: WireError): Error {
  const context = {
    ...(wire.key !== undefined && { key: wire.key }),
    ...(wire.field !== undefined && { field: wire.field }),
  };
  let error: Error;
  if (wire.code === undefined) {
    error = new (STANDARD.get(wire.name) ?? Error)(wire.message);
  } else {
    error = new (BY_CODE.get(wire.code) ?? ZarrkitError)(wire.message, context);
    Object.assign(error, { code: wire.code, name: wire.name });
  }
  // The worker's stack says where the codec failed, which is what a reader of it wants.
  if (wire.stack !== undefined) error.stack = wire.stack;
  return error;
}
