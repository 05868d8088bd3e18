import { type CodecContext, CorruptDataError, UnsupportedError } from "@zarrkit/registry";

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Run a decoder and turn whatever it throws into a typed error naming the
 * store key: libraries report corrupt input as plain Errors (or RangeErrors
 * from oversized allocations), which callers must not have to tell apart.
 */
export async function decoding<T>(codec: string, ctx: CodecContext, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (cause) {
    if (cause instanceof CallerFailure) throw cause.error;
    const message = `${codec}: cannot decode ${ctx.key}: ${reason(cause)}`;
    if (cause instanceof UnsupportedError) throw new UnsupportedError(message, { key: ctx.key, cause });
    throw new CorruptDataError(message, { key: ctx.key, cause });
  }
}

/** What a caller's callback threw inside a decoder: `decoding` passes it on unchanged, not as the decoder's fault. */
class CallerFailure {
  constructor(readonly error: unknown) {}
}

/** `use`, its errors marked as the caller's (see `BytesToBytesCodec.decodeLent`). */
export function callersOwn<A, R>(use: (arg: A) => R): (arg: A) => R {
  return (arg) => {
    try {
      return use(arg);
    } catch (error) {
      throw new CallerFailure(error);
    }
  };
}
