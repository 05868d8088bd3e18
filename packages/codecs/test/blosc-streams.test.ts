import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { blosclzCompress, blosclzDecompress } from "../src/blosc/blosclz.js";
import { lz4Compress, lz4Decompress } from "../src/blosc/lz4.js";
import { bitShuffle, byteShuffle } from "../src/blosc/shuffle.js";
import { snappyCompress, snappyDecompress } from "../src/blosc/snappy.js";
import { sameBytes, sampleBytes } from "./helpers.js";

type Compress = (src: Uint8Array) => Uint8Array;
type Decompress = (src: Uint8Array, dst: Uint8Array) => void;

const FORMATS: [string, Compress, Decompress][] = [
  ["lz4", (s) => lz4Compress(s, 1), lz4Decompress],
  ["lz4 (deep search)", (s) => lz4Compress(s, 256), lz4Decompress],
  ["blosclz", blosclzCompress, blosclzDecompress],
  ["snappy", snappyCompress, snappyDecompress],
];

// Byte strings with long repeats, runs, far matches and noise: the cases LZ encoders get wrong.
const lzInput = fc.oneof(
  fc.uint8Array({ maxLength: 400 }),
  fc
    .array(
      fc.oneof(
        fc.uint8Array({ minLength: 1, maxLength: 40 }),
        fc.record({ byte: fc.integer({ min: 0, max: 255 }), count: fc.integer({ min: 1, max: 3000 }) }),
      ),
      { maxLength: 30 },
    )
    .map((parts) => {
      const out: number[] = [];
      for (const part of parts) {
        if (part instanceof Uint8Array) out.push(...part, ...part, ...part);
        else for (let i = 0; i < part.count; i++) out.push(part.byte);
      }
      return new Uint8Array(out);
    }),
);

function roundTrip(compress: Compress, decompress: Decompress, data: Uint8Array): Uint8Array {
  const packed = compress(data);
  const out = new Uint8Array(data.length);
  decompress(packed, out);
  expect(sameBytes(out, data)).toBe(true);
  return packed;
}

describe.each(FORMATS)("%s streams", (_name, compress, decompress) => {
  test("round trip arbitrary and repetitive bytes", () => {
    fc.assert(
      fc.property(lzInput, (data) => void roundTrip(compress, decompress, data)),
      { numRuns: 300 },
    );
  });

  test("round trip long inputs with distant matches, and compress them", () => {
    const block = sampleBytes(20_000, "noise", 9);
    const data = new Uint8Array(200_000);
    for (let at = 0; at < data.length; at += 30_000)
      data.set(block.subarray(0, Math.min(20_000, data.length - at)), at);
    expect(roundTrip(compress, decompress, data).length).toBeLessThan(data.length / 2);
    expect(roundTrip(compress, decompress, new Uint8Array(100_000)).length).toBeLessThan(5000);
    roundTrip(compress, decompress, sampleBytes(100_000, "noise"));
  });

  test("decoders reject truncation and never read or write out of bounds", () => {
    const data = sampleBytes(5000, "smooth", 2);
    const packed = compress(data);
    for (let cut = 0; cut < packed.length; cut++) {
      expect(() => decompress(packed.subarray(0, cut), new Uint8Array(data.length))).toThrow(Error);
    }
    expect(() => decompress(packed, new Uint8Array(data.length - 1))).toThrow(Error);
    expect(() => decompress(packed, new Uint8Array(data.length + 1))).toThrow(Error);
  });

  test("decoders fail cleanly on garbage", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 0, max: 2000 }), (garbage, size) => {
        const out = new Uint8Array(size);
        try {
          decompress(garbage, out);
        } catch (error) {
          expect(error).toBeInstanceOf(Error);
          expect((error as Error).constructor).toBe(Error);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("blosclz format details", () => {
  test("a stream ending in a match is refused, as c-blosc refuses it", () => {
    // literal run "abcd", then a match of 3 bytes at distance 4 as the last token
    const stream = new Uint8Array([3 | 0x20, 97, 98, 99, 100, 1 << 5, 3]);
    expect(() => blosclzDecompress(stream, new Uint8Array(7))).toThrow(Error);
    // the same match followed by one more literal decodes
    const out = new Uint8Array(8);
    blosclzDecompress(new Uint8Array([...stream, 0, 101]), out);
    expect(new TextDecoder().decode(out)).toBe("abcdabce");
  });

  test("far matches (distance > 8191) round trip", () => {
    const head = sampleBytes(3000, "noise", 4);
    const data = new Uint8Array(16_000);
    data.set(head, 0);
    data.set(sampleBytes(10_000, "noise", 5), 3000);
    data.set(head, 13_000);
    const packed = roundTrip(blosclzCompress, blosclzDecompress, data);
    expect(packed.length).toBeLessThan(data.length - 2500);
  });
});

describe("shuffles", () => {
  test("byte shuffle groups byte j of every element, leaving leftover bytes in place", () => {
    const src = new Uint8Array([1, 2, 3, 4, 5, 6, 7]);
    const dst = new Uint8Array(7);
    byteShuffle(src, dst, 3, false);
    expect(Array.from(dst)).toEqual([1, 4, 2, 5, 3, 6, 7]);
  });

  test("bitshuffle writes one row per bit, bit m of a row byte from element m", () => {
    const dst = new Uint8Array(8);
    bitShuffle(new Uint8Array([1, 0, 0, 0, 0, 0, 0, 0x80]), dst, 1, false);
    expect(Array.from(dst)).toEqual([1, 0, 0, 0, 0, 0, 0, 0x80]);
    bitShuffle(new Uint8Array([0xff, 0, 0, 0, 0, 0, 0, 0]), dst, 1, false);
    expect(Array.from(dst)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    // two-byte elements: rows 0-7 hold the low bytes' bits, rows 8-15 the high bytes'
    const wide = new Uint8Array(16);
    bitShuffle(new Uint8Array(new Uint16Array([0x0100, 0, 0, 0, 0, 0, 0, 0x0001]).buffer), wide, 2, false);
    expect(Array.from(wide)).toEqual([0x80, 0, 0, 0, 0, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0]);
  });

  test("bitshuffle leaves blocks whose element count is not a multiple of 8 unchanged", () => {
    const src = sampleBytes(14, "noise");
    const dst = new Uint8Array(14);
    bitShuffle(src, dst, 2, false);
    expect(sameBytes(src, dst)).toBe(true);
  });

  test.each([
    ["byte", byteShuffle],
    ["bit", bitShuffle],
  ])("%s shuffle round trips", (_name, shuffle) => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 700 }), fc.integer({ min: 1, max: 20 }), (data, typesize) => {
        const shuffled = new Uint8Array(data.length);
        const back = new Uint8Array(data.length);
        shuffle(data, shuffled, typesize, false);
        shuffle(shuffled, back, typesize, true);
        expect(sameBytes(back, data)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
