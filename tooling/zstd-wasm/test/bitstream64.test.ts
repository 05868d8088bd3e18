// The shipped decoder keeps a 64-bit bit container on wasm32 and takes libzstd's fast Huffman
// loop (src/bitstream64.patch): a change to the decoder of untrusted input. It must decode
// exactly as libzstd as released does where size_t is 64 bits: src/decode.c and
// vendor/zstd built for this machine by the pinned clang-14 (test/native-decode.c), with the
// same decoding loops (C, not x86 assembly). On frames the zstd CLI writes, and on those
// frames damaged every way a bit flip, a wrong byte or a cut can damage them, with room for
// all or for less: the same error code, or the same bytes. Needs the pinned toolchain (see
// toolchain.ts) and /usr/bin/zstd.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { content } from "./content.js";
import { buildNative, instantiate, type ModuleExports } from "./native.js";
import { toolchainMissing } from "./toolchain.js";

const here = fileURLToPath(new URL("..", import.meta.url));
const shipped = join(here, "..", "..", "packages", "codecs", "wasm", "zstd-decode.wasm");
const ZSTD = "/usr/bin/zstd";
const lib = join(here, "vendor", "zstd", "lib");
const skipReason =
  toolchainMissing("bitstream patch check") ??
  (existsSync(ZSTD) ? undefined : `${ZSTD} is absent (apt-get install zstd)`);

interface Decoder {
  /** The decoder's return value (decoded size, or a negative zstd error code) and the bytes it wrote. */
  decode(frame: Uint8Array, capacity: number): { result: number; bytes: Uint8Array };
}

async function decoder(path: string): Promise<Decoder> {
  const exports = await instantiate<
    ModuleExports & { decompress(dst: number, capacity: number, src: number, size: number): number }
  >(path);
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
/** Damaged frames a run of the native decoder takes at once (its output stays in memory). */
const PER_RUN = 50;
const dir = mkdtempSync(join(tmpdir(), "zarrkit-bitstream64-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const native = join(dir, "native-decode");
let patched: Decoder;

/** What the native build makes of each frame, with its capacity. */
function decodeNatively(inputs: { frame: Uint8Array; capacity: number }[]): { result: number; bytes: Uint8Array }[] {
  const records = inputs.flatMap(({ frame, capacity }) => {
    const header = Buffer.alloc(8);
    header.writeUInt32LE(capacity, 0);
    header.writeUInt32LE(frame.length, 4);
    return [header, frame];
  });
  const run = spawnSync(native, [], { input: Buffer.concat(records), maxBuffer: 1 << 28 });
  expect(run.status).toBe(0);
  const out = run.stdout;
  let at = 0;
  return inputs.map(() => {
    const result = out.readInt32LE(at);
    at += 4;
    const bytes = result > 0 ? out.subarray(at, at + result) : new Uint8Array(0);
    at += Math.max(result, 0);
    return { result, bytes };
  });
}

describe.skipIf(skipReason !== undefined)("the patched decoder decodes as libzstd does on 64-bit machines", () => {
  beforeAll(async () => {
    const common = ["debug", "entropy_common", "error_private", "fse_decompress", "xxhash", "zstd_common"];
    const decompress = ["huf_decompress", "zstd_ddict", "zstd_decompress", "zstd_decompress_block"];
    const sources = [...common.map((name) => `common/${name}.c`), ...decompress.map((name) => `decompress/${name}.c`)];
    // build.sh's decoding loops; the fast Huffman loop whatever this CPU has.
    const defines = ["-DZSTD_FORCE_DECOMPRESS_SEQUENCES_SHORT", "-DHUF_FORCE_DECOMPRESS_X1", "-DDYNAMIC_BMI2=0"];
    buildNative(lib, join(here, "test", "native-decode.c"), sources, defines, native);
    patched = await decoder(shipped);
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
  ] as const)("%s %j: the frame and its damaged copies decode as natively", (kind, args) => {
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
    const inputs = Array.from({ length: TRIALS }, (_, trial) => {
      let damaged = frame.slice();
      const how = trial % 4;
      if (how === 0) damaged[next(damaged.length)]! ^= 1 << next(8);
      else if (how === 1) for (let n = 2 + next(6); n > 0; n--) damaged[next(damaged.length)]! ^= 1 << next(8);
      else if (how === 2) damaged[next(damaged.length)] = next(256);
      else damaged = damaged.subarray(0, next(damaged.length));
      return { frame: damaged, capacity: trial % 5 === 0 ? next(data.length) : 2 * data.length };
    });
    const outcomes = new Set<string>();
    for (let start = 0; start < TRIALS; start += PER_RUN) {
      const batch = inputs.slice(start, start + PER_RUN);
      for (const [i, expected] of decodeNatively(batch).entries()) {
        const { frame: damaged, capacity } = batch[i]!;
        const got = patched.decode(damaged, capacity);
        expect(got.result, `trial ${start + i}`).toBe(expected.result);
        expect(Buffer.compare(got.bytes, expected.bytes), `trial ${start + i}: other bytes`).toBe(0);
        outcomes.add(got.result < 0 ? `error ${got.result}` : got.result === data.length ? "decoded" : "other size");
      }
    }
    expect(outcomes.size).toBeGreaterThan(1); // the damage reached more than one outcome
  });
});
