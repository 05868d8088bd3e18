import { deflateSync, gunzipSync, gzipSync, inflateSync } from "node:zlib";
import { type BytesToBytesCodec, CorruptDataError, InvalidMetadataError } from "@zarrkit/registry";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import * as fflateDeflate from "../src/deflate-fflate.js";
import * as nodeDeflate from "../src/deflate-node.js";
import { adler32 } from "../src/adler32.js";
import { crc32 } from "../src/crc32.js";
import { gzipCodecFactory } from "../src/gzip.js";
import { zlibCodecFactory } from "../src/zlib.js";
import { create, ctx, expectedArray, FIELD, fixtureBytes, fixtureBytesV2, sameBytes, sampleBytes } from "./helpers.js";

const SIZES = [0, 1, 17, 1000, 70_000];

/** Decoding a damaged stream must throw or (when the damage hit a field no check covers) return the original. */
async function neverWrong(decode: (b: Uint8Array) => Promise<Uint8Array>, encoded: Uint8Array, original: Uint8Array) {
  let rejected = 0;
  for (let at = 0; at < encoded.length; at++) {
    const damaged = encoded.slice();
    damaged[at]! ^= 0x5a;
    try {
      expect(sameBytes(await decode(damaged), original)).toBe(true);
    } catch (error) {
      if (!(error instanceof Error) || error.name === "AssertionError") throw error;
      rejected++;
    }
  }
  return rejected;
}

