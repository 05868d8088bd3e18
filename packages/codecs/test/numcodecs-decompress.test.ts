// numcodecs.bz2 and numcodecs.lzma: decompression bombs stop at
// CodecContext.maxDecodedBytes, damaged data is a typed error, and what
// cannot be written or read says why. (Their agreement with Python's
// numcodecs is in numcodecs-python.test.ts.)
import { readFileSync } from "node:fs";
import { type BytesToBytesCodec, CorruptDataError, InvalidMetadataError, UnsupportedError } from "@zarrkit/registry";
import { describe, expect, test } from "vitest";
import { numcodecsBz2CodecFactory } from "../src/numcodecs/bz2.js";
import { numcodecsLz4CodecFactory } from "../src/numcodecs/lz4.js";
import { numcodecsLzmaCodecFactory } from "../src/numcodecs/lzma.js";
import { chunkSpec, create, ctx, FIELD, sameBytes, sampleBytes } from "./helpers.js";

const MiB = 2 ** 20;
const data = (name: string) => new Uint8Array(readFileSync(new URL(`./data/${name}`, import.meta.url)));

// Python: bz2.compress(bytes(256 * 2**20), 9): 208 bytes that inflate to 256 MiB of zeros.
const BZ2_BOMB = Buffer.from(
  "425a68393141592653590e09e2df015f8e4000c0000008200030804d4642a025a90a80973141592653590e09e2df015f8e4000c0000008200030804d4642a025a90a8" +
    "0973141592653590e09e2df015f8e4000c0000008200030804d4642a025a90a80973141592653590e09e2df015f8e4000c0000008200030804d4642a025a90a8097" +
    "3141592653590e09e2df015f8e4000c0000008200030804d4642a025a90a80973141592653591ecee4db012a3fc000c0040008200030cc0529a6aaa8491b002248f1772453850906b17caf00",
  "hex",
);
// Python: lzma.compress(bytes(32 * 2**20), preset=9) in xz (CRC64) and alone (unknown size, end marker) formats.
const XZ_ZEROS = data("zeros-32MiB.xz");
const ALONE_ZEROS = data("zeros-32MiB.lzma");

const codec = (factory: typeof numcodecsBz2CodecFactory, configuration: Record<string, unknown> = {}) =>
  create<BytesToBytesCodec>(factory, configuration, chunkSpec([16], "uint8"));

async function failure(run: () => unknown): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a failure");
}

/** Run `work`, returning how much rss grew (sampled while it ran). */
async function rssGrowth(work: () => Promise<unknown>): Promise<number> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, process.memoryUsage().rss) - before;
}

