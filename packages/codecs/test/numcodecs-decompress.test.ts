// numcodecs.bz2 and numcodecs.lzma (libbzip2 and liblzma in wasm):
// decompression bombs stop at CodecContext.maxDecodedBytes, damaged data is
// a typed error, and what cannot be written or read says why. (Their
// agreement with Python's numcodecs, byte for byte, is in numcodecs-python.test.ts.)
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
// Python: lzma.compress(b"abc", filters=[{"id": lzma.FILTER_LZMA2, "dict_size": 1 << 30}]): asks for a 1 GiB
// dictionary.
const XZ_HUGE_DICTIONARY = Buffer.from(
  "fd377a585a000004e6d6b44602002101240000005e1fc7f901000261626300002776271a4a09d82c" +
    "00011b030b2fb9101fb6f37d010000000004595a",
  "hex",
);

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
  // The most memory each decoder may take beyond the cap (wasm memory: the output, the input, the library's state).
  const cases: [string, () => Promise<BytesToBytesCodec>, Uint8Array, number][] = [
    ["bz2 (256 MiB of zeros in 208 bytes)", () => codec(numcodecsBz2CodecFactory), BZ2_BOMB, 16 * MiB],
    ["xz (32 MiB of zeros)", () => codec(numcodecsLzmaCodecFactory), XZ_ZEROS, 16 * MiB],
    [
      "alone, unknown size (32 MiB of zeros)",
      () => codec(numcodecsLzmaCodecFactory, { format: 2 }),
      ALONE_ZEROS,
      16 * MiB,
    ],
    ["auto-detected alone", () => codec(numcodecsLzmaCodecFactory, { format: 0 }), ALONE_ZEROS, 16 * MiB],
  ];
  test.each(cases)("%s", async (label, make, bomb, limit) => {
    const c = await make();
    const cap = MiB;
    // Load the decoder's wasm and run the bomb once first: V8 compiles the hot loops again (tier-up) on first heavy
    // use, several MiB of compiler memory that is not the bomb's. A decoder that allocates for the bomb still would.
    await failure(() => c.decode(bomb, { ...ctx, maxDecodedBytes: cap }));
    let error: Error | undefined;
    const started = performance.now();
    const growth = await rssGrowth(async () => {
      error = await failure(() => c.decode(bomb, { ...ctx, maxDecodedBytes: cap }));
    });
    console.log(
      `${label}: stopped in ${(performance.now() - started).toFixed(0)} ms, rss +${(growth / MiB).toFixed(1)} MiB`,
    );
    expect(error).toBeInstanceOf(CorruptDataError);
    expect(error!.message).toContain(`more than ${cap} bytes`);
    expect(growth).toBeLessThan(limit);
  });

  test.each([
    ["bz2", numcodecsBz2CodecFactory, {}],
    ["xz", numcodecsLzmaCodecFactory, {}],
    ["alone", numcodecsLzmaCodecFactory, { format: 2 }],
  ] as const)("%s: a cap one byte short of the data is a CorruptDataError, the exact size decodes", async (...each) => {
    const [, make, config] = each;
    const c = await codec(make, config);
    const input = sampleBytes(200_000);
    const encoded = await c.encode(input, ctx);
    const error = await failure(() => c.decode(encoded, { ...ctx, maxDecodedBytes: input.length - 1 }));
    expect(error).toBeInstanceOf(CorruptDataError);
    expect(error.message).toContain(`more than ${input.length - 1} bytes`);
    expect(sameBytes(await c.decode(encoded, { ...ctx, maxDecodedBytes: input.length }), input)).toBe(true);
  });

  test("the whole xz bomb decodes when the cap allows it", async () => {
    const xz = await codec(numcodecsLzmaCodecFactory);
    expect(sameBytes(await xz.decode(XZ_ZEROS, { ...ctx, maxDecodedBytes: 32 * MiB }), new Uint8Array(32 * MiB))).toBe(
      true,
    );
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

  test("an xz stream asking for a dictionary above the cap and 64 MiB (the presets') is refused", async () => {
    const xz = await codec(numcodecsLzmaCodecFactory);
    let error: Error | undefined;
    const growth = await rssGrowth(async () => {
      error = await failure(() => xz.decode(XZ_HUGE_DICTIONARY, { ...ctx, maxDecodedBytes: MiB }));
    });
    expect(error).toBeInstanceOf(UnsupportedError);
    expect(error!.message).toMatch(/more memory than allowed/);
    expect(growth).toBeLessThan(16 * MiB);
    // With a cap that large, it decodes (the dictionary is then no more than the chunk could need).
    const decoded = await xz.decode(XZ_HUGE_DICTIONARY, { ...ctx, maxDecodedBytes: 2 ** 30 });
    expect(new TextDecoder().decode(decoded)).toBe("abc");
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
    const stream = await bz2.encode(sampleBytes(50_000), ctx);
    const flipped = stream.slice();
    flipped[stream.length >> 1]! ^= 0x04;
    for (const input of [new Uint8Array([1, 2, 3, 4, 5]), stream.subarray(0, stream.length - 20), flipped]) {
      const error = await failure(() => bz2.decode(input, { ...ctx, maxDecodedBytes: 256 * MiB }));
      expect(error).toBeInstanceOf(CorruptDataError);
      expect(error.message).toMatch(/not bzip2|truncated|corrupt data/);
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
      const error = await failure(() => c.decode(input, { ...ctx, maxDecodedBytes: MiB }));
      expect(error, error.message).toBeInstanceOf(CorruptDataError);
      expect((error as CorruptDataError).key).toBe(ctx.key);
    }
  });
});

