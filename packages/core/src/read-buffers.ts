import {
  type ArrayRegion,
  PreconditionFailedError,
  type ReadOptions,
  type StoredValue,
  type WindowQuery,
} from "@zarrkit/registry";

/**
 * Buffers that reads fill and decoders read from, and the shared memory codec
 * workers read a write's source from, reused from one use to the next
 * instead of left as garbage: V8 frees an ArrayBuffer only at a collection,
 * which it starts after tens of MiB of them, and memory the process has not
 * touched yet costs a page fault per 4 KiB on first write (measured on a
 * 2-core VM: about 3 ms per MiB, more than copying it 20 times). A buffer is
 * taken per use and given back once done; a free buffer is dropped when a
 * use needs a larger one, so the pool never holds more buffers than uses
 * were ever in flight at once. Once the last use ends, the free buffers stay
 * for IDLE_MS, so that the next read or write (of a loop over an array's
 * parts, a viewer's next frame) reuses them, and then all are dropped but up
 * to RETAINED_BYTES: one read after another (random inner chunks) still
 * reuses a buffer, while a whole read's large buffers go.
 */
class ScratchPool {
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly free: Uint8Array[] = [];
  private lent = 0;

  /**
   * A buffer of at least `length` bytes; `shared`: over a SharedArrayBuffer, which codec workers read without a copy.
   */
  take(length: number, shared: boolean): Uint8Array {
    // A lone read gets a buffer of its exact length: it may be the only read, and a kept buffer serves the next one as
    // large.
    const alone = this.lent === 0;
    this.lent++;
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const buffer = this.free[i]!;
      if (
        buffer.length >= length &&
        isShared(buffer) === shared &&
        (best < 0 || buffer.length < this.free[best]!.length)
      )
        best = i;
    }
    if (best >= 0) return this.free.splice(best, 1)[0]!;
    // None fits: one free buffer makes way, so the pool never grows past the reads in flight.
    this.free.pop();
    const size = alone ? length : roundedUp(length);
    return shared ? new Uint8Array(new SharedArrayBuffer(size)) : new Uint8Array(size);
  }

  /** Give a buffer back; `reuse: false` drops it (someone may still write into it). */
  give(buffer: Uint8Array, reuse = true): void {
    this.lent--;
    if (reuse) this.free.push(buffer);
    if (this.lent > 0) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.lent === 0) this.keepAtMost(RETAINED_BYTES);
    }, IDLE_MS);
    // A pending trim must not keep a process (or a test) alive.
    (this.idleTimer as { unref?: () => void }).unref?.();
  }

  /** Drop free buffers, largest first, until they hold at most `bytes`. */
  private keepAtMost(bytes: number): void {
    this.free.sort((a, b) => a.length - b.length);
    let held = this.free.reduce((sum, buffer) => sum + buffer.length, 0);
    while (held > bytes) held -= this.free.pop()!.length;
  }
}

/** What the pool keeps once idle: a few inner chunks' worth, never a whole read's buffers. */
const RETAINED_BYTES = 2 * 2 ** 20;

/** How long free buffers outlive the last use before the pool shrinks to RETAINED_BYTES. */
const IDLE_MS = 1000;

/**
 * `n` rounded up to the next eighth of its power of two, so values of similar sizes (shards, compressed chunks) share
 * buffers.
 */
function roundedUp(n: number): number {
  const step = 2 ** Math.max(0, Math.floor(Math.log2(Math.max(1, n))) - 3);
  return Math.ceil(n / step) * step;
}

const pool = new ScratchPool();

/** Whether `view` lies in shared memory (a SharedArrayBuffer), which codec workers read and write as it is. */
export function isShared(view: ArrayBufferView): boolean {
  return typeof SharedArrayBuffer === "function" && view.buffer instanceof SharedArrayBuffer;
}

/** Whether this runtime has shared memory: Node, and browsers only when cross-origin isolated. */
export function sharedMemory(): boolean {
  return (
    typeof SharedArrayBuffer === "function" &&
    (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== false
  );
}

/** Whether `out` is a region of a result over a SharedArrayBuffer (`get(selection, { shared: true })`). */
export function isSharedRegion(out: ArrayRegion): boolean {
  const data = out.chunk.data;
  return !Array.isArray(data) && isShared(data);
}

/**
 * `use` of bytes [offset, offset + length) of `value`, read with
 * `getRangeInto` into a pooled buffer (fewer bytes at the end of the value;
 * undefined when it does not exist). The bytes are lent: the buffer serves
 * another read once `use` settles, so `use` must be done with them by then
 * and keep no reference (decoders copy out of them into the result).
 * `shared`: the buffer is over a SharedArrayBuffer, which codec workers
 * decode from without a copy of their own (reads into a shared result).
 */
export async function withRangeRead<T>(
  value: StoredValue & Required<Pick<StoredValue, "getRangeInto">>,
  range: WindowQuery,
  options: ReadOptions,
  use: (bytes: Uint8Array | undefined) => Promise<T>,
  shared = false,
): Promise<T> {
  const buffer = pool.take(range.length, shared);
  try {
    const read = await value.getRangeInto(range, buffer, options);
    return await use(read === undefined ? undefined : buffer.subarray(0, read));
  } finally {
    pool.give(buffer);
  }
}

/**
 * `use` of a pooled buffer of `length` bytes (shared memory when `shared`),
 * lent until `use` settles: `use` and any work it starts must be done with
 * the bytes by then and keep no reference.
 */
export async function withScratch<T>(
  length: number,
  shared: boolean,
  use: (buffer: Uint8Array) => Promise<T>,
): Promise<T> {
  const buffer = pool.take(length, shared);
  try {
    return await use(buffer.subarray(0, length));
  } finally {
    pool.give(buffer);
  }
}

/**
 * A lent value read short: fewer bytes than it held when lent, so it changed
 * (was cut short in place) while being read. Plan again from what is there now.
 */
export function changedWhileRead(key: string, end: number): PreconditionFailedError {
  return new PreconditionFailedError(
    `${JSON.stringify(key)} changed while it was being read: it ended at byte ${end}, short of what was lent`,
    { key },
  );
}
