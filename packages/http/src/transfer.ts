// Reading a reply within bounds: an idle timeout over headers and body, and a
// cap on the body, read by streaming into a buffer sized from Content-Length.

/**
 * Bodies with a Content-Length above this start smaller and grow as bytes arrive, so a lying header cannot make the
 * store allocate what never comes.
 */
const PREALLOCATE_MAX = 64 * 2 ** 20;
/** First buffer for a body of unknown length. */
const UNKNOWN_LENGTH_START = 64 * 2 ** 10;

/**
 * Why an attempt was abandoned for time: no byte for the idle timeout, past its deadline, or a body slower than the
 * minimum rate.
 */
export type TimeoutKind = "idle" | "deadline" | "slow";

/** Time bounds of one attempt besides the idle timeout. */
export interface AttemptLimits {
  /** The whole attempt (headers and body) must be over within this many milliseconds (0: no deadline). */
  deadlineMs?: number;
  /**
   * A body must bring at least this many bytes per second, measured over every `rateWindowMs` after the reply (0: no
   * minimum).
   */
  minBytesPerSecond?: number;
  /** The window the rate is measured over. Default 10 000 ms. */
  rateWindowMs?: number;
}

/**
 * Default `rateWindowMs`: long enough for a slow but healthy link to show its rate, short enough that a trickle ends
 * soon.
 */
export const RATE_WINDOW_MS = 10_000;

/**
 * One attempt of a request: its `signal` aborts when the caller's signal
 * does, when no byte has arrived for `idleMs` (then `timedOut` is true and
 * `timeout` is "idle"), when the attempt outlives its deadline ("deadline"),
 * when its body arrives slower than the minimum rate ("slow"), or on `cancel`
 * (a reply over its cap). The idle timer runs from the start unless
 * `fromReply` (uploads: fetch does not report their progress, so a slow
 * upload cannot be told from a silent server); `touch` on every sign of life
 * starts or restarts it; `replied` when the headers arrive starts the rate
 * check; `received(n)` for every chunk of body; `end` once the attempt is
 * over, whatever its outcome.
 */
export class Attempt {
  /** Whether the attempt was aborted for time (see `timeout`). */
  timedOut = false;
  /** Which time bound ended the attempt, when one did. */
  timeout: TimeoutKind | undefined;
  readonly #controller = new AbortController();
  readonly #idleMs: number;
  readonly #outer: AbortSignal | undefined;
  readonly #onOuterAbort = () => this.#controller.abort(this.#outer!.reason);
  readonly #minBytesPerSecond: number;
  readonly #rateWindowMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #deadline: ReturnType<typeof setTimeout> | undefined;
  #rate: ReturnType<typeof setInterval> | undefined;
  #windowBytes = 0;

