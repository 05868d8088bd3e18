import { type BytesToBytesCodec, CorruptDataError, InvalidMetadataError, UnsupportedError } from "@zarrkit/registry";
import fc from "fast-check";
import Blosc from "numcodecs/blosc";
import { describe, expect, test } from "vitest";
import { bloscCodecFactory } from "../src/blosc.js";
import { bloscDecompress } from "../src/blosc/decode.js";
import { type BloscOptions, bloscCompress, computeBlocksize } from "../src/blosc/encode.js";
import { CNAMES, type Cname, SHUFFLES } from "../src/blosc/format.js";
import {
  chunkSpec,
  create,
  ctx,
  expectedArray,
  FIELD,
  fixtureBytes,
  fixtureBytesV2,
  sameBytes,
  sampleBytes,
} from "./helpers.js";

// numcodecs' Blosc is c-blosc 1.x compiled to wasm: the reference writer and reader.
// Its build always compresses with typesize 4 and does not report decoding errors.
const SHUFFLE_CODE = { noshuffle: 0, shuffle: 1, bitshuffle: 2 } as const;
const cBloscEncode = (data: Uint8Array, o: Omit<BloscOptions, "typesize">) =>
  Blosc.fromConfig({
    id: "blosc",
    cname: o.cname,
    clevel: o.clevel,
    shuffle: SHUFFLE_CODE[o.shuffle],
    blocksize: o.blocksize,
  }).encode(data);
const cBloscDecode = (data: Uint8Array) => Blosc.fromConfig({ id: "blosc" }).decode(data);

const options = (o: Partial<BloscOptions> = {}): BloscOptions => ({
  cname: "lz4",
  clevel: 5,
  shuffle: "shuffle",
  typesize: 4,
  blocksize: 0,
  ...o,
});

const blosc = (configuration: Record<string, unknown> = {}, type = "int16") =>
  create<BytesToBytesCodec>(bloscCodecFactory, configuration, chunkSpec([8], type));

async function decodeError(bytes: Uint8Array): Promise<unknown> {
  return Promise.resolve((await blosc()).decode(bytes, ctx)).catch((e: unknown) => e);
}

describe("blosc configuration", () => {
  test("fills zarr-python's defaults, typesize from the data type", async () => {
    expect((await blosc()).toJSON()).toEqual({
      name: "blosc",
      configuration: { cname: "zstd", clevel: 5, shuffle: "shuffle", typesize: 2, blocksize: 0 },
    });
    expect((await blosc({}, "uint8")).toJSON().configuration).toMatchObject({ shuffle: "bitshuffle", typesize: 1 });
    expect((await blosc({}, "string")).toJSON().configuration).toMatchObject({ typesize: 1 });
    const full = { cname: "lz4hc", clevel: 9, shuffle: "noshuffle", typesize: 8, blocksize: 65536 };
    expect((await blosc(full)).toJSON()).toEqual({ name: "blosc", configuration: full });
  });

  test.each([
    ["cname", "lz5"],
    ["cname", 1],
    ["clevel", 10],
    ["clevel", -1],
    ["shuffle", "byte"],
    ["shuffle", 1],
    ["typesize", 0],
    ["typesize", 1.5],
    ["blocksize", -1],
  ])("%s %j is invalid metadata naming the field and value", async (key, value) => {
    const error = await blosc({ [key]: value }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidMetadataError);
    expect((error as InvalidMetadataError).field).toBe(`${FIELD}.configuration.${key}`);
    expect((error as Error).message).toContain(JSON.stringify(value));
  });

  test("unknown keys are invalid metadata", async () => {
    await expect(blosc({ nthreads: 4 })).rejects.toMatchObject({ field: `${FIELD}.configuration.nthreads` });
  });
});