describe("numcodecs.lzma formats", () => {
  test("xz (every check) and alone round-trip, binary and text alike", async () => {
    const inputs = [sampleBytes(20000), new TextEncoder().encode("plain text, ünïcödé ".repeat(50)), new Uint8Array(0)];
    for (const configuration of [{ format: 2, preset: 1 }, { preset: 1 }, { check: 0 }, { check: 1 }, { check: 10 }]) {
      const c = await codec(numcodecsLzmaCodecFactory, configuration);
      for (const input of inputs) {
        const encoded = await c.encode(input, ctx);
        const decoded = await c.decode(encoded, { ...ctx, maxDecodedBytes: input.length });
        expect(sameBytes(decoded, input), JSON.stringify(configuration)).toBe(true);
      }
    }
    const alone = await codec(numcodecsLzmaCodecFactory, { format: 2, preset: 1 });
    expect(alone.toJSON()).toEqual({
      name: "numcodecs.lzma",
      configuration: { format: 2, check: -1, preset: 1, filters: null },
    });
  });

  test("a damaged SHA-256 or CRC64 check is a CorruptDataError", async () => {
    for (const check of [10, 4]) {
      const c = await codec(numcodecsLzmaCodecFactory, { check });
      const encoded = await c.encode(sampleBytes(5000), ctx);
      // The block's check sits just before the index (12 bytes for one block) and the 12-byte footer.
      const damaged = encoded.slice();
      const index = damaged.length - 12 - 12; // footer 12, index (one record, padded) 12
      damaged[index - 1]! ^= 0x80;
      const error = await failure(() => c.decode(damaged, { ...ctx, maxDecodedBytes: 5000 }));
      expect(error, `check ${check}`).toBeInstanceOf(CorruptDataError);
      expect(error.message).toMatch(/corrupt data/);
    }
  });

  test("what cannot be written or read is an UnsupportedError naming the field and the reason", async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ filters: [{ id: 33 }] }, "filters", /custom filter chain/],
      [{ format: 0 }, "format", /format 0 \(auto\)/],
      [{ format: 3, filters: [{ id: 33 }] }, "format", /format 3 \(raw\)/],
      [{ format: 2, check: 4 }, "check", /integrity check/],
      [{ format: 2, filters: [{ id: 33 }] }, "filters", /custom filter chain/],
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
  });

  test("bz2 round-trips at every level", async () => {
    const input = sampleBytes(300_000);
    for (let level = 1; level <= 9; level++) {
      const bz2 = await codec(numcodecsBz2CodecFactory, { level });
      const encoded = await bz2.encode(input, ctx);
      expect(String.fromCharCode(...encoded.subarray(0, 4))).toBe(`BZh${level}`);
      expect(sameBytes(await bz2.decode(encoded, { ...ctx, maxDecodedBytes: input.length }), input)).toBe(true);
      expect(bz2.toJSON()).toEqual({ name: "numcodecs.bz2", configuration: { level } });
    }
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
    expect(
      (await codec(numcodecsLzmaCodecFactory, { format: 2, preset: 2 ** 31 + 6 })).toJSON().configuration,
    ).toMatchObject({ preset: 2 ** 31 + 6 });
  });
});
