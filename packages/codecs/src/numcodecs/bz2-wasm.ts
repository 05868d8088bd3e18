// bzip2 with libbzip2 1.0.8 in WebAssembly (tooling/zstd-wasm: Debian's
// source package), encoder and decoder in modules of their own, each loaded
// on first use.
import { LazyInstance, type WasmHeap, withAllocation } from "../wasm-instance.js";
import { decodeCapped } from "./wasm-decode.js";

interface Encoder extends WasmHeap {
  compress_bound(size: number): number;
  compress(dst: number, capacity: number, src: number, size: number, level: number): number;
}

interface Decoder extends WasmHeap {
  decompress(dst: number, capacity: number, src: number, size: number): number;
}

const encoder = new LazyInstance<Encoder>(() => import("./bz2-encode-wasm.js").then((m) => m.default));
const decoder = new LazyInstance<Decoder>(() => import("./bz2-decode-wasm.js").then((m) => m.default));

// libbzip2's error codes (bzlib.h).
const BZ_ERRORS: Record<number, string> = {
  [-1]: "sequence error",
  [-2]: "bad parameter",
  [-3]: "out of memory",
  [-4]: "corrupt data (a damaged block or a CRC mismatch)",
  [-5]: 'not bzip2 data (no "BZh" header)',
  [-8]: "output buffer full",
};

const describe = (code: number) => BZ_ERRORS[code] ?? `libbzip2 error ${code}`;

/** One bzip2 stream of `data`, block size `level` x 100 kB: Python's bz2.compress(data, level), byte for byte. */
export async function bz2Compress(data: Uint8Array, level: number): Promise<Uint8Array> {
  const instance = encoder.ready ?? (await encoder.instance());
  try {
    const bound = instance.compress_bound(data.length) >>> 0;
    return withAllocation(instance, data.length + bound, (src) => {
      new Uint8Array(instance.memory.buffer, src, data.length).set(data);
      const dst = src + data.length;
      const size = instance.compress(dst, bound, src, data.length, level);
      if (size < 0) throw new Error(`bzip2: cannot encode: ${describe(size)}`);
      return new Uint8Array(instance.memory.buffer, dst, size).slice();
    });
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) encoder.discard(instance);
    throw error;
  } finally {
    encoder.release(instance);
  }
}

/**
 * Decodes bzip2 streams one after another, as Python's bz2.decompress does
 * (data after a complete stream that is not bzip2 is ignored), every block's
 * CRC checked, stopping once the output would pass `maxBytes`.
 */
export function bz2Decompress(data: Uint8Array, maxBytes: number | undefined): Promise<Uint8Array> {
  if (data.length === 0) return Promise.resolve(new Uint8Array(0));
  const call = (instance: Decoder, dst: number, capacity: number, src: number, size: number) =>
    instance.decompress(dst, capacity, src, size);
  return decodeCapped({ lazy: decoder, format: "bzip2", call, describe }, data, maxBytes);
}
