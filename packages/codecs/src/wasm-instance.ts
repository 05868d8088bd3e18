// The WebAssembly modules built by tooling/zstd-wasm (zstd, Blosc, bzip2, xz) are shipped
// as base64 in their own modules, so bundlers split each into a chunk loaded
// on first use with no configuration, in Node and in browsers alike.

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
  /** The instance being made: calls meanwhile wait for it rather than each making one (and a wasm memory). */
  private making: Promise<T> | undefined;

  /**
   * `imports`: what the module imports, if anything; `retainedBytes`: the
   * most memory an instance keeps between calls (RETAINED_MEMORY_BYTES).
   */
  constructor(
    private readonly load: () => Promise<string>,
    private readonly imports: WebAssembly.Imports = {},
    private readonly retainedBytes = RETAINED_MEMORY_BYTES,
  ) {}

  /** The instance, when one is ready (the hot path: no promise). */
  get ready(): T | undefined {
    return this.current;
  }

  instance(): Promise<T> {
    if (this.current) return Promise.resolve(this.current);
    this.making ??= this.make().finally(() => (this.making = undefined));
    return this.making;
  }

  private async make(): Promise<T> {
    this.module ??= this.load().then((base64) => WebAssembly.compile(decodeBase64(base64)));
    const instance = await WebAssembly.instantiate(await this.module, this.imports);
    const exports = instance.exports as unknown as T & { _initialize(): void };
    exports._initialize();
    this.current = exports;
    return exports;
  }

  /** Drops the instance for good, e.g. after a trap left its state unknown. */
  discard(instance: T): void {
    if (instance === this.current) this.current = undefined;
  }

  /** Drops the instance when a call left its memory above `retainedBytes`. */
  release(instance: T): void {
    if (instance === this.current && instance.memory.buffer.byteLength > this.retainedBytes) this.current = undefined;
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
  if (pointer === 0) throw new RangeError(`cannot allocate ${size} bytes of WebAssembly memory`);
  try {
    return run(pointer);
  } finally {
    instance.free(pointer);
  }
}
