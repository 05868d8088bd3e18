// The zstd WebAssembly modules (tooling/zstd-wasm) are shipped as base64 in
// their own modules, so bundlers split each into a chunk loaded on first use
// with no configuration, in Node and in browsers alike.

/** What both modules export: their memory and libc's allocator. */
export interface WasmHeap {
  readonly memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(pointer: number): void;
}

/**
 * Above this much wasm memory after a call, the instance is dropped (the next
 * call instantiates a fresh one from the compiled module): wasm memory never
 * shrinks, so one huge chunk would otherwise pin its size for good.
 */
const RETAINED_MEMORY_BYTES = 64 * 2 ** 20;

/** One instance of a module, created on first use and replaced after a call that left its memory large. */
export class LazyInstance<T extends WasmHeap> {
  private module: Promise<WebAssembly.Module> | undefined;
  private current: T | undefined;

  constructor(private readonly load: () => Promise<string>) {}

  /** The instance, when one is ready (the hot path: no promise). */
  get ready(): T | undefined {
    return this.current;
  }

  async instance(): Promise<T> {
    if (this.current) return this.current;
    this.module ??= this.load().then((base64) => WebAssembly.compile(decodeBase64(base64)));
    const instance = await WebAssembly.instantiate(await this.module, {});
    const exports = instance.exports as unknown as T & { _initialize(): void };
    exports._initialize();
    this.current ??= exports;
    return this.current;
  }

  /** Drops the instance when a call left its memory above RETAINED_MEMORY_BYTES. */
  release(instance: T): void {
    if (instance === this.current && instance.memory.buffer.byteLength > RETAINED_MEMORY_BYTES) this.current = undefined;
  }
}

function decodeBase64(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * Calls `run` with `size` bytes of the instance's memory, freed afterwards.
 * Throws when the memory cannot grow that far (wasm32 tops out at 4 GiB).
 */
export function withAllocation<T extends WasmHeap, R>(instance: T, size: number, run: (pointer: number) => R): R {
  const pointer = size > 0xffff_0000 ? 0 : instance.malloc(size);
  if (pointer === 0) throw new RangeError(`zstd: cannot allocate ${size} bytes of WebAssembly memory`);
  try {
    return run(pointer);
  } finally {
    instance.free(pointer);
  }
}

// zstd's error codes (zstd_errors.h), for messages: the module is built without zstd's error strings.
const ERROR_NAMES: Record<number, string> = {
  1: "generic error",
  10: "unknown frame magic",
  12: "unsupported frame version",
  14: "unsupported frame parameter",
  16: "window too large",
  20: "corrupted data",
  22: "checksum mismatch",
  24: "bad literals header",
  30: "corrupted dictionary",
  32: "wrong dictionary",
  40: "unsupported parameter",
  42: "parameter out of bounds",
  44: "table log too large",
  46: "max symbol value too large",
  48: "max symbol value too small",
  64: "out of memory",
  70: "destination too small",
  72: "wrong source size (truncated or trailing data)",
};

/** zstd's results are sizes, or errors as (size_t)-code: an i32 in [-120, -1] read from JavaScript. */
const MAX_ERROR_CODE = 120;

/** The zstd error code of a result, or 0 when it is a size. */
export function errorCode(result: number): number {
  return result < 0 && result >= -MAX_ERROR_CODE ? -result : 0;
}

export function errorName(code: number): string {
  return `${ERROR_NAMES[code] ?? "error"} (zstd error ${code})`;
}

/** The DST_SIZE_TOO_SMALL error: the output would pass the capacity given. */
export const DST_SIZE_TOO_SMALL = 70;

/** A frame's window is above ZSTD_WINDOWLOG_MAX_32 (1 GiB): valid zstd, beyond what a 32-bit build reads. */
export const WINDOW_TOO_LARGE = 16;
