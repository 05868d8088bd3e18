// zstd encoding with libzstd 1.5.7 in WebAssembly (tooling/zstd-wasm), loaded
// separately from the decoder: reading never loads it.
import { LazyInstance, type WasmHeap, withAllocation } from "../wasm-instance.js";
import { errorCode, errorName } from "./error-codes.js";

interface Encoder extends WasmHeap {
  compress_bound(size: number): number;
  compress(
    dst: number,
    capacity: number,
    src: number,
    size: number,
    level: number,
    checksum: number,
    longDistance: number,
  ): number;
}

const encoder = new LazyInstance<Encoder>(() => import("./zstd-encode-wasm.js").then((m) => m.default));

export interface ZstdEncodeOptions {
  /** Append a content checksum (XXH64) to the frame. */
  checksum?: boolean;
  /** Long-distance matching with a 128 MiB window, as the zstd CLI's `--long`. */
  longDistance?: boolean;
}

/**
 * One zstd frame of `data`, recording its content size. `level` as zstd
 * takes it: 0 is zstd's default (3), negative levels are the fast ones down
 * to -131072, levels above 22 act as 22.
 */
export async function zstdCompress(
  data: Uint8Array,
  level: number,
  options: ZstdEncodeOptions = {},
): Promise<Uint8Array> {
  const instance = encoder.ready ?? (await encoder.instance());
  try {
    const bound = instance.compress_bound(data.length) >>> 0;
    return withAllocation(instance, data.length + bound, (src) => {
      new Uint8Array(instance.memory.buffer, src, data.length).set(data);
      const dst = src + data.length;
      const result = instance.compress(
        dst,
        bound,
        src,
        data.length,
        level,
        options.checksum ? 1 : 0,
        options.longDistance ? 1 : 0,
      );
      const code = errorCode(result);
      if (code !== 0) throw new Error(`zstd: cannot encode: ${errorName(code)}`);
      return new Uint8Array(instance.memory.buffer, dst, result >>> 0).slice();
    });
  } finally {
    encoder.release(instance);
  }
}