describe("decompression bombs stop at the cap", () => {
  // The most memory each decoder may take beyond the cap: LZMA-JS holds window and output as JS arrays (~8 bytes per byte each).
  const cases: [string, () => Promise<BytesToBytesCodec>, Uint8Array, number][] = [
    ["bz2 (256 MiB of zeros in 208 bytes)", () => codec(numcodecsBz2CodecFactory), BZ2_BOMB, 16 * MiB],
    ["xz (32 MiB of zeros)", () => codec(numcodecsLzmaCodecFactory), XZ_ZEROS, 16 * MiB],
    ["alone, unknown size (32 MiB of zeros)", () => codec(numcodecsLzmaCodecFactory, { format: 2 }), ALONE_ZEROS, 64 * MiB],
    ["auto-detected alone", () => codec(numcodecsLzmaCodecFactory, { format: 0 }), ALONE_ZEROS, 64 * MiB],
  ];
  test.each(cases)("%s", async (label, make, bomb, limit) => {
    const c = await make();
    const cap = MiB;
    let error: Error | undefined;
    const started = performance.now();
    const growth = await rssGrowth(async () => {
      error = await failure(() => c.decode(bomb, { ...ctx, maxDecodedBytes: cap }));
    });
    console.log(`${label}: stopped in ${(performance.now() - started).toFixed(0)} ms, rss +${(growth / MiB).toFixed(1)} MiB`);
    expect(error).toBeInstanceOf(CorruptDataError);
    expect(error!.message).toContain(`more than ${cap} bytes`);
    expect(growth).toBeLessThan(limit);
  });

  test("the whole xz bomb decodes when the cap allows it", async () => {
    const xz = await codec(numcodecsLzmaCodecFactory);
    expect(sameBytes(await xz.decode(XZ_ZEROS, { ...ctx, maxDecodedBytes: 32 * MiB }), new Uint8Array(32 * MiB))).toBe(true);
  });

  test("an alone stream declaring more than the cap is refused before decoding", async () => {
    const declared = ALONE_ZEROS.slice();
    new DataView(declared.buffer).setBigUint64(5, BigInt(32 * MiB), true);
    const alone = await codec(numcodecsLzmaCodecFactory, { format: 2 });
    const started = performance.now();
    const error = await failure(() => alone.decode(declared, { ...ctx, maxDecodedBytes: MiB }));
    expect(error).toBeInstanceOf(CorruptDataError);
    expect(error.message).toContain(`declares ${32 * MiB} bytes`);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  test("lz4 refuses a declared length past the cap before allocating", async () => {
    const lz4 = await codec(numcodecsLz4CodecFactory);
    const bomb = new Uint8Array([0, 0, 0, 0x40, 0x00]); // declares 1 GiB
    const error = await failure(() => lz4.decode(bomb, { ...ctx, maxDecodedBytes: MiB }));
    expect(error).toBeInstanceOf(CorruptDataError);
    expect(error.message).toContain(`more than ${MiB} bytes`);
  });
});

describe("damaged data is a typed error", () => {
  test("bz2: not bzip2, truncated, a flipped bit", async () => {
    const bz2 = await codec(numcodecsBz2CodecFactory);
    const bad = BZ2_BOMB.slice(0, 120);
    const flipped = new Uint8Array(BZ2_BOMB);
    flipped[40]! ^= 0x04;
    for (const input of [new Uint8Array([1, 2, 3, 4, 5]), new Uint8Array(bad), flipped]) {
      expect(await failure(() => bz2.decode(input, { ...ctx, maxDecodedBytes: 256 * MiB }))).toBeInstanceOf(CorruptDataError);
    }
    expect((await bz2.decode(new Uint8Array(0), ctx)).length).toBe(0);
  });

  test("xz and alone: wrong magic, truncation, a flipped bit", async () => {
    const xz = await codec(numcodecsLzmaCodecFactory);
    const alone = await codec(numcodecsLzmaCodecFactory, { format: 2 });
    const flippedXz = XZ_ZEROS.slice();
    flippedXz[2000]! ^= 0x01;
    for (const [c, input] of [
      [xz, ALONE_ZEROS],
      [xz, XZ_ZEROS.subarray(0, 3000)],
      [xz, flippedXz],
      [alone, new Uint8Array(8)],
      [alone, ALONE_ZEROS.subarray(0, 100)],
    ] as const) {
      // LZMA-JS reads a truncated alone stream as zeros up to its size bound: the cap keeps that short.
      const error = await failure(() => c.decode(input, { ...ctx, maxDecodedBytes: MiB }));
      expect(error, error.message).toBeInstanceOf(CorruptDataError);
      expect((error as CorruptDataError).key).toBe(ctx.key);
    }
  });
});

describe("numcodecs.lzma formats", () => {
  test("alone round-trips through LZMA-JS, binary and text alike", async () => {
    const alone = await codec(numcodecsLzmaCodecFactory, { format: 2, preset: 1 });
    for (const input of [sampleBytes(20000), new TextEncoder().encode("plain text, ünïcödé ".repeat(50)), new Uint8Array(0)]) {
      const encoded = await alone.encode(input, ctx);
      expect(sameBytes(await alone.decode(encoded, { ...ctx, maxDecodedBytes: input.length }), input)).toBe(true);
    }
    expect(alone.toJSON()).toEqual({ name: "numcodecs.lzma", configuration: { format: 2, check: -1, preset: 1, filters: null } });
  });

  test("what cannot be written or read is an UnsupportedError naming the field and the reason", async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{}, "format", /format 1 \(xz\).*no maintained JavaScript library/],
      [{ format: 0 }, "format", /format 0 \(auto\)/],
      [{ format: 3, filters: [{ id: 33 }] }, "format", /format 3 \(raw\)/],
      [{ format: 2, check: 4 }, "check", /integrity check/],
      [{ format: 2, filters: [{ id: 33 }] }, "filters", /custom filters/],
    ];
    for (const [configuration, key, message] of cases) {
      const c = await codec(numcodecsLzmaCodecFactory, configuration);
      const error = await failure(() => c.encode(sampleBytes(100), ctx));
      expect(error, JSON.stringify(configuration)).toBeInstanceOf(UnsupportedError);
      expect((error as UnsupportedError).field).toBe(`${FIELD}.configuration.${key}`);
      expect(error.message).toMatch(message);
    }
    const raw = await codec(numcodecsLzmaCodecFactory, { format: 3 });
    expect(await failure(() => raw.decode(ALONE_ZEROS, ctx))).toBeInstanceOf(UnsupportedError);
    // Stream flags byte 7 = 0x0a: SHA-256, which xz-embedded cannot verify.
    const sha = XZ_ZEROS.slice();
    sha[7] = 0x0a;
    const error = await failure(async () => (await codec(numcodecsLzmaCodecFactory)).decode(sha, ctx));
    expect(error).toBeInstanceOf(UnsupportedError);
    expect(error.message).toContain("SHA-256");
  });

  test("bz2 cannot be written, and says why", async () => {
    const bz2 = await codec(numcodecsBz2CodecFactory, { level: 9 });
    const error = await failure(() => bz2.encode(sampleBytes(10), ctx));
    expect(error).toBeInstanceOf(UnsupportedError);
    expect(error.message).toContain("GPL");
    expect(bz2.toJSON()).toEqual({ name: "numcodecs.bz2", configuration: { level: 9 } });
  });

  test("bad configurations name the field", async () => {
    for (const [factory, configuration, key] of [
      [numcodecsLzmaCodecFactory, { format: 4 }, "format"],
      [numcodecsLzmaCodecFactory, { check: 2 }, "check"],
      [numcodecsLzmaCodecFactory, { preset: 10 }, "preset"],
      [numcodecsLzmaCodecFactory, { preset: "6" }, "preset"],
      [numcodecsLzmaCodecFactory, { filters: {} }, "filters"],
      [numcodecsLzmaCodecFactory, { level: 1 }, "level"],
      [numcodecsBz2CodecFactory, { level: 0 }, "level"],
    ] as const) {
      const error = await failure(() => codec(factory, configuration));
      expect(error, JSON.stringify(configuration)).toBeInstanceOf(InvalidMetadataError);
      expect((error as InvalidMetadataError).field).toBe(`${FIELD}.configuration.${key}`);
    }
    // PRESET_EXTREME is a flag on top of a level.
    expect((await codec(numcodecsLzmaCodecFactory, { format: 2, preset: 2 ** 31 + 6 })).toJSON().configuration).toMatchObject({ preset: 2 ** 31 + 6 });
  });
});