describe("blosc round trips", () => {
  const sizes = [0, 5, 127, 128, 4099, 100_000];
  test.each(CNAMES)("%s: every shuffle, several type sizes and sizes, read back by c-blosc too", async (cname) => {
    for (const shuffle of SHUFFLES) {
      for (const typesize of [1, 2, 3, 8, 17]) {
        for (const size of sizes) {
          const data = sampleBytes(size, "smooth", size + typesize);
          const packed = await bloscCompress(data, options({ cname, shuffle, typesize }));
          expect(sameBytes(await bloscDecompress(packed), data)).toBe(true);
          expect(sameBytes(await cBloscDecode(packed), data)).toBe(true);
        }
      }
    }
  });

  test.each([0, 1, 4, 9])("clevel %i, forced small blocks with a leftover block", async (clevel) => {
    const data = sampleBytes(50_001, "smooth", 3);
    for (const cname of CNAMES) {
      const packed = await bloscCompress(data, options({ cname, clevel, blocksize: 1000, typesize: 2 }));
      expect(sameBytes(await bloscDecompress(packed), data)).toBe(true);
      expect(sameBytes(await cBloscDecode(packed), data)).toBe(true);
    }
  });

  test("arbitrary data and settings", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 5000 }),
        fc.constantFrom(...CNAMES),
        fc.constantFrom(...SHUFFLES),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 9 }),
        fc.constantFrom(0, 128, 200, 1024),
        async (data, cname, shuffle, typesize, clevel, blocksize) => {
          const packed = await bloscCompress(data, { cname, shuffle, typesize, clevel, blocksize });
          expect(sameBytes(await bloscDecompress(packed), data)).toBe(true);
          expect(sameBytes(await cBloscDecode(packed), data)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  test("incompressible data is stored raw, as c-blosc does", async () => {
    const data = sampleBytes(10_000, "noise");
    const packed = await bloscCompress(data, options());
    expect(packed.length).toBe(data.length + 16);
    expect(packed[2]! & 0x02).toBe(0x02);
    expect(sameBytes(await bloscDecompress(packed), data)).toBe(true);
  });

  test("typesizes above 255 are written as 1, as c-blosc does", async () => {
    const data = sampleBytes(3000);
    const packed = await bloscCompress(data, options({ typesize: 300 }));
    expect(packed[3]).toBe(1);
    expect(sameBytes(await bloscDecompress(packed), data)).toBe(true);
  });

  test("the codec round trips and compresses int16 data with shuffle", async () => {
    const codec = await blosc({ cname: "lz4", clevel: 5, shuffle: "shuffle" });
    const values = Int16Array.from({ length: 50_000 }, (_, i) => Math.round(1000 * Math.sin(i / 1000)));
    const bytes = new Uint8Array(values.buffer);
    const packed = await codec.encode(bytes, ctx);
    expect(packed.length).toBeLessThan(bytes.length / 3);
    expect(sameBytes(await codec.decode(packed, ctx), bytes)).toBe(true);
  });
});

describe("blosc compatibility with c-blosc", () => {
  test.each(CNAMES)("reads what c-blosc writes with %s", async (cname) => {
    for (const shuffle of SHUFFLES) {
      for (const clevel of [1, 5, 9]) {
        for (const size of [200, 70_000, 300_001]) {
          const data = sampleBytes(size, "smooth", clevel);
          const packed = await cBloscEncode(data, { cname, shuffle, clevel, blocksize: 0 });
          expect(sameBytes(await bloscDecompress(packed), data)).toBe(true);
        }
      }
    }
  });

  // numcodecs' build predates c-blosc 1.21, which raised the cap of split blocks from 64 KB to 256 KB
  // per byte stream; the layouts agree wherever that cap does not bite.
  test("lays chunks out as c-blosc does: same block size and flags (typesize 4)", async () => {
    const cases: [Cname, number, number, number][] = [];
    for (const cname of CNAMES) {
      for (const clevel of [1, 2, 5, 9]) {
        for (const blocksize of [0, 1024, 4096]) {
          for (const size of [1000, 40_000, 60_000]) cases.push([cname, clevel, blocksize, size]);
        }
        // (zstd at clevel 9 is level 22: too slow here for large inputs; computeBlocksize is checked below)
        const large = clevel <= 2 || (cname === "zstd" && clevel < 9);
        for (const size of [300_000, 1_200_000]) if (large) cases.push([cname, clevel, 0, size]);
      }
    }
    for (const [cname, clevel, blocksize, size] of cases) {
      const data = sampleBytes(size, "smooth");
      const ours = await bloscCompress(data, options({ cname, clevel, blocksize, shuffle: "shuffle" }));
      const theirs = await cBloscEncode(data, { cname, clevel, blocksize, shuffle: "shuffle" });
      const header = (b: Uint8Array) => [b[0], b[1], b[2]! & ~0x02, b[3], ...b.subarray(4, 12)];
      expect(header(ours), `${cname} clevel ${clevel} blocksize ${blocksize}, ${size} bytes`).toEqual(header(theirs));
    }
  });

  test("computes c-blosc's block sizes", () => {
    const at = (cname: Cname, clevel: number, typesize: number, nbytes: number, blocksize = 0) =>
      computeBlocksize(options({ cname, clevel, typesize, blocksize }), typesize, nbytes);
    // split codecs: 128 KB for clevel 5, times the typesize, within 64 KB..1 MB
    expect(at("lz4", 5, 4, 3_000_000)).toBe(512 * 1024);
    expect(at("lz4", 5, 16, 30_000_000)).toBe(1 << 20);
    expect(at("lz4", 1, 1, 3_000_000)).toBe(1 << 16);
    // zstd is never split: 32 KB x 2 (high compression ratio codec) x 4 (clevel 5), x 16 at clevel 9
    expect(at("zstd", 5, 4, 3_000_000)).toBe(262_144);
    expect(at("zstd", 9, 4, 3_000_000)).toBe(1 << 20);
    expect(at("blosclz", 5, 2, 100)).toBe(100);
    expect(at("blosclz", 5, 4, 3)).toBe(1);
    // a forced block size is enlarged for split codecs too, then cut to whole elements
    expect(at("lz4", 5, 3, 1000, 500)).toBe(999);
    expect(at("zstd", 5, 3, 1000, 500)).toBe(498);
    expect(at("zstd", 5, 3, 1000, 50)).toBe(126);
  });
});

