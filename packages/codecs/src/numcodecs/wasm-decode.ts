// Decoding into a capped buffer of wasm memory, shared by the bzip2 and xz
// decoders (tooling/zstd-wasm/src/{bz2,xz}-decode.c): neither format states
// its decoded size up front, so the output buffer starts at a guess and
// doubles, never past one byte more than the cap.
import { UnsupportedError } from "@zarrkit/registry";
import { tooLarge } from "../limits.js";
import { type LazyInstance, type WasmHeap, withAllocation } from "../wasm-instance.js";

/** The C side's results beyond each library's own errors. */
export const OUTPUT_FULL = -20;
export const TRUNCATED = -21;

/** The largest output a call can report (its result is an i32). */
const MAX_OUTPUT = 2 ** 31 - 2;

/**
 * Caps up to this are allocated at once (core's cap is the chunk's exact size
 * for fixed-size types, so chunks decode in one pass); above, the capacity
 * starts at FIRST_GUESS (or 8x the input) and doubles, so a loose cap is not
 * allocated unless the data really decodes that far.
 */
const ONE_PASS_BYTES = 64 * 2 ** 20;
const FIRST_GUESS = 4 * 2 ** 20;

/** How to run one module's decoder. */
export interface CappedDecoder<T extends WasmHeap> {
  lazy: LazyInstance<T>;
  /** For messages: "bzip2", "xz". */
  format: string;
  /** Runs the decoder: the decoded size, or a negative code. */
  call(instance: T, dst: number, capacity: number, src: number, size: number): number;
  /** The library's codes as messages. */
  describe(code: number): string;
  /** Codes that mean valid data this build refuses (UnsupportedError rather than corrupt data). */
  unsupported?: readonly number[];
}

/**
 * Decodes `data` with `decoder`, at most `maxBytes` (a larger output is a
 * DecodedSizeError as soon as the decoder passes the cap), and copies the
 * result out.
 */
export async function decodeCapped<T extends WasmHeap>(
  { lazy, format, call, describe, unsupported = [] }: CappedDecoder<T>,
  data: Uint8Array,
  maxBytes: number | undefined,
): Promise<Uint8Array> {
  const instance = lazy.ready ?? (await lazy.instance());
  // One byte past the cap: filling it proves the output is larger than the cap.
  const last = Math.min(MAX_OUTPUT, (maxBytes ?? MAX_OUTPUT) + 1);
  let capacity = last <= ONE_PASS_BYTES ? last : Math.min(last, Math.max(FIRST_GUESS, data.length * 8));
  try {
    for (;;) {
      const result = withAllocation(instance, capacity + data.length, (dst) => {
        const src = dst + capacity;
        new Uint8Array(instance.memory.buffer, src, data.length).set(data);
        const size = call(instance, dst, capacity, src, data.length);
        // The memory may have grown during the call: view it afresh.
        return size >= 0 ? new Uint8Array(instance.memory.buffer, dst, size).slice() : size;
      });
      if (typeof result !== "number") {
        // Output of exactly cap + 1 bytes fits the last capacity and ends the stream: still past the cap.
        if (result.length === last && maxBytes !== undefined && result.length > maxBytes)
          throw tooLarge(format, maxBytes);
        return result;
      }
      if (result === TRUNCATED) throw new Error(`${format}: truncated data (the input ends inside a stream)`);
      if (unsupported.includes(result)) throw new UnsupportedError(`${format}: ${describe(result)}`);
      if (result !== OUTPUT_FULL) throw new Error(`${format}: ${describe(result)}`);
      if (capacity === last) throw tooLarge(format, maxBytes ?? MAX_OUTPUT);
      capacity = Math.min(last, capacity * 2);
    }
  } catch (error) {
    // A trap (a library's internal check) leaves the instance's state unknown: never reuse it.
    if (error instanceof WebAssembly.RuntimeError) lazy.discard(instance);
    throw error;
  } finally {
    lazy.release(instance);
  }
}
