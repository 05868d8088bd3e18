// The page of the browser bundle test (test/lzma-browser.test.ts): the
// numcodecs.lzma codec as a bundle of the whole codecs package loads it,
// driven from the test through `window.lzma`.
import "../../src/index.js";
import { type BytesToBytesCodec, resolveCodec } from "@zarrkit/registry";

const base64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""));
const bytesOf = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

async function codec(configuration: Record<string, unknown>): Promise<BytesToBytesCodec> {
  const factory = await resolveCodec("numcodecs.lzma", "page");
  const spec = { shape: [1], dataType: { name: "uint8", kind: "uint" as const, byteSize: 1, lanes: 1, allocate: (n: number) => new Uint8Array(n) }, fillValue: 0 };
  return (await factory(configuration, { spec, field: "codecs[0]", options: {}, pipeline: { codecOptions: {} } })) as BytesToBytesCodec;
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
  async encode(data: string, preset: number): Promise<string> {
    return base64(await (await codec({ format: 2, preset })).encode(bytesOf(data), { key: "page/c/0" }));
  },
};

(window as unknown as { lzma: typeof page }).lzma = page;
