/**
 * Reads windows of one target file. Windows asked for together (within one
 * turn of the event loop: a ZarrArray reads its chunks concurrently) are
 * coalesced with `coalesceRanges` into as few ranged reads as the target
 * store's gap hint allows, then handed out. The first read pins the target's
 * version where its store reports one, and later reads are conditioned on it:
 * references computed for one file must not read another file's bytes at
 * the same offsets.
 */
import { type ByteRange, coalesceRanges } from "@zarrkit/util";
import {
  CorruptDataError,
  coalesceGapHint,
  NotFoundError,
  PreconditionFailedError,
  type Store,
} from "@zarrkit/registry";

interface PendingWindow extends ByteRange {
  /** The key whose reference this is, and its field, for errors. */
  context: { key: string; field: string };
  resolve(bytes: Uint8Array): void;
  reject(error: unknown): void;
}

/** One target: the store that holds it and its key there. */
export class TargetReader {
  #pending: PendingWindow[] = [];
  #version: string | undefined;

  constructor(
    private readonly store: Store,
    private readonly key: string,
    /** The target as the reference file names it, for messages. */
    readonly url: string,
    /** Largest coalesced read; a window larger than this is still read whole. */
    private readonly maxRequestBytes: number,
  ) {}

  /** Bytes [offset, offset + length) of the target; a CorruptDataError when it holds fewer. */
  read(
    offset: number,
    length: number,
    context: { key: string; field: string },
    signal?: AbortSignal,
  ): Promise<Uint8Array> {
    signal?.throwIfAborted();
    const read = new Promise<Uint8Array>((resolve, reject) => {
      this.#pending.push({ offset, length, context, resolve, reject });
      if (this.#pending.length === 1) setTimeout(() => this.#flush(), 0);
    });
    if (!signal) return read;
    // An aborted caller stops waiting; the coalesced read goes on for the others.
    return new Promise<Uint8Array>((resolve, reject) => {
      const abort = () => reject(signal.reason);
      signal.addEventListener("abort", abort, { once: true });
      read.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
    });
  }

  /** The whole target (a reference without offset and length). */
  async readWhole(context: { key: string; field: string }, signal?: AbortSignal): Promise<Uint8Array> {
    const value = await this.store.get(this.key, { signal });
    if (value === undefined) throw this.#missing(context);
    return value;
  }

  #flush(): void {
    const pending = this.#pending;
    this.#pending = [];
    const gap = coalesceGapHint(this.store, this.key) ?? 0;
    for (const group of coalesceRanges(pending, gap, this.maxRequestBytes)) {
      this.#readGroup(group.offset, group.length, group.members).catch((error) => {
        for (const member of group.members) member.reject(error);
      });
    }
  }

  async #readGroup(offset: number, length: number, members: readonly PendingWindow[]): Promise<void> {
    const bytes = await this.#readRange(offset, length, members[0]!.context);
    for (const member of members) {
      const start = member.offset - offset;
      const window = bytes.subarray(start, start + member.length);
      if (window.length < member.length) {
        const { key, field } = member.context;
        member.reject(
          new CorruptDataError(
            `The reference of ${JSON.stringify(key)} (${field}) asks for bytes ` +
              `${member.offset}-${member.offset + member.length} of ${JSON.stringify(this.url)}, ` +
              `which ends at byte ${offset + bytes.length}`,
            { key, field },
          ),
        );
        continue;
      }
      // A coalesced read is shared: each caller gets its own copy (decoders may take ownership).
      member.resolve(members.length === 1 ? window : window.slice());
    }
  }

  async #readRange(offset: number, length: number, context: { key: string; field: string }): Promise<Uint8Array> {
    const options = this.#version === undefined ? {} : { ifMatch: this.#version };
    try {
      if (typeof this.store.getRangeWithSize === "function") {
        const sized = await this.store.getRangeWithSize(this.key, { offset, length }, options);
        if (sized === undefined) throw this.#missing(context);
        this.#version ??= sized.version;
        return sized.value;
      }
      if (typeof this.store.getRange === "function") {
        const bytes = await this.store.getRange(this.key, { offset, length }, options);
        if (bytes === undefined) throw this.#missing(context);
        return bytes;
      }
    } catch (error) {
      if (error instanceof PreconditionFailedError) {
        throw new PreconditionFailedError(
          `${JSON.stringify(this.url)} changed since this reference store first read it: ` +
            "its references no longer describe it",
          { key: context.key, field: context.field, cause: error },
        );
      }
      throw error;
    }
    const whole = await this.store.get(this.key);
    if (whole === undefined) throw this.#missing(context);
    return whole.subarray(offset, offset + length);
  }

  #missing({ key, field }: { key: string; field: string }): NotFoundError {
    return new NotFoundError(
      `The reference of ${JSON.stringify(key)} (${field}) points to ${JSON.stringify(this.url)}, which does not exist`,
      {
        key,
        field,
      },
    );
  }
}
