// zstd decoding with libzstd 1.5.4 in WebAssembly (tooling/zstd-wasm, 50 kB):
// one decoding context reused for every call, the output written straight
// into a buffer of the size the frames declare, never past it.
import { UnsupportedError } from "@zarrkit/registry";
import { tooLarge } from "../limits.js";
import { declaredContentSize } from "../zstd-frames.js";
import { LazyInstance, type WasmHeap, withAllocation } from "../wasm-instance.js";
import { DST_SIZE_TOO_SMALL, errorCode, errorName, WINDOW_TOO_LARGE } from "./error-codes.js";

interface Decoder extends WasmHeap {
  decompress(dst: number, capacity: number, src: number, size: number): number;
}

const decoder = new LazyInstance<Decoder>(() => import("./zstd-decode-wasm.js").then((m) => m.default));

/** Above this, a declared size is not trusted to size an allocation when there is no cap. */
const MAX_TRUSTED_BYTES = 2 ** 30;

/** The first capacity tried for frames that do not declare their size (doubled on each retry, up to the cap). */
const FIRST_GUESS = 1 << 20;

/**
 * Decodes every frame (skippable frames skipped; content checksums and
 * declared sizes checked). With `maxBytes`, never produces more: frames
 * declaring a larger size are refused before decoding, and frames without a
 * declared size are decoded into at most `maxBytes` (zstd stops at the first
 * block that does not fit), so a bomb costs at most the cap.
 */
export function zstdDecompress(data: Uint8Array, maxBytes?: number): Promise<Uint8Array> {
  return zstdDecompressLent(data, maxBytes, copyOut);
}

/**
 * `zstdDecompress`, but the decoded bytes are lent to `use`: a view of the
 * decoder's wasm memory, 8-byte aligned, valid only until `use` returns (no
 * buffer of their own is allocated). `use` runs only once every check passed.
 */
export async function zstdDecompressLent<R>(
  data: Uint8Array,
  maxBytes: number | undefined,
  use: (decoded: Uint8Array) => R,
): Promise<R> {
  if (data.length === 0) throw new Error("no zstd frame (0 bytes)");
  const size = declaredContentSize(data);
  if (size !== undefined && maxBytes !== undefined && size > maxBytes) {
    throw tooLarge("zstd", maxBytes, `the frames declare ${size}`);
  }
  const instance = decoder.ready ?? (await decoder.instance());
  try {
    // Without a cap, a declared size is trusted to allocate at once only up to MAX_TRUSTED_BYTES: above, the
    // capacity grows with what really decodes, so a 20-byte frame claiming gigabytes costs nothing.
    const trusted = size !== undefined && (maxBytes !== undefined || size <= MAX_TRUSTED_BYTES);
    const checked = (decoded: Uint8Array): R => {
      if (size !== undefined && decoded.length !== size) {
        throw new Error(`the frames declare ${size} decoded bytes, but decoding gave ${decoded.length}`);
      }
      return use(decoded);
    };
    if (!trusted) return decodeUnknownSize(instance, data, maxBytes, checked);
    const result = decodeWithin(instance, data, size, checked);
    if (result === TOO_SMALL) throw new Error(`the frames declare ${size} decoded bytes, but hold more`);
    return result.value;
  } finally {
    decoder.release(instance);
  }
}

function copyOut(decoded: Uint8Array): Uint8Array {
  return decoded.slice();
}

/**
 * Frames of unknown size, decoded into a capacity that starts at a guess and
 * doubles up to `maxBytes` (without a cap, up to what wasm memory holds): no
 * attempt holds more than the cap, and the work done is at most twice the cap's.
 */
function decodeUnknownSize<R>(
  instance: Decoder,
  data: Uint8Array,
  maxBytes: number | undefined,
  use: (decoded: Uint8Array) => R,
): R {
  const limit = maxBytes ?? Number.POSITIVE_INFINITY;
  let capacity = Math.min(limit, Math.max(FIRST_GUESS, data.length * 4));
  for (;;) {
    const result = decodeWithin(instance, data, capacity, use);
    if (result !== TOO_SMALL) return result.value;
    if (capacity >= limit) throw tooLarge("zstd", limit);
    capacity = Math.min(limit, capacity * 2);
  }
}

/** Returned when the decoded bytes would pass the capacity given. */
const TOO_SMALL = Symbol("too small");

/**
 * `use` of the decoded bytes, or TOO_SMALL when they would pass `capacity`;
 * other zstd errors throw. The output comes first in the allocation, so it
 * has malloc's alignment (views of any element type need no copy).
 */
function decodeWithin<R>(
  instance: Decoder,
  data: Uint8Array,
  capacity: number,
  use: (decoded: Uint8Array) => R,
): { value: R } | typeof TOO_SMALL {
  return withAllocation(instance, capacity + data.length, (dst) => {
    const src = dst + capacity;
    new Uint8Array(instance.memory.buffer, src, data.length).set(data);
    const result = instance.decompress(dst, capacity, src, data.length);
    const code = errorCode(result);
    if (code === DST_SIZE_TOO_SMALL) return TOO_SMALL;
    if (code === WINDOW_TOO_LARGE) {
      throw new UnsupportedError(`a frame needs a window above 1 GiB, the most 32-bit zstd reads (${errorName(code)})`);
    }
    if (code !== 0) throw new Error(errorName(code));
    // The memory may have grown during the call: view it afresh.
    return { value: use(new Uint8Array(instance.memory.buffer, dst, result >>> 0)) };
  });
}
