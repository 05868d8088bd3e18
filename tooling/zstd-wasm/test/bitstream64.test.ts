// The shipped decoder keeps a 64-bit bit container on wasm32 (src/bitstream64.patch), a
// change to the decoder of untrusted input. On frames the zstd CLI writes, and on those
// frames damaged every way a bit flip, a wrong byte or a cut can damage them, it must accept
// and refuse exactly what the decoder built from the sources as released accepts and
// refuses (the same error code, the same size). Damage that neither notices (no checksum)
// decodes to garbage; where the two garbages differ, the shipped one must be native
// libzstd's (the zstd CLI, whose container is 64 bits): the patch reads bits as 64-bit
// targets do. Needs the pinned toolchain (see toolchain.ts) and /usr/bin/zstd.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { content } from "./content.js";
import { toolchainMissing } from "./toolchain.js";

const here = fileURLToPath(new URL("..", import.meta.url));
const shipped = join(here, "..", "..", "packages", "codecs", "wasm", "zstd-decode.wasm");
const ZSTD = "/usr/bin/zstd";
const skipReason =
  toolchainMissing("bitstream patch check") ??
  (existsSync(ZSTD) ? undefined : `${ZSTD} is absent (apt-get install zstd)`);

interface Decoder {
  /** The decoder's return value (decoded size, or a negative zstd error code) and the bytes it wrote. */
  decode(frame: Uint8Array, capacity: number): { result: number; bytes: Uint8Array };
}

async function decoder(path: string): Promise<Decoder> {
  const { instance } = await WebAssembly.instantiate(readFileSync(path), {
    wasi_snapshot_preview1: {
      proc_exit: () => {},
      fd_write: () => 0,
      fd_close: () => 0,
      fd_seek: () => 0,
      environ_get: () => 0,
      environ_sizes_get: () => 0,
    },
  });
  const exports = instance.exports as {
    memory: WebAssembly.Memory;
    malloc(size: number): number;
    free(pointer: number): void;
    decompress(dst: number, capacity: number, src: number, size: number): number;
    _initialize?: () => void;
  };
  exports._initialize?.();
  return {
    decode(frame, capacity) {
      const src = exports.malloc(frame.length);
      const dst = exports.malloc(capacity);
      new Uint8Array(exports.memory.buffer, src, frame.length).set(frame);
      const result = exports.decompress(dst, capacity, src, frame.length);
      const bytes = result >= 0 ? new Uint8Array(exports.memory.buffer, dst, result).slice() : new Uint8Array(0);
      exports.free(dst);
      exports.free(src);
      return { result, bytes };
    },
  };
}

const TRIALS = Number(process.env.BITSTREAM64_TRIALS ?? 400);
const dir = mkdtempSync(join(tmpdir(), "zarrkit-bitstream64-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let patched: Decoder;
let released: Decoder;

describe.skipIf(skipReason !== undefined)("the 64-bit bit container changes nothing but speed", () => {
  beforeAll(async () => {
    const build = spawnSync("bash", [join(here, "build.sh"), "--reference", dir], { encoding: "utf8" });
    expect(build.stderr).toBe("");
    expect(build.status).toBe(0);
    patched = await decoder(shipped);
    released = await decoder(join(dir, "zstd-decode.wasm"));
  });

  test.each([
    ["volume", ["-1"]],
    ["volume", ["-3", "--no-check"]],
    ["volume", ["-19"]],
    ["volume", ["--ultra", "-22", "--no-check"]],
    ["volume", ["-3", "--long", "--no-check"]],
    ["volume", ["--fast=5", "--no-check"]],
    ["text", ["-9", "--no-check"]],
    ["text", ["-19"]],
    ["noise", ["-3", "--no-check"]],
  ] as const)("%s %j: the frame and 400 damaged copies decode alike", (kind, args) => {
    const data = content(kind, 200_000, args.length * 31 + kind.length);
    const run = spawnSync(ZSTD, ["-q", "-c", ...args], { input: data, maxBuffer: 1 << 26 });
    expect(run.status).toBe(0);
    const frame = new Uint8Array(run.stdout);
    const whole = patched.decode(frame, data.length);
    expect(whole.result).toBe(data.length);
    expect(Buffer.compare(whole.bytes, data)).toBe(0);
    let state = frame.length;
    const next = (n: number) => {
      state = (state * 1103515245 + 12345) >>> 0;
      return (state >>> 8) % n;
    };
    const outcomes = new Set<string>();
    for (let trial = 0; trial < TRIALS; trial++) {
      let damaged = frame.slice();
      const how = trial % 4;
      if (how === 0) damaged[next(damaged.length)]! ^= 1 << next(8);
      else if (how === 1) for (let n = 2 + next(6); n > 0; n--) damaged[next(damaged.length)]! ^= 1 << next(8);
      else if (how === 2) damaged[next(damaged.length)] = next(256);
      else damaged = damaged.subarray(0, next(damaged.length));
      const capacity = trial % 5 === 0 ? next(data.length) : 2 * data.length;
      const a = patched.decode(damaged, capacity);
      const b = released.decode(damaged, capacity);
      if (a.result !== b.result || Buffer.compare(a.bytes, b.bytes) !== 0) {
        const native = spawnSync(ZSTD, ["-q", "-d", "-c"], { input: damaged, maxBuffer: 1 << 26 });
        if (a.result < 0)
          expect(native.status, `trial ${trial}: refused here (${a.result}), decoded natively`).not.toBe(0);
        else
          expect(Buffer.compare(a.bytes, native.stdout), `trial ${trial}: garbage other than native libzstd's`).toBe(0);
        outcomes.add("unlike the release, as native");
      }
      outcomes.add(a.result < 0 ? `error ${a.result}` : a.result === data.length ? "decoded" : "other size");
    }
    expect(outcomes.size).toBeGreaterThan(1); // the damage reached more than one outcome
  });
});