  constructor(idleMs: number, outer: AbortSignal | undefined, fromReply = false, limits: AttemptLimits = {}) {
    this.#idleMs = idleMs;
    this.#outer = outer;
    this.#minBytesPerSecond = limits.minBytesPerSecond ?? 0;
    this.#rateWindowMs = limits.rateWindowMs ?? RATE_WINDOW_MS;
    if (outer?.aborted) this.#controller.abort(outer.reason);
    else outer?.addEventListener("abort", this.#onOuterAbort, { once: true });
    const deadlineMs = limits.deadlineMs ?? 0;
    if (deadlineMs > 0 && !this.#controller.signal.aborted) {
      this.#deadline = setTimeout(() => this.#expire("deadline", `Not done within ${deadlineMs} ms`), deadlineMs);
    }
    if (!fromReply) this.touch();
  }

  /** Aborts on the caller's signal or on a time bound: give it to fetch. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Bytes arrived: restart the idle timer. */
  touch(): void {
    if (this.#idleMs <= 0 || this.#controller.signal.aborted) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#expire("idle", `No bytes for ${this.#idleMs} ms`), this.#idleMs);
  }

  /** The reply's headers arrived: restart the idle timer and start measuring the body's rate. */
  replied(): void {
    this.touch();
    if (this.#minBytesPerSecond <= 0 || this.#rate !== undefined || this.#controller.signal.aborted) return;
    const least = (this.#minBytesPerSecond * this.#rateWindowMs) / 1000;
    this.#rate = setInterval(() => {
      if (this.#windowBytes < least) {
        this.#expire(
          "slow",
          `Fewer than ${this.#minBytesPerSecond} bytes per second over ${this.#rateWindowMs} ms ` +
            `(${this.#windowBytes} bytes)`,
        );
      }
      this.#windowBytes = 0;
    }, this.#rateWindowMs);
  }

  /** `bytes` of body arrived. */
  received(bytes: number): void {
    this.#windowBytes += bytes;
    this.touch();
  }

  /** Abandon the request: the connection is closed rather than drained. */
  cancel(reason: unknown): void {
    this.#controller.abort(reason);
  }

  /** Stop the timers and the forwarding of the caller's signal (call when the body is read). */
  end(): void {
    clearTimeout(this.#timer);
    clearTimeout(this.#deadline);
    clearInterval(this.#rate);
    this.#outer?.removeEventListener("abort", this.#onOuterAbort);
  }

  #expire(kind: TimeoutKind, message: string): void {
    if (this.#controller.signal.aborted) return;
    this.timedOut = true;
    this.timeout = kind;
    this.end();
    this.#controller.abort(new Error(message));
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
export type BodyLimit = (
  status: number,
  headers: Headers,
) => {
  /** Most bytes accepted. */
  bytes: number;
  /** Why, for the error: "a shard index may have", say. */
  why: string;
  /** Read no further than this many bytes: the rest is abandoned without error (see `BodyLimits.stopAt`). */
  stopAt?: number;
  /** Keep only the body's end once it passes a size (see `BodyLimits.keepTail`). */
  keepTail?: KeepTail;
};

/** Drop an unused body so the connection can be reused. */
export async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

/** Bounds on reading a response body. */
export interface BodyLimits {
  /** Most bytes accepted. */
  limit: number;
  /** The attempt: told of every chunk, its signal cancels the read. */
  attempt: Attempt;
  /** The typed error for a body over `limit`: what the reply announced or sent. */
  tooLarge(detail: string): Error;
  /**
   * Stop once this many bytes are in, without error: the rest of the body is
   * abandoned (the connection closed) and the bytes so far returned, at least
   * `stopAt` of them unless the body ended first. For a reply longer than
   * what is needed of it (a window of a value from a server that ignores
   * Range): the bytes needed plus a margin, rather than up to `limit`.
   */
  stopAt?: number;
  /**
   * Once the body passes `after` bytes, keep only its last `bytes` (`limit`
   * still bounds the bytes read): for a suffix of a value answered with all of
   * it, whose length is not known before its end, memory stays bounded.
   */
  keepTail?: KeepTail;
}

/** Keep only a body's end once it passes a size. */
export interface KeepTail {
  /** Body bytes after which only the end is kept. */
  after: number;
  /** How many of the last bytes are kept. */
  bytes: number;
}

/** A body read with `readBodyPart`. */
export interface BodyPart {
  /** The body; only its last `keepTail.bytes` when `tail`. */
  body: Uint8Array<ArrayBuffer>;
  /** Whether the body ended (false: reading stopped at `stopAt` and the rest was abandoned). */
  complete: boolean;
  /** Whether only the tail of the body was kept (it passed `keepTail.after`). */
  tail: boolean;
  /** Bytes of body read in all. */
  total: number;
}

/**
 * The whole body, read chunk by chunk into one buffer: of the announced size
 * when Content-Length gives it (up to 64 MiB at first, growing with what
 * arrives beyond that), doubling otherwise. A Content-Length over the limit
 * is refused before reading; a body growing past it is cancelled at the first
 * chunk that crosses it. Either way the connection is closed, not drained.
 */
export async function readBody(response: Response, limits: BodyLimits): Promise<Uint8Array<ArrayBuffer>> {
  return (await readBodyPart(response, { ...limits, stopAt: undefined, keepTail: undefined })).body;
}

/** `readBody`, stopping at `limits.stopAt` bytes, or keeping only a tail past `limits.keepTail.after`, when given. */
export async function readBodyPart(
  response: Response,
  { limit, attempt, tooLarge, stopAt, keepTail }: BodyLimits,
): Promise<BodyPart> {
  const announced = bodyLength(response.headers);
  if (announced !== undefined && announced > limit && (stopAt === undefined || stopAt > limit)) {
    const error = tooLarge(`announces ${announced} bytes (Content-Length)`);
    attempt.cancel(error);
    await response.body?.cancel(error).catch(() => {});
    throw error;
  }
  if (!response.body) return { body: new Uint8Array(0), complete: true, tail: false, total: 0 };
  const reader = response.body.getReader();
  const { signal } = attempt;
  const onAbort = () => void reader.cancel(signal.reason).catch(() => {});
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  const cap = stopAt === undefined ? limit : Math.min(limit, stopAt);
  const startAt = Math.min(cap, keepTail?.after ?? cap);
  let buffer = new Uint8Array(
    Math.min(startAt, announced === undefined ? UNKNOWN_LENGTH_START : Math.min(announced, PREALLOCATE_MAX)),
  );
  let length = 0;
  let total = 0;
  let complete = true;
  let tail = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // A cancelled read ends as if the body were complete: the signal says why.
      signal.throwIfAborted();
      if (done) break;
      attempt.received(value.byteLength);
      let chunk = value;
      if (stopAt !== undefined && total + chunk.byteLength >= stopAt && stopAt <= limit) {
        chunk = chunk.subarray(0, stopAt - total);
        complete = false;
      } else if (total + chunk.byteLength > limit) {
        const error = tooLarge(`sent more than ${limit} bytes`);
        attempt.cancel(error);
        throw error;
      }
      total += chunk.byteLength;
      if (keepTail && !tail && total > keepTail.after) {
        // From here on only the last keepTail.bytes matter: a buffer of twice that, shifted when full.
        tail = true;
        const kept = buffer.subarray(Math.max(0, length - keepTail.bytes), length);
        const ring = new Uint8Array(Math.max(2 * keepTail.bytes, 1));
        ring.set(kept);
        buffer = ring;
        length = kept.byteLength;
      }
      if (tail) {
        const keep = keepTail!.bytes;
        if (chunk.byteLength >= keep) {
          buffer.set(chunk.subarray(chunk.byteLength - keep));
          length = keep;
        } else {
          if (length + chunk.byteLength > buffer.byteLength) {
            const from = length - (keep - chunk.byteLength);
            buffer.copyWithin(0, from, length);
            length -= from;
          }
          buffer.set(chunk, length);
          length += chunk.byteLength;
        }
      } else {
        const needed = length + chunk.byteLength;
        if (needed > buffer.byteLength) {
          const target = announced !== undefined && needed <= announced ? Math.min(announced, cap) : cap;
          const grown = new Uint8Array(Math.min(target, Math.max(needed, buffer.byteLength * 2)));
          grown.set(buffer.subarray(0, length));
          buffer = grown;
        }
        buffer.set(chunk, length);
        length = needed;
      }
      if (!complete) {
        // Abandon the rest: the connection is closed, not drained.
        signal.removeEventListener("abort", onAbort);
        await reader.cancel().catch(() => {});
        break;
      }
    }
  } catch (error) {
    await reader.cancel(error).catch(() => {});
    throw error;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
  // A body that ends exactly at stopAt: the announced length tells it was complete.
  if (!complete && announced !== undefined && announced === total) complete = true;
  if (tail) {
    const keep = Math.min(length, keepTail!.bytes);
    return { body: buffer.slice(length - keep, length), complete, tail, total };
  }
  return { body: length === buffer.byteLength ? buffer : buffer.slice(0, length), complete, tail, total };
}
