// Decompression bombs: every decoder honours CodecContext.maxDecodedBytes
// while it decodes, so a small stored chunk cannot make it inflate gigabytes.
// Each case prints the memory it took (rss, arrayBuffers growth, peak rss).
import { constants, deflateRawSync } from "node:zlib";
import { createArray, CorruptDataError, MemoryStore } from "@zarrkit/core";
import { describe, expect, test } from "vitest";
import "../src/index.js";
import { bloscDecompress } from "../src/blosc/decode.js";
import { bloscCodecFactory } from "../src/blosc.js";
import * as fflateDeflate from "../src/deflate-fflate.js";
import * as nodeDeflate from "../src/deflate-node.js";
import { gzipCodecFactory } from "../src/gzip.js";
import { zlibCodecFactory } from "../src/zlib.js";
import { zstdCodecFactory } from "../src/zstd.js";
import { zstdDecompress } from "../src/zstd/decode.js";
import { zstdCompress } from "../src/zstd/encode.js";
import { chunkSpec, create, sampleBytes } from "./helpers.js";

const MiB = 2 ** 20;
/** What a bomb may cost beyond the cap. */
const SLACK = 64 * MiB;

/**
 * Run `work` and report how much memory it took: growth of rss and arrayBuffers (sampled while it runs) and of peak
 * rss.
 */
async function measured(label: string, work: () => Promise<unknown>): Promise<{ rss: number; arrayBuffers: number }> {
  const before = process.memoryUsage();
  const maxRssBefore = process.resourceUsage().maxRSS * 1024;
  let peak = { rss: before.rss, arrayBuffers: before.arrayBuffers };
  const sample = () => {
    const now = process.memoryUsage();
    peak = { rss: Math.max(peak.rss, now.rss), arrayBuffers: Math.max(peak.arrayBuffers, now.arrayBuffers) };
  };
  const timer = setInterval(sample, 5);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(timer);
    sample();
  }
  const growth = { rss: peak.rss - before.rss, arrayBuffers: peak.arrayBuffers - before.arrayBuffers };
  const peakRss = process.resourceUsage().maxRSS * 1024 - maxRssBefore;
  console.log(
    `${label}: ${(performance.now() - started).toFixed(0)} ms, rss +${(growth.rss / MiB).toFixed(1)} MiB, ` +
      `arrayBuffers +${(growth.arrayBuffers / MiB).toFixed(1)} MiB, peak rss +${(peakRss / MiB).toFixed(1)} MiB`,
  );
  return growth;
}

async function expectBounded(label: string, cap: number, work: () => unknown): Promise<unknown> {
  let caught: unknown;
  const growth = await measured(label, async () => {
    try {
      await work();
    } catch (error) {
      caught = error;
    }
  });
  expect(growth.rss).toBeLessThan(cap + SLACK);
  expect(growth.arrayBuffers).toBeLessThan(cap + SLACK);
  return caught;
}

/**
 * Raw deflate that inflates to `copies` x 16 MiB of zeros: one sync-flushed 16 MiB segment repeated, then a final empty
 * block.
 */
