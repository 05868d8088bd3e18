// The shipped zstd encoder (vendor/zstd-encoder built to wasm32) writes what the same sources
// built for this machine write, byte for byte: src/encode.c and libzstd compiled natively by
// the pinned clang-14 (test/native-encode.c). So the wasm build (its flags, 32-bit size_t, our
// entry point) changes nothing in the frames. Frames of any libzstd decode with the zstd CLI
// (packages/codecs/test/zstd-cli.test.ts); only this build writes 1.5.7's bytes.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { content } from "./content.js";
import { buildNative, instantiate, type ModuleExports } from "./native.js";
import { toolchainMissing } from "./toolchain.js";

const here = fileURLToPath(new URL("..", import.meta.url));
const shipped = join(here, "..", "..", "packages", "codecs", "wasm", "zstd-encode.wasm");
const lib = join(here, "vendor", "zstd-encoder", "lib");
const skipReason = toolchainMissing("native encoder comparison");

interface Encoder {
  encode(data: Uint8Array, level: number, checksum: boolean, longDistance: boolean): Uint8Array;
}

async function wasmEncoder(path: string): Promise<Encoder> {
  const exports = await instantiate<
    ModuleExports & {
      compress_bound(size: number): number;
      compress(dst: number, capacity: number, src: number, size: number, level: number, c: number, l: number): number;
    }
  >(path);
  return {
    encode(data, level, checksum, longDistance) {
      const bound = exports.compress_bound(data.length);
      const src = exports.malloc(data.length);
      const dst = exports.malloc(bound);
      new Uint8Array(exports.memory.buffer, src, data.length).set(data);
      const result = exports.compress(dst, bound, src, data.length, level, +checksum, +longDistance);
      expect(result, `wasm encoder error ${result}`).toBeGreaterThan(0);
      const frame = new Uint8Array(exports.memory.buffer, dst, result).slice();
      exports.free(dst);
      exports.free(src);
      return frame;
    },
  };
}

const dir = mkdtempSync(join(tmpdir(), "zarrkit-encoder-native-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const native = join(dir, "native-encode");
let wasm: Encoder;

describe.skipIf(skipReason !== undefined)("the wasm encoder writes native libzstd's frames", () => {
  beforeAll(async () => {
    const sources = ["common", "compress"].flatMap((sub) =>
      readdirSync(join(lib, sub))
        .filter((name) => name.endsWith(".c"))
        .map((name) => `${sub}/${name}`),
    );
    buildNative(lib, join(here, "test", "native-encode.c"), sources, [], native);
    wasm = await wasmEncoder(shipped);
  });

  test.each([
    ["volume", 65_536, -5, false, false],
    ["volume", 65_536, 1, false, false],
    ["volume", 65_536, 3, false, false],
    ["volume", 524_288, 3, true, false],
    ["volume", 200_000, 9, false, false],
    ["volume", 200_000, 19, true, false],
    ["volume", 200_000, 3, false, true],
    ["text", 200_000, 3, false, false],
    ["text", 200_000, 19, false, false],
    ["noise", 65_536, 3, true, false],
    ["volume", 1_000, 3, false, false],
    ["volume", 0, 3, true, false],
  ] as const)("%s of %i bytes, level %i, checksum %s, long distance %s", (kind, length, level, checksum, long) => {
    const data = content(kind, length, length + level);
    const run = spawnSync(native, [String(level), String(+checksum), String(+long)], {
      input: data,
      maxBuffer: 1 << 26,
    });
    expect(run.status).toBe(0);
    const frame = wasm.encode(data, level, checksum, long);
    expect(frame.length).toBeGreaterThan(0);
    expect(Buffer.compare(frame, run.stdout)).toBe(0);
  });
});
