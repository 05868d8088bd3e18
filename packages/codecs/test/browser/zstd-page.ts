// The page of the browser bundle test (test/zstd-browser.test.ts): the zstd
// codec as a bundle loads it, driven from the test through `window.zstd`.
import { type BytesToBytesCodec, resolveCodec } from "@zarrkit/registry";
// The whole package, as an application imports it: each codec a lazy chunk.
import "../../src/index.js";

const base64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""));
const bytesOf = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

async function codec(configuration: Record<string, unknown>): Promise<BytesToBytesCodec> {
  const factory = await resolveCodec("zstd", "page");
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
  async decode(frame: string, cap: number): Promise<string> {
    try {
      return base64(await (await codec({})).decode(bytesOf(frame), { key: "page/c/0", maxDecodedBytes: cap }));
    } catch (error) {
      return `${(error as Error).constructor.name}: ${(error as Error).message}`;
    }
  },
  async encode(data: string, level: number, checksum: boolean): Promise<string> {
    return base64(await (await codec({ level, checksum })).encode(bytesOf(data), { key: "page/c/0" }));
  },
};

(window as unknown as { zstd: typeof page }).zstd = page;
