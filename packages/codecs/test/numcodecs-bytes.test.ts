// numcodecs' bytes->bytes codecs: round trips, numcodecs' known encodings,
// typed errors for corrupt data and bad configuration, decoded-size caps.
import {
  type BytesToBytesCodec,
  ChecksumError,
  CorruptDataError,
  InvalidMetadataError,
  UnsupportedError,
} from "@zarrkit/registry";
import { describe, expect, test } from "vitest";
import * as codecs from "../src/index.js";
import { fletcher32 } from "../src/numcodecs/checksums.js";
import { chunkSpec, create, ctx, FIELD, sameBytes, sampleBytes } from "./helpers.js";

const bytesCodec = (
  factory: Parameters<typeof create>[0],
  configuration: Record<string, unknown> = {},
  type = "int32",
) => create<BytesToBytesCodec>(factory, configuration, chunkSpec([4096], type));

const error = async (run: () => unknown): Promise<unknown> => {
  try {
    await run();
  } catch (e) {
    return e;
  }
  return undefined;
};

describe("numcodecs aliases of the existing compressors", () => {
  const cases: [string, Parameters<typeof create>[0], Record<string, unknown>, Record<string, unknown>][] = [
    ["numcodecs.zlib", codecs.numcodecsZlibCodecFactory, {}, { level: 1 }],
    ["numcodecs.gzip", codecs.numcodecsGzipCodecFactory, { level: 7 }, { level: 7 }],
    ["numcodecs.zstd", codecs.numcodecsZstdCodecFactory, {}, { level: 1 }],
    ["numcodecs.zstd", codecs.numcodecsZstdCodecFactory, { level: 3, checksum: false }, { level: 3, checksum: false }],
    ["numcodecs.blosc", codecs.numcodecsBloscCodecFactory, {}, { cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 }],
    [
      "numcodecs.blosc",
      codecs.numcodecsBloscCodecFactory,
      { cname: "zstd", clevel: 3, shuffle: -1, blocksize: 0, typesize: 2 },
      { cname: "zstd", clevel: 3, shuffle: -1, blocksize: 0, typesize: 2 },
    ],
  ];
  test.each(cases)(
    "%s %j round-trips and stores numcodecs' configuration",
    async (name, factory, configuration, stored) => {
      const codec = await bytesCodec(factory, configuration);
      const data = sampleBytes(20000);
      expect(sameBytes(await codec.decode(await codec.encode(data, ctx), ctx), data)).toBe(true);
      expect(codec.toJSON()).toEqual({ name, configuration: stored });
    },
  );

  test("blosc shuffle integers pick the shuffle written in the header", async () => {
    // Header byte 2 holds the flags: bit 0 byte shuffle, bit 2 bit shuffle.
    const flags = async (shuffle: number, type: string) =>
      (
        await (
          await bytesCodec(codecs.numcodecsBloscCodecFactory, { shuffle, cname: "lz4" }, type)
        ).encode(sampleBytes(8192), ctx)
      )[2]! & 0x05;
    expect(await flags(0, "int32")).toBe(0);
    expect(await flags(1, "int32")).toBe(1);
    expect(await flags(2, "int32")).toBe(4);
    expect(await flags(-1, "int32")).toBe(1);
    expect(await flags(-1, "uint8")).toBe(4);
  });

  test("bad configurations name the field", async () => {
    for (const [factory, configuration, key] of [
      [codecs.numcodecsBloscCodecFactory, { shuffle: 3 }, "shuffle"],
      [codecs.numcodecsBloscCodecFactory, { shuffle: "shuffle" }, "shuffle"],
      [codecs.numcodecsBloscCodecFactory, { cname: "lzma" }, "cname"],
      [codecs.numcodecsZlibCodecFactory, { level: 10 }, "level"],
      [codecs.numcodecsGzipCodecFactory, { levle: 1 }, "levle"],
      [codecs.numcodecsLz4CodecFactory, { acceleration: 1.5 }, "acceleration"],
      [codecs.numcodecsShuffleCodecFactory, { elementsize: -1 }, "elementsize"],
      [codecs.numcodecsCrc32CodecFactory, { location: "middle" }, "location"],
      [codecs.numcodecsFletcher32CodecFactory, { location: "end" }, "location"],
    ] as const) {
      const e = await error(() => bytesCodec(factory, configuration));
      expect(e, JSON.stringify(configuration)).toBeInstanceOf(InvalidMetadataError);
      expect((e as InvalidMetadataError).field).toBe(`${FIELD}.configuration.${key}`);
    }
  });
});

