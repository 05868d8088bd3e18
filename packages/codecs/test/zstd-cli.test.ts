// zstd against Debian's zstd command-line tool (libzstd 1.5.4, the release
// the decoder is built from; the encoder is 1.5.7's): frames the CLI writes at
// many levels and settings decode here, frames written here decode with the
// CLI. That the encoder writes libzstd's own bytes is tooling/zstd-wasm's test
// (test/encoder-native.test.ts). Skipped, with the reason printed, where
// /usr/bin/zstd is absent (tooling/ci/install-system-deps.sh installs it).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BytesToBytesCodec, CorruptDataError, UnsupportedError } from "@zarrkit/registry";
import { concatBytes } from "@zarrkit/util";
import { afterAll, describe, expect, test } from "vitest";
import { zstdCodecFactory } from "../src/zstd.js";
import { declaredContentSize } from "../src/zstd-frames.js";
import { create, sameBytes, sampleBytes } from "./helpers.js";

const ZSTD = "/usr/bin/zstd";
const skipReason = existsSync(ZSTD) ? undefined : `${ZSTD} is absent (apt-get install zstd)`;
if (skipReason) console.log(`zstd CLI tests skipped: ${skipReason}`);

const dir = mkdtempSync(join(tmpdir(), "zarrkit-zstd-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI's output for `data`: from a file (the frame declares its size) or from stdin (it does not). */
function cli(args: string[], data: Uint8Array, from: "file" | "stdin" = "file"): Uint8Array {
  const input = join(dir, "input");
  if (from === "file") writeFileSync(input, data);
  const run = spawnSync(ZSTD, ["-q", "-c", ...args, ...(from === "file" ? [input] : [])], {
    input: from === "stdin" ? data : undefined,
    maxBuffer: 1 << 30,
  });
  if (run.status !== 0) throw new Error(`zstd ${args.join(" ")}: ${run.stderr.toString()}`);
  return new Uint8Array(run.stdout);
}

/** 64^3 uint16 of smooth data with noise in the low bits, as a volume chunk. */
function volume(seed: number): Uint8Array {
  const out = new Uint16Array(64 ** 3);
  let state = seed;
  for (let i = 0; i < out.length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    out[i] = 30000 + Math.round(2000 * Math.sin(i / 20000) + 300 * Math.sin(i / 300)) + (state >>> 28);
  }
  return new Uint8Array(out.buffer);
}

const ctx = { key: "vol/c/0/0/0" };
const codec = () => create<BytesToBytesCodec>(zstdCodecFactory, {});

describe.skipIf(skipReason !== undefined)("frames written by the zstd CLI", () => {
  const data = volume(7);

  test.each([
    ["--fast=5 (level -5)", ["--fast=5"]],
    ["--fast=1000", ["--fast=1000"]],
    ["-1", ["-1"]],
    ["-3", ["-3"]],
    ["-9", ["-9"]],
    ["-19", ["-19"]],
    ["--ultra -22", ["--ultra", "-22"], 100_000],
    ["-3 --long", ["-3", "--long"]],
    ["-19 --long=30", ["-19", "--long=30"]],
    ["-3 --no-check", ["-3", "--no-check"]],
  ] as [string, string[], number?][])(
    "%s, with and without a content size, decode to the input",
    async (_name, args, size) => {
      const zstd = await codec();
      const data = volume(7).subarray(0, size);
      for (const from of ["file", "stdin"] as const) {
        const frame = cli(args, data, from);
        expect(declaredContentSize(frame)).toBe(from === "file" ? data.length : undefined);
        expect(sameBytes(await zstd.decode(frame, { ...ctx, maxDecodedBytes: data.length }), data)).toBe(true);
      }
    },
  );

  test(
    "a window of 2 GiB (--long=31 from stdin) is UnsupportedError: 32-bit zstd reads windows up " + "to 1 GiB",
    async () => {
      const frame = cli(["-3", "--long=31"], data, "stdin");
      const error = await Promise.resolve(
        (await codec()).decode(frame, { ...ctx, maxDecodedBytes: data.length }),
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnsupportedError);
      expect((error as UnsupportedError).message).toMatch(/window/);
      expect((error as UnsupportedError).key).toBe(ctx.key);
    },
  );

  test("several frames, with and without sizes, and skippable frames between them", async () => {
    const parts = [volume(1), sampleBytes(1000, "noise"), new Uint8Array(0), volume(2).subarray(0, 70_000)];
    const skippable = (n: number) =>
      new Uint8Array([0x50 + n, 0x2a, 0x4d, 0x18, n, 0, 0, 0, ...new Uint8Array(n).fill(0xee)]);
    const frames = [
      cli(["-1"], parts[0]!),
      skippable(3),
      cli(["--fast=3"], parts[1]!, "stdin"),
      skippable(0),
      cli(["-19"], parts[2]!),
      cli(["-3", "--no-check"], parts[3]!, "stdin"),
      skippable(15),
    ];
    const stream = concatBytes(frames);
    const expected = concatBytes(parts);
    const total = expected.length;
    expect(sameBytes(await (await codec()).decode(stream, { ...ctx, maxDecodedBytes: total }), expected)).toBe(true);
    // One byte short of the total: the cap stops decoding.
    const error = await Promise.resolve((await codec()).decode(stream, { ...ctx, maxDecodedBytes: total - 1 })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CorruptDataError);
    expect((error as CorruptDataError).key).toBe(ctx.key);
  });

  test("a damaged CLI frame is CorruptDataError naming the key: checksum, block data, sizes", async () => {
    const zstd = await codec();
    const frame = cli(["-3"], data);
    const damaged = (at: number, xor: number) => frame.map((b, i) => (i === at ? b ^ xor : b));
    for (const bytes of [
      damaged(frame.length - 1, 0x01),
      damaged(frame.length >> 1, 0x10),
      damaged(6, 0x01),
      frame.subarray(0, frame.length - 1),
    ]) {
      const error = await Promise.resolve(zstd.decode(bytes, { ...ctx, maxDecodedBytes: data.length })).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(CorruptDataError);
      expect((error as CorruptDataError).key).toBe(ctx.key);
    }
  });
});

describe.skipIf(skipReason !== undefined)("frames written here decode with the zstd CLI", () => {
  const data = volume(11);

  test.each<[{ level: number; checksum?: boolean }, Record<string, unknown>]>([
    [{ level: -5 }, {}],
    [{ level: -5, checksum: true }, {}],
    [{ level: 0 }, {}],
    [{ level: 1 }, {}],
    [{ level: 1, checksum: true }, {}],
    [{ level: 3, checksum: true }, {}],
    [{ level: 19 }, {}],
    [{ level: 19, checksum: true }, {}],
    [{ level: 3, checksum: true }, { longDistanceMatching: true }],
  ])("%j %j", async (configuration, options) => {
    const zstd = (await zstdCodecFactory(configuration, {
      spec: {
        shape: [1],
        dataType: { name: "uint8", kind: "uint", byteSize: 1, lanes: 1, allocate: (n) => new Uint8Array(n) },
        fillValue: 0,
      },
      field: "codecs[1]",
      options,
      pipeline: { codecOptions: {} },
    })) as BytesToBytesCodec;
    const frame = await zstd.encode(data, ctx);
    expect(declaredContentSize(frame)).toBe(data.length);
    expect(sameBytes(cli(["-d"], frame, "stdin"), data)).toBe(true);
    // The CLI's own listing confirms the checksum flag.
    writeFileSync(join(dir, "ours.zst"), frame);
    const listing = spawnSync(ZSTD, ["-lv", join(dir, "ours.zst")], { encoding: "utf8" }).stdout;
    expect(listing).toMatch(configuration.checksum ? /Check: XXH64/ : /Check: None/);
  });
});
