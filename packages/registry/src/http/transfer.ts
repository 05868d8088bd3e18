// Reading a reply within bounds: an idle timeout over headers and body, and a
// cap on the body, read by streaming into a buffer sized from Content-Length.

/** Bodies with a Content-Length above this start smaller and grow as bytes arrive, so a lying header cannot make the store allocate what never comes. */
const PREALLOCATE_MAX = 64 * 2 ** 20;
/** First buffer for a body of unknown length. */
const UNKNOWN_LENGTH_START = 64 * 2 ** 10;

/**
 * One attempt of a request: its `signal` aborts when the caller's signal
 * does, when no byte has arrived for `idleMs` (then `timedOut` is true), or
 * on `cancel` (a reply over its cap). The timer runs from the start unless
 * `fromReply` (uploads: fetch does not report their progress, so a slow
 * upload cannot be told from a silent server); `touch` on every sign of life
 * starts or restarts it; `end` once the attempt is over, whatever its outcome.
 */
export class Attempt {
  /** Whether the attempt was aborted for want of bytes within `idleMs`. */
  timedOut = false;
  readonly #controller = new AbortController();
  readonly #idleMs: number;
  readonly #outer: AbortSignal | undefined;
  readonly #onOuterAbort = () => this.#controller.abort(this.#outer!.reason);
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(idleMs: number, outer: AbortSignal | undefined, fromReply = false) {
    this.#idleMs = idleMs;
    this.#outer = outer;
    if (outer?.aborted) this.#controller.abort(outer.reason);
    else outer?.addEventListener("abort", this.#onOuterAbort, { once: true });
    if (!fromReply) this.touch();
  }

  /** Aborts on the caller's signal or on the idle timeout: give it to fetch. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Bytes arrived: restart the idle timer. */
  touch(): void {
    if (this.#idleMs <= 0 || this.#controller.signal.aborted) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.timedOut = true;
      this.#controller.abort(new Error(`No bytes for ${this.#idleMs} ms`));
    }, this.#idleMs);
  }

  /** Abandon the request: the connection is closed rather than drained. */
  cancel(reason: unknown): void {
    this.#controller.abort(reason);
  }

  /** Stop the idle timer and the forwarding of the caller's signal (call when the body is read). */
  end(): void {
    clearTimeout(this.#timer);
    this.#outer?.removeEventListener("abort", this.#onOuterAbort);
  }
}

/** `promise`, or the signal's reason as soon as it aborts: for fetch implementations that ignore their signal. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // The promise given up on still settles (fetch rejects with the same reason): left unhandled, it would crash Node.
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * The Content-Length of a reply as the size of the body fetch will hand out,
 * or undefined when absent, malformed, or describing an encoded body that
 * fetch decompresses (then the decoded body has another length).
 */
export function bodyLength(headers: Headers): number | undefined {
  const encoding = headers.get("content-encoding");
  if (encoding && encoding.trim().toLowerCase() !== "identity") return undefined;
  const value = headers.get("content-length")?.trim();
  if (value === undefined || !/^\d{1,16}$/.test(value)) return undefined;
  return Number(value);
}

/** How many body bytes a reply with this status may have, and why (for the error). */
export type BodyLimit = (status: number) => {
  /** Most bytes accepted. */
  bytes: number;
  /** Why, for the error: "a shard index may have", say. */
  why: string;
};

/** Drop an unused body so the connection can be reused. */
export async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

/** Bounds on reading a response body. */
export interface BodyLimits {
  /** Most bytes accepted. */
  limit: number;
  /** The attempt: touched on every chunk, its signal cancels the read. */
  attempt: Attempt;
  /** The typed error for a body over `limit`: what the reply announced or sent. */
  tooLarge(detail: string): Error;
}

/**
 * The whole body, read chunk by chunk into one buffer: of the announced size
 * when Content-Length gives it (up to 64 MiB at first, growing with what
 * arrives beyond that), doubling otherwise. A Content-Length over the limit
 * is refused before reading; a body growing past it is cancelled at the first
 * chunk that crosses it. Either way the connection is closed, not drained.
 */
export async function readBody(response: Response, { limit, attempt, tooLarge }: BodyLimits): Promise<Uint8Array<ArrayBuffer>> {
  const announced = bodyLength(response.headers);
  if (announced !== undefined && announced > limit) {
    const error = tooLarge(`announces ${announced} bytes (Content-Length)`);
    attempt.cancel(error);
    await response.body?.cancel(error).catch(() => {});
    throw error;
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const { signal } = attempt;
  const onAbort = () => void reader.cancel(signal.reason).catch(() => {});
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  let buffer = new Uint8Array(Math.min(limit, announced === undefined ? UNKNOWN_LENGTH_START : Math.min(announced, PREALLOCATE_MAX)));
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // A cancelled read ends as if the body were complete: the signal says why.
      signal.throwIfAborted();
      if (done) break;
      attempt.touch();
      const needed = length + value.byteLength;
      if (needed > limit) {
        const error = tooLarge(`sent more than ${limit} bytes`);
        attempt.cancel(error);
        throw error;
      }
      if (needed > buffer.byteLength) {
        const target = announced !== undefined && needed <= announced ? announced : limit;
        const grown = new Uint8Array(Math.min(target, Math.max(needed, buffer.byteLength * 2)));
        grown.set(buffer.subarray(0, length));
        buffer = grown;
      }
      buffer.set(value, length);
      length = needed;
    }
  } catch (error) {
    await reader.cancel(error).catch(() => {});
    throw error;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
  return length === buffer.byteLength ? buffer : buffer.slice(0, length);
}
