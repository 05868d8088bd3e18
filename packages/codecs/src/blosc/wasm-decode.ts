// Blosc chunks of LZ4 streams (lz4, lz4hc) decoded by c-blosc 1.21.3 in
// WebAssembly (tooling/zstd-wasm, 73 kB, loaded on the first such chunk):
// 2.5-5x the TypeScript decoder's speed on uint16 volumes. The caller has
// checked the header and every stream's bounds first.
import { LazyInstance, type WasmHeap, withAllocation } from "../wasm-instance.js";

interface BloscDecoder extends WasmHeap {
  decompress(src: number, dst: number, capacity: number): number;
}

/** WASI's EBADF: c-blosc's diagnostics to stderr go nowhere. */
const EBADF = 8;
const noFiles = { fd_close: () => EBADF, fd_fdstat_get: () => EBADF, fd_seek: () => EBADF, fd_write: () => EBADF };

const decoder = new LazyInstance<BloscDecoder>(() => import("./blosc-decode-wasm.js").then((m) => m.default), {
  wasi_snapshot_preview1: noFiles,
});

/** The `nbytes` decoded bytes of a checked chunk (`chunk` is exactly its cbytes). */
export async function bloscWasmDecompress(chunk: Uint8Array, nbytes: number): Promise<Uint8Array> {
  const instance = decoder.ready ?? (await decoder.instance());
  try {
    return withAllocation(instance, chunk.length + nbytes, (src) => {
      new Uint8Array(instance.memory.buffer, src, chunk.length).set(chunk);
      const dst = src + chunk.length;
      const result = instance.decompress(src, dst, nbytes);
      if (result !== nbytes)
        throw new Error(result < 0 ? `c-blosc error ${result}` : `c-blosc decoded ${result} bytes of ${nbytes}`);
      return new Uint8Array(instance.memory.buffer, dst, nbytes).slice();
    });
  } finally {
    decoder.release(instance);
  }
}