describe("blosc corrupt and unsupported chunks", () => {
  const valid = async () => bloscCompress(sampleBytes(100_000), options({ cname: "lz4", blocksize: 4096 }));

  test("every truncation is CorruptDataError naming the key", async () => {
    const packed = await valid();
    for (let cut = 0; cut < packed.length; cut += Math.ceil(packed.length / 60)) {
      const error = await decodeError(packed.subarray(0, cut));
      expect(error).toBeInstanceOf(CorruptDataError);
      expect((error as CorruptDataError).key).toBe(ctx.key);
    }
  });

  const patch = (bytes: Uint8Array, at: number, value: number) => {
    const copy = bytes.slice();
    new DataView(copy.buffer).setInt32(at, value, true);
    return copy;
  };

  test.each([
    ["a huge decoded size", (b: Uint8Array) => patch(b, 4, 0x7fff0000), /block starts does not fit|claims/],
    ["a negative decoded size", (b: Uint8Array) => patch(b, 4, -5), /negative/],
    ["a zero block size", (b: Uint8Array) => patch(b, 8, 0), /blocksize 0/],
    ["a compressed size past the end", (b: Uint8Array) => patch(b, 12, b.length + 1), /declares/],
    ["a block start past the end", (b: Uint8Array) => patch(b, 16, b.length), /starts outside/],
    ["a block start inside the header", (b: Uint8Array) => patch(b, 16, 4), /starts outside/],
    [
      "a stream size past the end",
      (b: Uint8Array) => patch(b, new DataView(b.buffer).getInt32(16, true), 1 << 30),
      /overruns/,
    ],
    ["a zero type size", (b: Uint8Array) => b.map((x, i) => (i === 3 ? 0 : x)), /typesize 0/],
    ["an unknown format version", (b: Uint8Array) => b.map((x, i) => (i === 0 ? 9 : x)), /version 9/],
  ])("%s is CorruptDataError", async (_what, damage, message) => {
    const error = await decodeError(damage(await valid()));
    expect(error).toBeInstanceOf(CorruptDataError);
    expect((error as Error).message).toMatch(message);
  });

  test.each([
    ["a Blosc2 chunk", (b: Uint8Array) => b.map((x, i) => (i === 0 ? 4 : x)), /Blosc2/],
    ["newer header flags", (b: Uint8Array) => b.map((x, i) => (i === 2 ? x | 0x08 : x)), /newer/],
    [
      "an unknown compressor",
      (b: Uint8Array) => b.map((x, i) => (i === 2 ? (x & 0x1f) | (6 << 5) : x)),
      /compressor format 6/,
    ],
    ["a newer stream format", (b: Uint8Array) => b.map((x, i) => (i === 1 ? 2 : x)), /stream format version 2/],
  ])("%s is UnsupportedError", async (_what, damage, message) => {
    const error = await decodeError(damage(await valid()));
    expect(error).toBeInstanceOf(UnsupportedError);
    expect((error as Error).message).toMatch(message);
  });

  // blosclz runs the TypeScript decoder, lz4 c-blosc's wasm (after the same checks in TypeScript).
  test.each(["blosclz", "lz4"] as const)(
    "%s: damaged bytes give a typed error or a chunk of the right size, never anything else",
    async (cname) => {
      const packed = await bloscCompress(sampleBytes(20_000), options({ cname, blocksize: 2048 }));
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: packed.length - 1 }),
          fc.integer({ min: 1, max: 255 }),
          async (at, xor) => {
            const damaged = packed.slice();
            damaged[at]! ^= xor;
            const result = await Promise.resolve((await blosc()).decode(damaged, ctx)).catch((e: unknown) => e);
            if (result instanceof Uint8Array) expect(result.length).toBe(20_000);
            else expect(result instanceof CorruptDataError || result instanceof UnsupportedError).toBe(true);
          },
        ),
        { numRuns: 400 },
      );
    },
  );
});

describe("fixtures", () => {
  test("zarr-python v3 blosc chunk (1d.contiguous.blosc.i2, zstd, typesize 4)", async ({ skip }) => {
    const raw = fixtureBytes("1d.contiguous.blosc.i2/c/0");
    const expected = expectedArray("1d.contiguous.blosc.i2");
    if (!raw || !expected) return skip("fixtures absent");
    const codec = await blosc({ typesize: 4, cname: "zstd", clevel: 5, shuffle: "noshuffle", blocksize: 0 });
    expect(Array.from(new Int16Array((await codec.decode(raw, ctx)).slice().buffer))).toEqual(expected.data);
  });

  test("zarr-python v2 blosc chunk (lz4, shuffle, stored)", async ({ skip }) => {
    const raw = fixtureBytesV2("1d.contiguous.i4/0");
    if (!raw) return skip("fixtures absent");
    expect(Array.from(new Int32Array((await (await blosc()).decode(raw, ctx)).slice().buffer))).toEqual([1, 2, 3, 4]);
  });
});