function deflateBombBody(copies: number): Uint8Array {
  const segment = deflateRawSync(new Uint8Array(16 * MiB), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const out = new Uint8Array(segment.length * copies + 5);
  for (let i = 0; i < copies; i++) out.set(segment, i * segment.length);
  out.set([0x01, 0x00, 0x00, 0xff, 0xff], segment.length * copies);
  return out;
}

/** A gzip member around `body`; `isize` is what the trailer claims (the CRC is never reached). */
function gzipOf(body: Uint8Array, isize: number): Uint8Array {
  const out = new Uint8Array(10 + body.length + 8);
  out.set([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
  out.set(body, 10);
  new DataView(out.buffer).setUint32(out.length - 4, isize >>> 0, true);
  return out;
}

function zlibOf(body: Uint8Array): Uint8Array {
  const out = new Uint8Array(2 + body.length + 4);
  out.set([0x78, 0x9c]);
  out.set(body, 2);
  return out;
}

/** A zstd frame without a declared content size: `blocks` RLE blocks of 128 KiB each (4 bytes per block). */
function zstdBomb(blocks: number): Uint8Array {
  const out = new Uint8Array(6 + 4 * blocks);
  out.set([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38]); // magic, no FCS / not single segment, window 128 KiB
  for (let b = 0; b < blocks; b++) {
    const header = ((128 * 1024) << 3) | (1 << 1) | (b === blocks - 1 ? 1 : 0);
    out.set([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff, 0x00], 6 + 4 * b);
  }
  return out;
}

/** A zstd frame that declares `size` bytes (8-byte FCS) but holds one RLE block. */
function zstdDeclaring(size: number): Uint8Array {
  const out = new Uint8Array(4 + 1 + 8 + 4);
  out.set([0x28, 0xb5, 0x2f, 0xfd, 0xe0]); // FCS 8 bytes, single segment
  new DataView(out.buffer).setBigUint64(5, BigInt(size), true);
  const header = (16 << 3) | (1 << 1) | 1;
  out.set([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff, 0], 13);
  return out;
}

const gzipBomb = gzipOf(deflateBombBody(128), 4096); // 2 MB stored, 2 GiB inflated

describe("decompression bombs stop at the cap (CodecContext.maxDecodedBytes)", () => {
  test(
    "gzip bomb: a 2 MB chunk of a 4 KiB array chunk is a CorruptDataError, with bounded memory " + "(node:zlib)",
    async () => {
      expect(gzipBomb.length).toBeGreaterThan(1.5 * MiB);
      const gzip = await create<import("@zarrkit/registry").BytesToBytesCodec>(gzipCodecFactory, {});
      const error = await expectBounded("gzip bomb, node:zlib", 4096, () =>
        gzip.decode(gzipBomb, { key: "a/c/0", maxDecodedBytes: 4096 }),
      );
      expect(error).toBeInstanceOf(CorruptDataError);
      expect((error as Error).message).toMatch(/more than 4096 bytes/);
      expect((error as CorruptDataError).key).toBe("a/c/0");
      const zlib = await create<import("@zarrkit/registry").BytesToBytesCodec>(zlibCodecFactory, {});
      const zlibBomb = zlibOf(deflateBombBody(128));
      const zlibError = await expectBounded("zlib bomb, node:zlib codec", 4096, () =>
        zlib.decode(zlibBomb, { key: "z/c/0", maxDecodedBytes: 4096 }),
      );
      expect(zlibError).toBeInstanceOf(CorruptDataError);
    },
  );

  test(
    "gzip and zlib bombs through fflate stop at the cap (streaming count), whatever the " + "trailer claims",
    async () => {
      // Built before measuring: making a bomb takes 16 MiB of zeros and deflate's state, which the decoders must not be
      // charged.
      const body = deflateBombBody(128);
      const honestGzip = gzipOf(body, 2 ** 31);
      const zlibBomb = zlibOf(body);
      for (const [label, run] of [
        ["gzip bomb, fflate, trailer lies", () => fflateDeflate.gzipDecode(gzipBomb, 4096)],
        ["gzip bomb, fflate, trailer honest", () => fflateDeflate.gzipDecode(honestGzip, 4096)],
        ["zlib bomb, fflate", () => fflateDeflate.zlibDecode(zlibBomb, 4096)],
        ["zlib bomb, node:zlib", () => nodeDeflate.zlibDecode(zlibBomb, 4096)],
      ] as const) {
        const error = await expectBounded(label, 4096, run);
        expect(error, label).toBeInstanceOf(Error);
        expect((error as Error).message, label).toMatch(/more than 4096 bytes/);
      }
    },
  );

  test(
    "the cap is exact: data of exactly the cap decodes, one byte less refuses (gzip, zlib on " + "both paths)",
    async () => {
      const data = sampleBytes(70_000);
      for (const impl of [nodeDeflate, fflateDeflate]) {
        const gz = await impl.gzipEncode(data, 5);
        const zl = await impl.zlibEncode(data, 5);
        expect((await impl.gzipDecode(gz, 70_000)).length).toBe(70_000);
        expect((await impl.zlibDecode(zl, 70_000)).length).toBe(70_000);
        await expect(impl.gzipDecode(gz, 69_999)).rejects.toThrow(/more than 69999 bytes/);
        await expect(impl.zlibDecode(zl, 69_999)).rejects.toThrow(/more than 69999 bytes/);
      }
      // Highly compressible data takes fflate's streaming path: still exact.
      const zeros = new Uint8Array(5 * MiB);
      const z = await fflateDeflate.zlibEncode(zeros, 9);
      expect((await fflateDeflate.zlibDecode(z, 5 * MiB)).length).toBe(5 * MiB);
      await expect(fflateDeflate.zlibDecode(z, 5 * MiB - 1)).rejects.toThrow(/more than/);
    },
  );

  test("zstd bomb without a declared size (32 KB for 1 GiB) is stopped at the cap", async () => {
    await zstdDecompress(await zstdCompress(sampleBytes(1000), 3)); // load the wasm before measuring
    const bomb = zstdBomb(8192);
    expect(bomb.length).toBeLessThan(33 * 1024);
    const zstd = await create<import("@zarrkit/registry").BytesToBytesCodec>(zstdCodecFactory, {});
    const error = await expectBounded("zstd bomb, no declared size", 4096, () =>
      zstd.decode(bomb, { key: "a/c/0", maxDecodedBytes: 4096 }),
    );
    expect(error).toBeInstanceOf(CorruptDataError);
    expect((error as Error).message).toMatch(/more than 4096 bytes/);
    // With a cap of 64 MiB the doubling guesses stop at the cap too.
    const big = await expectBounded("zstd bomb, 64 MiB cap", 64 * MiB, () => zstdDecompress(bomb, 64 * MiB));
    expect((big as Error).message).toMatch(/more than 67108864 bytes/);
  });

  test("zstd frames declaring more than the cap are refused before decoding", async () => {
    const error = await expectBounded("zstd declaring 2 GiB", 4096, () => zstdDecompress(zstdDeclaring(2 ** 31), 4096));
    expect((error as Error).message).toMatch(/declare 2147483648/);
  });

  test("without a cap, a frame claiming 3 GiB fails as corrupt without allocating it", async () => {
    const error = await expectBounded("zstd declaring 3 GiB, no cap", 4096, () =>
      zstdDecompress(zstdDeclaring(3 * 2 ** 30)),
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/declare 3221225472|corrupted|wrong source size/);
  });

  test("zstd frames of unknown size decode when they fit, whatever the first guess", async () => {
    const rle = zstdBomb(40); // 5 MiB of zeros, no declared size
    expect((await zstdDecompress(rle, 5 * MiB)).length).toBe(5 * MiB);
    await expect(zstdDecompress(rle, 5 * MiB - 1)).rejects.toThrow(/more than/);
    // Without a cap (codecs used directly) nothing changes.
    expect((await zstdDecompress(rle)).length).toBe(5 * MiB);
  });

  test("blosc: a header declaring more than the cap is refused before allocating", async () => {
    const blosc = await create<import("@zarrkit/registry").BytesToBytesCodec>(
      bloscCodecFactory,
      { cname: "lz4" },
      chunkSpec([4096], "uint8"),
    );
    const encoded = await blosc.encode(sampleBytes(4096), { key: "k" });
    expect((await blosc.decode(encoded, { key: "k", maxDecodedBytes: 4096 })).length).toBe(4096);
    const lying = encoded.slice();
    new DataView(lying.buffer).setInt32(4, 2 ** 31 - 1, true); // nbytes
    const error = await expectBounded("blosc declaring 2 GiB", 4096, () =>
      blosc.decode(lying, { key: "k", maxDecodedBytes: 4096 }),
    );
    expect(error).toBeInstanceOf(CorruptDataError);
    expect((error as Error).message).toMatch(/declares 2147483647/);
    await expect(bloscDecompress(encoded, 4095)).rejects.toThrow(/more than 4095 bytes/);
  });

  test("blosc's nested zstd and zlib streams are capped at their block's size", async () => {
    for (const cname of ["zstd", "zlib"]) {
      const blosc = await create<import("@zarrkit/registry").BytesToBytesCodec>(
        bloscCodecFactory,
        { cname, shuffle: "noshuffle" },
        chunkSpec([65536], "uint8"),
      );
      const data = sampleBytes(65536);
      const encoded = await blosc.encode(data, { key: "k" });
      expect((await blosc.decode(encoded, { key: "k", maxDecodedBytes: 65536 })).length).toBe(65536);
    }
    // The nested decoders see the block's length as their cap.
    await expect(zstdDecompress(await zstdCompress(new Uint8Array(1000), 3), 999)).rejects.toThrow(/declare 1000/);
  });
});

describe("the array pipeline hands every bytes->bytes decoder its cap", () => {
  test(
    "a gzip bomb stored for a [4096] uint8 chunk: get() throws CorruptDataError naming the chunk, " + "bounded memory",
    async () => {
      const store = new MemoryStore();
      const arr = await createArray(store, "a", {
        shape: [8192],
        chunkShape: [4096],
        dataType: "uint8",
        codecs: [{ name: "bytes" }, { name: "gzip", configuration: { level: 1 } }],
      });
      await arr.set(null, sampleBytes(8192));
      await store.set("a/c/1", gzipBomb);
      const error = await expectBounded("array get, gzip bomb chunk", 4096, () => arr.get());
      expect(error).toBeInstanceOf(CorruptDataError);
      expect((error as CorruptDataError).key).toBe("a/c/1");
      expect((error as Error).message).toMatch(/more than 4096 bytes/);
    },
  );

  test("a zstd bomb outside gzip (bytes, gzip, zstd) stops at the nested bound, not gigabytes", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "n", {
      shape: [4096],
      chunkShape: [4096],
      dataType: "uint8",
      codecs: [{ name: "bytes" }, { name: "gzip" }, { name: "zstd" }],
    });
    const data = sampleBytes(4096);
    await arr.set(null, data);
    expect((await arr.get()).data).toEqual(data);
    await store.set("n/c/0", zstdBomb(8192));
    const bound = 4096 + 512 + 65536;
    const error = await expectBounded("array get, zstd bomb around gzip", bound, () => arr.get());
    expect(error).toBeInstanceOf(CorruptDataError);
    expect((error as Error).message).toMatch(new RegExp(`more than ${bound} bytes`));
  });

  test("string chunks get the configurable bound (maxDecodedChunkBytes)", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "s", {
      shape: [4],
      chunkShape: [4],
      dataType: "string",
      codecs: [{ name: "vlen-utf8" }, { name: "zstd" }],
    });
    await arr.set(null, ["a", "bb", "ccc", "dddd"]);
    await store.set("s/c/0", zstdBomb(8192));
    const { openArray } = await import("@zarrkit/core");
    const limited = await openArray(store, "s", { maxDecodedChunkBytes: 1 * MiB });
    const error = await expectBounded("string array, zstd bomb, 1 MiB bound", MiB, () => limited.get());
    expect(error).toBeInstanceOf(CorruptDataError);
    expect((error as Error).message).toMatch(/more than 1048576 bytes/);
    const byDefault = await expectBounded("string array, zstd bomb, default bound", 256 * MiB, () => arr.get());
    expect((byDefault as Error).message).toMatch(/more than 268435456 bytes/);
  });
});
