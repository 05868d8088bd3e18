// xz and alone (.lzma) with liblzma 5.4.1 in WebAssembly (tooling/zstd-wasm:
// Debian's xz-utils source package), encoder and decoder in modules of their
// own, each loaded on first use.
import { tooLarge } from "../limits.js";
import { LazyInstance, type WasmHeap, withAllocation } from "../wasm-instance.js";
import { decodeCapped, OUTPUT_FULL } from "./wasm-decode.js";

/** Python's lzma.FORMAT_XZ and lzma.FORMAT_ALONE. */
export type LzmaFormat = 1 | 2;

interface Encoder extends WasmHeap {
  compress_bound(size: number, format: number): number;
  compress(
    dst: number,
    capacity: number,
    src: number,
    size: number,
    format: number,
    preset: number,
    check: number,
  ): number;
}

interface Decoder extends WasmHeap {
  decompress(dst: number, capacity: number, src: number, size: number, format: number, memlimit: number): number;
}

// The encoder keeps up to 160 MiB between calls: preset 6 (the default) takes 94 MiB, and making that memory anew
// for every chunk made a 64 KiB chunk take 118-145 ms instead of 105-109 (best of 16, loaded 2-core VM). Presets
// 7-9 still release theirs.
const encoder = new LazyInstance<Encoder>(
  () => import("./xz-encode-wasm.js").then((m) => m.default),
  {},
  160 * 2 ** 20,
);
const decoder = new LazyInstance<Decoder>(() => import("./xz-decode-wasm.js").then((m) => m.default));

// liblzma's lzma_ret, negated by the C side.
const LZMA_ERRORS: Record<number, string> = {
  [-5]: "out of memory",
  [-6]: "the stream needs more memory than allowed (its dictionary)",
  [-7]: "not xz data (no stream header)",
  [-8]: "unsupported options (a filter, check or flag this build does not know)",
  [-9]: "corrupt data (or a failed integrity check)",
  [-10]: "truncated data",
  [-11]: "programming error",
  [-22]: "unknown format",
};
/** Valid streams this build refuses: a dictionary above the memory limit, filters or checks it lacks. */
const UNSUPPORTED = [-6, -8];

const describe = (code: number) => LZMA_ERRORS[code] ?? `liblzma error ${-code}`;

/** The largest dictionary of Python's presets (preset 8 and 9: 64 MiB), which decoding always allows. */
const PRESET_DICTIONARY_BYTES = 64 * 2 ** 20;

/**
 * One stream of `data` as Python's lzma.compress writes it with no filter
 * chain, byte for byte: format 1 (xz) with `check` (LZMA_CHECK_*: 0 none,
 * 1 CRC32, 4 CRC64, 10 SHA-256), or 2 (alone); `preset` 0-9, optionally plus
 * 2^31 (lzma.PRESET_EXTREME). Presets 7-9 need 186-674 MiB of wasm memory.
 */
export async function lzmaCompress(
  data: Uint8Array,
  format: LzmaFormat,
  preset: number,
  check: number,
): Promise<Uint8Array> {
  const instance = encoder.ready ?? (await encoder.instance());
  try {
    let capacity = instance.compress_bound(data.length, format) >>> 0;
    for (;;) {
      const result = withAllocation(instance, data.length + capacity, (src) => {
        new Uint8Array(instance.memory.buffer, src, data.length).set(data);
        const dst = src + data.length;
        const size = instance.compress(dst, capacity, src, data.length, format, preset | 0, check);
        return size >= 0 ? new Uint8Array(instance.memory.buffer, dst, size).slice() : size;
      });
      if (typeof result !== "number") return result;
      // Only LZMA1 (alone) can outgrow the first capacity, on incompressible data.
      if (result !== OUTPUT_FULL) throw new Error(`xz: cannot encode: ${describe(result)}`);
      capacity *= 2;
    }
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) encoder.discard(instance);
    throw error;
  } finally {
    encoder.release(instance);
  }
}

/**
 * Decodes xz (format 1) or alone (format 2) streams one after another, as
 * Python's lzma.decompress does (data after a complete stream that does not
 * decode is ignored), every integrity check verified, stopping once the
 * output would pass `maxBytes`. A stream whose dictionary is larger than both
 * `maxBytes` and 64 MiB (the presets' largest) is refused before it is
 * allocated (an UnsupportedError), and an alone stream declaring more than
 * `maxBytes` before decoding.
 */
export async function lzmaDecompress(
  data: Uint8Array,
  format: LzmaFormat,
  maxBytes: number | undefined,
): Promise<Uint8Array> {
  if (format === 2 && maxBytes !== undefined && data.length >= 13) {
    // The alone header: 5 property bytes, then the decoded size as uint64 LE (all ones: unknown).
    const declared = new DataView(data.buffer, data.byteOffset + 5, 8).getBigUint64(0, true);
    if (declared !== 0xffff_ffff_ffff_ffffn && declared > BigInt(maxBytes)) {
      throw tooLarge("lzma", maxBytes, `it declares ${declared} bytes`);
    }
  }
  const memlimit = Math.max(maxBytes ?? 0, PRESET_DICTIONARY_BYTES) + 2 ** 20;
  const call = (instance: Decoder, dst: number, capacity: number, src: number, size: number) =>
    instance.decompress(dst, capacity, src, size, format, memlimit);
  return decodeCapped(
    { lazy: decoder, format: format === 1 ? "xz" : "lzma", call, describe, unsupported: UNSUPPORTED },
    data,
    maxBytes,
  );
}