describe.each([
  ["node:zlib", nodeDeflate],
  ["fflate", fflateDeflate],
])("#deflate on %s", (_name, impl) => {
  test.each(SIZES)("gzip and zlib round trip %i bytes at every level", async (size) => {
    const data = sampleBytes(size);
    for (let level = 0; level <= 9; level++) {
      expect(sameBytes(await impl.gzipDecode(await impl.gzipEncode(data, level)), data)).toBe(true);
      expect(sameBytes(await impl.zlibDecode(await impl.zlibEncode(data, level)), data)).toBe(true);
    }
  });

  test("round trips arbitrary bytes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), fc.integer({ min: 0, max: 9 }), async (data, level) => {
        expect(sameBytes(await impl.gzipDecode(await impl.gzipEncode(data, level)), data)).toBe(true);
        expect(sameBytes(await impl.zlibDecode(await impl.zlibEncode(data, level)), data)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  test("writes standard streams and reads other writers' streams", async () => {
    const data = sampleBytes(50_000, "smooth", 7);
    expect(sameBytes(gunzipSync(await impl.gzipEncode(data, 6)), data)).toBe(true);
    expect(sameBytes(inflateSync(await impl.zlibEncode(data, 6)), data)).toBe(true);
    expect(sameBytes(await impl.gzipDecode(gzipSync(data)), data)).toBe(true);
    expect(sameBytes(await impl.zlibDecode(deflateSync(data)), data)).toBe(true);
  });

  test("gzip output does not depend on the time", async () => {
    const data = sampleBytes(100);
    const first = await impl.gzipEncode(data, 5);
    expect(Array.from(first.subarray(4, 8))).toEqual([0, 0, 0, 0]);
  });

  test("rejects every truncation", async () => {
    const data = sampleBytes(2000, "noise");
    const gz = await impl.gzipEncode(data, 5);
    const z = await impl.zlibEncode(data, 5);
    for (let cut = 0; cut < gz.length; cut += 7) await expect(impl.gzipDecode(gz.subarray(0, cut))).rejects.toThrow();
    for (let cut = 0; cut < z.length; cut += 7) await expect(impl.zlibDecode(z.subarray(0, cut))).rejects.toThrow();
  });

  test("never returns wrong data for a damaged byte", async () => {
    const data = sampleBytes(600, "smooth", 3);
    const gz = await impl.gzipEncode(data, 9);
    const z = await impl.zlibEncode(data, 9);
    // Only header fields outside every check (gzip mtime/xfl/os, zlib's level hint) may pass.
    expect(await neverWrong(impl.gzipDecode, gz, data)).toBeGreaterThanOrEqual(gz.length - 6);
    expect(await neverWrong(impl.zlibDecode, z, data)).toBeGreaterThanOrEqual(z.length - 1);
  });
});

describe("#deflate on fflate checks what fflate does not", () => {
  test("a wrong CRC32 or size in the gzip trailer", async () => {
    const gz = gzipSync(sampleBytes(1000));
    const badCrc = gz.slice();
    badCrc[gz.length - 8]! ^= 1;
    await expect(fflateDeflate.gzipDecode(badCrc)).rejects.toThrow(/CRC-32 mismatch: stored 0x[0-9a-f]{8}, computed/);
    const badSize = gz.slice();
    badSize[gz.length - 4]! ^= 1;
    await expect(fflateDeflate.gzipDecode(badSize)).rejects.toThrow(/trailer declares/);
  });

  test("a huge declared size is refused before allocating it", async () => {
    const gz = gzipSync(sampleBytes(10));
    gz.set([0xff, 0xff, 0xff, 0x7f], gz.length - 4);
    await expect(fflateDeflate.gzipDecode(gz)).rejects.toThrow(/more than \d+ bytes of deflate data can hold/);
  });

  test("a wrong Adler-32", async () => {
    const z = deflateSync(sampleBytes(1000));
    z[z.length - 1]! ^= 1;
    await expect(fflateDeflate.zlibDecode(z)).rejects.toThrow(/Adler-32 mismatch/);
  });

  test("gzip header fields (extra, name, comment, header CRC) are skipped", async () => {
    const body = gzipSync(Buffer.from("hello zarr"));
    const header = [0x1f, 0x8b, 8, 0x04 | 0x08 | 0x10 | 0x02, 0, 0, 0, 0, 0, 3, 3, 0, 1, 2, 3];
    const fields = [...header, ...Buffer.from("a.bin"), 0, ...Buffer.from("comment"), 0];
    const headerCrc = crc32(new Uint8Array(fields)) & 0xffff;
    const gz = new Uint8Array([...fields, headerCrc & 0xff, headerCrc >> 8, ...body.subarray(10)]);
    expect(new TextDecoder().decode(await fflateDeflate.gzipDecode(gz))).toBe("hello zarr");
    expect(new TextDecoder().decode(await nodeDeflate.gzipDecode(gz))).toBe("hello zarr");
    gz[fields.length]! ^= 1;
    await expect(fflateDeflate.gzipDecode(gz)).rejects.toThrow(/header CRC/);
  });
});

describe.each([
  ["gzip", gzipCodecFactory, 5],
  ["zlib", zlibCodecFactory, 1],
])("%s codec", (name, factory, defaultLevel) => {
  test("defaults and toJSON", async () => {
    expect((await create(factory, {})).toJSON()).toEqual({ name, configuration: { level: defaultLevel } });
    expect((await create(factory, { level: 9 })).toJSON()).toEqual({ name, configuration: { level: 9 } });
  });

  test.each([[-1], [10], [2.5], ["5"], [null]])("level %j is invalid metadata naming the field", async (level) => {
    const error = await create(factory, { level }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidMetadataError);
    expect((error as InvalidMetadataError).field).toBe(`${FIELD}.configuration.level`);
    expect((error as Error).message).toContain(JSON.stringify(level));
  });

  test("an unknown key is invalid metadata", async () => {
    await expect(create(factory, { levle: 3 })).rejects.toMatchObject({
      name: "InvalidMetadataError",
      field: `${FIELD}.configuration.levle`,
    });
  });

  test("round trips through the codec and rejects garbage with the key", async () => {
    const codec = await create<BytesToBytesCodec>(factory, { level: 3 });
    const data = sampleBytes(5000);
    expect(sameBytes(await codec.decode(await codec.encode(data, ctx), ctx), data)).toBe(true);
    const error = await Promise.resolve(codec.decode(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), ctx)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CorruptDataError);
    expect((error as CorruptDataError).key).toBe(ctx.key);
    expect((error as Error).message).toContain(`${name}: cannot decode ${ctx.key}`);
  });
});

describe("fixtures", () => {
  test("zarr-python v3 gzip chunk (1d.contiguous.gzip.i2)", async ({ skip }) => {
    const raw = fixtureBytes("1d.contiguous.gzip.i2/c/0");
    const expected = expectedArray("1d.contiguous.gzip.i2");
    if (!raw || !expected) return skip("fixtures absent");
    const codec = await create<BytesToBytesCodec>(gzipCodecFactory, { level: 5 });
    const bytes = await codec.decode(raw, ctx);
    expect(Array.from(new Int16Array(bytes.slice().buffer))).toEqual(expected.data);
    expect(Array.from(new Int16Array((await fflateDeflate.gzipDecode(raw)).slice().buffer))).toEqual(expected.data);
  });

  test("zarr-python v2 zlib chunk (1d.contiguous.zlib.i2)", async ({ skip }) => {
    const raw = fixtureBytesV2("1d.contiguous.zlib.i2/0");
    if (!raw) return skip("fixtures absent");
    const codec = await create<BytesToBytesCodec>(zlibCodecFactory, { level: 1 });
    expect(Array.from(new Int16Array((await codec.decode(raw, ctx)).slice().buffer))).toEqual([1, 2, 3, 4]);
  });
});

describe("checksums of the fflate path", () => {
  test("known vectors", () => {
    const ascii = (s: string) => new TextEncoder().encode(s);
    expect(crc32(ascii("123456789"))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    expect(adler32(ascii("Wikipedia"))).toBe(0x11e60398);
    expect(adler32(new Uint8Array(0))).toBe(1);
    // Longer than one 5552-byte run of the modulo.
    const ones = new Uint8Array(20_000).fill(0xff);
    expect(adler32(ones)).toBe(zlibTrailer(ones));
  });
});

function zlibTrailer(data: Uint8Array): number {
  const z = deflateSync(data);
  return new DataView(z.buffer, z.byteOffset, z.byteLength).getUint32(z.length - 4);
}
