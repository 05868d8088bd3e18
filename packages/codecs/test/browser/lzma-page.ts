// The page of the browser bundle test (test/lzma-browser.test.ts): the
// numcodecs.lzma and numcodecs.bz2 codecs as a bundle of the whole codecs
// package loads them, driven from the test through `window.lzma`.
import "../../src/index.js";
import { type BytesToBytesCodec, resolveCodec } from "@zarrkit/registry";

const base64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""));
const bytesOf = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

async function codec(configuration: Record<string, unknown>, name = "numcodecs.lzma"): Promise<BytesToBytesCodec> {
  const factory = await resolveCodec(name, "page");
  const spec = {
    shape: [1],
    dataType: {
      name: "uint8",
      kind: "uint" as const,
      byteSize: 1,
      lanes: 1,
      allocate: (n: number) => new Uint8Array(n),
    },
    fillValue: 0,
  };
  return (await factory(configuration, {
    spec,
    field: "codecs[0]",
    options: {},
    pipeline: { codecOptions: {} },
  })) as BytesToBytesCodec;
}

const page = {
  /** base64 in, base64 out; errors as "<class name>: <message>". */
  async decode(format: number, stream: string, cap: number): Promise<string> {
    try {
      return base64(await (await codec({ format })).decode(bytesOf(stream), { key: "page/c/0", maxDecodedBytes: cap }));
    } catch (error) {
      return `${(error as Error).constructor.name}: ${(error as Error).message}`;
    }
  },
  async encode(data: string, format: number, preset: number): Promise<string> {
    return base64(await (await codec({ format, preset })).encode(bytesOf(data), { key: "page/c/0" }));
  },
  /** bzip2 at `level`, encoded and decoded back in the page: the stream, or an error as "<class name>: <message>". */
  async bz2(data: string, level: number): Promise<string> {
    try {
      const bz2 = await codec({ level }, "numcodecs.bz2");
      const stream = await bz2.encode(bytesOf(data), { key: "page/c/0" });
      const back = await bz2.decode(stream, { key: "page/c/0", maxDecodedBytes: atob(data).length });
      return back.length === atob(data).length ? base64(stream) : "Error: decoded a different length";
    } catch (error) {
      return `${(error as Error).constructor.name}: ${(error as Error).message}`;
    }
  },
};

(window as unknown as { lzma: typeof page }).lzma = page;
