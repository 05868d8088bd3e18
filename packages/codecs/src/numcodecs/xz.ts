// xz decoding on xz-embedded compiled to WebAssembly (the module xz-decompress
// ships, in xz-wasm.ts), driven here directly: no streams, no Node built-ins.
import { concatBytes } from "@zarrkit/registry";
import { tooLarge } from "../limits.js";

interface XzExports {
  readonly memory: WebAssembly.Memory;
  create_context(): number;
  destroy_context(context: number): void;
  supply_input(context: number, length: number): void;
  get_next_output(context: number): number;
}

// xz-embedded's enum xz_ret.
const XZ_OK = 0;
const XZ_STREAM_END = 1;
const XZ_ERRORS: Record<number, string> = {
  2: "unsupported integrity check",
  3: "out of memory",
  4: "dictionary larger than the decoder allows",
  5: "not xz data",
  6: "unsupported xz options",
  7: "corrupt data (or a failed integrity check)",
  8: "truncated data",
};

let instance: Promise<XzExports> | undefined;

function xz(): Promise<XzExports> {
  instance ??= import("./xz-wasm.js").then(async ({ default: base64 }) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    return (await WebAssembly.instantiate(bytes, {})).instance.exports as unknown as XzExports;
  });
  return instance;
}

/**
 * Decode one xz stream, stopping once the output passes `maxBytes`. The
 * context is a struct of uint32 fields: buffer size, input pointer, input
 * position, input size, output pointer, output position; input is copied in
 * a buffer at a time and output read out a buffer at a time.
 */
export async function xzDecode(bytes: Uint8Array, maxBytes: number | undefined): Promise<Uint8Array> {
  const wasm = await xz();
  const context = wasm.create_context();
  const fields = () => new Uint32Array(wasm.memory.buffer, context, 6);
  const parts: Uint8Array[] = [];
  let length = 0;
  try {
    const bufferSize = fields()[0]!;
    let input = bytes;
    for (;;) {
      let f = fields();
      if (f[2] === f[3]) {
        const next = input.subarray(0, bufferSize);
        new Uint8Array(wasm.memory.buffer, f[1]!, next.length).set(next);
        wasm.supply_input(context, next.length);
        input = input.subarray(next.length);
      }
      const result = wasm.get_next_output(context);
      if (result !== XZ_OK && result !== XZ_STREAM_END) throw new Error(`xz: ${XZ_ERRORS[result] ?? `error ${result}`}`);
      f = fields();
      length += f[5]!;
      if (maxBytes !== undefined && length > maxBytes) throw tooLarge("xz", maxBytes);
      parts.push(new Uint8Array(wasm.memory.buffer, f[4]!, f[5]!).slice());
      f[5] = 0;
      if (result === XZ_STREAM_END) return concatBytes(parts);
    }
  } finally {
    wasm.destroy_context(context);
  }
}