describe("numcodecs.lz4", () => {
  test("round-trips smooth, noisy, empty and constant data with a 4-byte length header", async () => {
    for (const acceleration of [1, 10]) {
      const codec = await bytesCodec(codecs.numcodecsLz4CodecFactory, { acceleration });
      for (const data of [
        sampleBytes(100000),
        sampleBytes(3000, "noise"),
        new Uint8Array(0),
        sampleBytes(70000, "zeros"),
      ]) {
        const encoded = await codec.encode(data, ctx);
        expect(new DataView(encoded.buffer, encoded.byteOffset).getInt32(0, true)).toBe(data.length);
        expect(sameBytes(await codec.decode(encoded, ctx), data)).toBe(true);
      }
    }
  });

  test("decodes a hand-made block: literals then an overlapping match", async () => {
    // Token 0x1b: 1 literal ("a") then a 15-byte match at distance 1; token 0x50: 5 closing literals.
    const block = [0x1b, 0x61, 0x01, 0x00, 0x50, 0x62, 0x63, 0x64, 0x65, 0x66];
    const encoded = new Uint8Array([21, 0, 0, 0, ...block]);
    const codec = await bytesCodec(codecs.numcodecsLz4CodecFactory);
    expect(new TextDecoder().decode(await codec.decode(encoded, ctx))).toBe(`${"a".repeat(16)}bcdef`);
  });

  test("corrupt and oversized streams are typed errors, checked before allocating", async () => {
    const codec = await bytesCodec(codecs.numcodecsLz4CodecFactory);
    const good = await codec.encode(sampleBytes(5000), ctx);
    for (const bad of [
      good.subarray(0, 3),
      good.subarray(0, good.length - 3),
      new Uint8Array([0xff, 0xff, 0xff, 0x7f, 0x00]),
    ]) {
      expect(await error(() => codec.decode(bad, ctx))).toBeInstanceOf(CorruptDataError);
    }
    const capped = await error(() => codec.decode(good, { ...ctx, maxDecodedBytes: 4999 }));
    expect(capped).toBeInstanceOf(CorruptDataError);
    expect((capped as Error).message).toContain("more than 4999 bytes");
    expect(sameBytes(await codec.decode(good, { ...ctx, maxDecodedBytes: 5000 }), sampleBytes(5000))).toBe(true);
  });
});

describe("numcodecs.shuffle", () => {
  test("places byte j of every element in plane j", async () => {
    const codec = await bytesCodec(codecs.numcodecsShuffleCodecFactory, { elementsize: 2 });
    const encoded = await codec.encode(new Uint8Array([1, 2, 3, 4, 5, 6]), ctx);
    expect([...encoded]).toEqual([1, 3, 5, 2, 4, 6]);
    expect([...(await codec.decode(encoded, ctx))]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(codec.toJSON()).toEqual({ name: "numcodecs.shuffle", configuration: { elementsize: 2 } });
    expect((await bytesCodec(codecs.numcodecsShuffleCodecFactory)).toJSON().configuration).toEqual({ elementsize: 4 });
  });

  test("lengths that are not whole elements are refused both ways", async () => {
    const codec = await bytesCodec(codecs.numcodecsShuffleCodecFactory, { elementsize: 4 });
    expect(await error(() => codec.encode(new Uint8Array(6), ctx))).toBeInstanceOf(InvalidMetadataError);
    expect(await error(() => codec.decode(new Uint8Array(6), ctx))).toBeInstanceOf(CorruptDataError);
    expect(await error(() => codec.decode(new Uint8Array(8), { ...ctx, maxDecodedBytes: 4 }))).toBeInstanceOf(
      CorruptDataError,
    );
  });
});

describe("numcodecs checksums", () => {
  test("crc32 and adler32 prefix the checksum (or append it with location end)", async () => {
    const data = new TextEncoder().encode("hello world");
    // zlib.crc32(b"hello world") = 0x0d4a1185, zlib.adler32(b"hello world") = 0x1a0b045d
    for (const [factory, value] of [
      [codecs.numcodecsCrc32CodecFactory, 0x0d4a1185],
      [codecs.numcodecsAdler32CodecFactory, 0x1a0b045d],
    ] as const) {
      const start = await bytesCodec(factory);
      const encoded = await start.encode(data, ctx);
      expect(new DataView(encoded.buffer).getUint32(0, true)).toBe(value);
      expect(sameBytes(encoded.subarray(4), data)).toBe(true);
      expect(start.checksummed).toBe(true);
      expect(start.encodedSize?.(11)).toBe(15);
      expect(start.toJSON().configuration).toEqual({});
      const end = await bytesCodec(factory, { location: "end" });
      const appended = await end.encode(data, ctx);
      expect(new DataView(appended.buffer).getUint32(11, true)).toBe(value);
      expect(end.toJSON().configuration).toEqual({ location: "end" });
      expect(sameBytes(await end.decode(appended, ctx), data)).toBe(true);
    }
  });

  test("fletcher32 matches numcodecs' known encoding", async () => {
    // numcodecs/tests/test_fletcher32.py test_known: ten int64 values and their checksum.
    const values = [1911, -2427, 1897, -2412, 2440, 873, -621, -829, 551, -2118];
    const data = new Uint8Array(new BigInt64Array(values.map(BigInt)).buffer);
    const codec = await bytesCodec(codecs.numcodecsFletcher32CodecFactory);
    const encoded = await codec.encode(data, ctx);
    expect([...encoded.subarray(80)]).toEqual([0xfd, 0x25, 0x86, 0x64]);
    expect(sameBytes(await codec.decode(encoded, ctx), data)).toBe(true);
    // Odd lengths take the last byte as a word's high byte.
    expect(fletcher32(new Uint8Array([1, 2, 3]))).toBe(
      (((0x0102 + (0x0102 + 0x0300)) << 16) | (0x0102 + 0x0300)) >>> 0,
    );
  });

  test("a flipped bit or a short value is a typed error", async () => {
    for (const factory of [
      codecs.numcodecsCrc32CodecFactory,
      codecs.numcodecsAdler32CodecFactory,
      codecs.numcodecsFletcher32CodecFactory,
    ]) {
      const codec = await bytesCodec(factory);
      const encoded = await codec.encode(sampleBytes(1000), ctx);
      for (const at of [0, 3, 500, encoded.length - 1]) {
        const bad = encoded.slice();
        bad[at]! ^= 0x10;
        expect(await error(() => codec.decode(bad, ctx))).toBeInstanceOf(ChecksumError);
      }
      expect(await error(() => codec.decode(new Uint8Array(3), ctx))).toBeInstanceOf(CorruptDataError);
    }
  });
});

test("unsupported stays a distinct error class", () => {
  expect(new UnsupportedError("x")).not.toBeInstanceOf(CorruptDataError);
});
