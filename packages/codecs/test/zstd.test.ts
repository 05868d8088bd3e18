import { type BytesToBytesCodec, CorruptDataError, InvalidMetadataError } from "@zarrkit/registry";
import fc from "fast-check";
import { describe, expect, test, vi } from "vitest";
import { zstdCodecFactory } from "../src/zstd.js";
import { LazyInstance, type WasmHeap, withAllocation } from "../src/wasm-instance.js";
import { declaredContentSize } from "../src/zstd-frames.js";
import { create, ctx, FIELD, fixtureBytes, sameBytes, sampleBytes } from "./helpers.js";

const hex = (s: string) => Uint8Array.from(s.match(/../g)!, (b) => Number.parseInt(b, 16));
const TEXT = "zarr zarr zarr zarr zarr zarr zarr zarr!";
// Written by the zstd 1.5 CLI with --check: with and without the content size in the header.
const WITH_CHECKSUM = hex("28b52ffd2428650000307a61727220210100708a16974b1015");
const WITH_CHECKSUM_NO_SIZE = hex("28b52ffd0458650000307a61727220210100708a16974b1015");

const zstd = (configuration: Record<string, unknown> = {}) =>
  create<BytesToBytesCodec>(zstdCodecFactory, configuration);

describe("zstd configuration", () => {
  test("defaults as zarr-python writes them", async () => {
    expect((await zstd()).toJSON()).toEqual({ name: "zstd", configuration: { level: 0, checksum: false } });
    expect((await zstd({ level: -3, checksum: true })).toJSON()).toEqual({
      name: "zstd",
      configuration: { level: -3, checksum: true },
    });
  });

  test.each([
    ["level", 1.5],
    ["level", "3"],
    ["level", -200_000],
    ["checksum", "yes"],
    ["checksum", 1],
  ])("%s %j is invalid metadata naming the field", async (key, value) => {
    const error = await zstd({ [key]: value }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidMetadataError);
    expect((error as InvalidMetadataError).field).toBe(`${FIELD}.configuration.${key}`);
  });

  test("unknown keys are invalid metadata", async () => {
    await expect(zstd({ level: 1, window: 20 })).rejects.toBeInstanceOf(InvalidMetadataError);
  });
});

describe("zstd encoding", () => {
  test.each([0, 1, 100, 10_000, 300_000])("round trips %i bytes", async (size) => {
    const codec = await zstd({ level: 1 });
    const data = sampleBytes(size);
    expect(sameBytes(await codec.decode(await codec.encode(data, ctx), ctx), data)).toBe(true);
  });

  test("round trips arbitrary bytes at several levels", async () => {
    const codecs = await Promise.all([0, 1, 5, 12].map((level) => zstd({ level })));
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), fc.constantFrom(...codecs), async (data, codec) => {
        expect(sameBytes(await codec.decode(await codec.encode(data, ctx), ctx), data)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  test("level 0 means zstd's default level 3, levels past 22 act as 22", async () => {
    const data = sampleBytes(50_000, "smooth", 5);
    const [l0, l3, l22, l40] = await Promise.all(
      [0, 3, 22, 40].map(async (level) => (await zstd({ level })).encode(data, ctx)),
    );
    expect(sameBytes(l0!, l3!)).toBe(true);
    expect(sameBytes(l40!, l22!)).toBe(true);
  });

  test("checksum: true writes a checksummed frame; negative levels write the fast ones", async () => {
    const data = sampleBytes(100_000, "smooth", 3);
    const withChecksum = await zstd({ level: 3, checksum: true });
    const checked = await withChecksum.encode(data, ctx);
    expect(checked[4]! & 0x04).toBe(0x04); // frame header descriptor: content checksum flag
    expect(sameBytes(await withChecksum.decode(checked, ctx), data)).toBe(true);
    const flipped = checked.slice();
    flipped[flipped.length - 1] = flipped[flipped.length - 1]! ^ 1;
    await expect(Promise.resolve(withChecksum.decode(flipped, ctx))).rejects.toBeInstanceOf(CorruptDataError);
    expect((await (await zstd({ level: 3 })).encode(data, ctx))[4]! & 0x04).toBe(0);
    const fast = await (await zstd({ level: -5 })).encode(data, ctx);
    const l1 = await (await zstd({ level: 1 })).encode(data, ctx);
    expect(fast.length).toBeGreaterThan(l1.length);
    expect(sameBytes(await (await zstd()).decode(fast, ctx), data)).toBe(true);
  });
});

describe("zstd decoding", () => {
  test("frames with checksums, with or without a content size, and concatenated frames", async () => {
    const codec = await zstd();
    expect(new TextDecoder().decode(await codec.decode(WITH_CHECKSUM_NO_SIZE, ctx))).toBe(TEXT);
    const two = new Uint8Array([...WITH_CHECKSUM, ...(await codec.encode(new TextEncoder().encode("++"), ctx))]);
    expect(new TextDecoder().decode(await codec.decode(two, ctx))).toBe(`${TEXT}++`);
  });

  test("skippable frames around data frames are skipped", async () => {
    const skippable = new Uint8Array([0x5a, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 9, 9, 9]);
    const bytes = new Uint8Array([...skippable, ...WITH_CHECKSUM, ...skippable]);
    expect(declaredContentSize(bytes)).toBe(TEXT.length);
    expect(new TextDecoder().decode(await (await zstd()).decode(bytes, ctx))).toBe(TEXT);
  });

  test("declared sizes are summed over frames; a frame without one leaves the size unknown", () => {
    expect(declaredContentSize(new Uint8Array([...WITH_CHECKSUM, ...WITH_CHECKSUM]))).toBe(2 * TEXT.length);
    expect(declaredContentSize(WITH_CHECKSUM_NO_SIZE)).toBeUndefined();
    expect(declaredContentSize(new Uint8Array([...WITH_CHECKSUM, ...WITH_CHECKSUM_NO_SIZE]))).toBeUndefined();
    // A raw block (type 0) of 3 bytes with a 2-byte content size field (flag 1: value + 256).
    const raw = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x60, 0x00, 0x00, (3 << 3) | 1, 0x00, 0x00, 7, 8, 9]);
    expect(declaredContentSize(raw)).toBe(256);
    expect(declaredContentSize(raw.subarray(0, raw.length - 1))).toBeUndefined();
    expect(declaredContentSize(new Uint8Array(0))).toBeUndefined();
  });

  test.each([
    ["a content size larger than the frame holds", () => WITH_CHECKSUM.map((b, i) => (i === 5 ? b + 1 : b))],
    ["a content size smaller than the frame holds", () => WITH_CHECKSUM.map((b, i) => (i === 5 ? b - 1 : b))],
    ["a checksum mismatch", () => WITH_CHECKSUM.map((b, i) => (i === WITH_CHECKSUM.length - 1 ? b ^ 1 : b))],
    ["a truncated frame", () => WITH_CHECKSUM.subarray(0, 15)],
    ["a frame without its checksum", () => WITH_CHECKSUM.subarray(0, WITH_CHECKSUM.length - 4)],
    ["garbage", () => new Uint8Array([1, 2, 3, 4, 5])],
    ["no bytes", () => new Uint8Array(0)],
  ])("%s is CorruptDataError naming the key", async (_what, bytes) => {
    const error = await Promise.resolve((await zstd()).decode(bytes(), ctx)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptDataError);
    expect((error as CorruptDataError).key).toBe(ctx.key);
  });

  test("every truncation of a larger frame is rejected", async () => {
    const codec = await zstd({ level: 3 });
    const data = sampleBytes(20_000, "noise");
    const frame = await codec.encode(data, ctx);
    for (let cut = 0; cut < frame.length; cut += Math.ceil(frame.length / 40)) {
      await expect(Promise.resolve(codec.decode(frame.subarray(0, cut), ctx))).rejects.toBeInstanceOf(CorruptDataError);
    }
  });

  test("zarr-python v3 vlen-utf8 chunk compressed with zstd (1d.contiguous.string.compressed)", async ({ skip }) => {
    const raw = fixtureBytes("1d.contiguous.string.compressed/c/0");
    if (!raw) return skip("fixtures absent");
    const bytes = await (await zstd({ level: 0, checksum: false })).decode(raw, ctx);
    expect(Array.from(bytes.subarray(0, 8))).toEqual([3, 0, 0, 0, 10, 0, 0, 0]);
    expect(new TextDecoder().decode(bytes.subarray(8, 18))).toBe("compressed");
  });
});

describe("zstd decoding into lent memory (decodeLent)", () => {
  const lend = async (codec: BytesToBytesCodec, bytes: Uint8Array, cap?: number) => {
    const seen: { copy: Uint8Array; aligned: boolean; own: boolean }[] = [];
    const result = await codec.decodeLent!(
      bytes,
      cap === undefined ? ctx : { ...ctx, maxDecodedBytes: cap },
      (decoded) => {
        seen.push({
          copy: decoded.slice(),
          aligned: decoded.byteOffset % 8 === 0,
          own: decoded.buffer.byteLength === decoded.length,
        });
        return decoded.length;
      },
    );
    return { result, seen };
  };

  test("lends the same bytes decode returns, from the decoder's memory, 8-byte aligned, once", async () => {
    const codec = await zstd({ level: 3 });
    for (const data of [sampleBytes(100_000, "smooth"), sampleBytes(3, "noise"), new Uint8Array(0)]) {
      const frame = await codec.encode(data, ctx);
      const { result, seen } = await lend(codec, frame, data.length);
      expect(result).toBe(data.length);
      expect(seen).toHaveLength(1);
      expect(sameBytes(seen[0]!.copy, data)).toBe(true);
      expect(seen[0]!.aligned).toBe(true);
      // A view of wasm memory, not a buffer of its own.
      expect(seen[0]!.own).toBe(false);
    }
    // Frames without a declared size, decoded into growing capacities: lent once, when they fit.
    const { seen } = await lend(codec, WITH_CHECKSUM_NO_SIZE);
    expect(seen.map((s) => new TextDecoder().decode(s.copy))).toEqual([TEXT]);
  });

  test.each([
    ["a checksum mismatch", () => WITH_CHECKSUM.map((b, i) => (i === WITH_CHECKSUM.length - 1 ? b ^ 1 : b)), undefined],
    [
      "a content size smaller than the frame holds",
      () => WITH_CHECKSUM.map((b, i) => (i === 5 ? b - 1 : b)),
      undefined,
    ],
    ["a truncated frame", () => WITH_CHECKSUM.subarray(0, 15), undefined],
    ["more than the cap", () => WITH_CHECKSUM, TEXT.length - 1],
    ["more than the cap, no declared size", () => WITH_CHECKSUM_NO_SIZE, TEXT.length - 1],
  ])("%s is CorruptDataError, and nothing is lent", async (_what, bytes, cap) => {
    const codec = await zstd();
    const error = await lend(codec, bytes(), cap).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptDataError);
    expect((error as CorruptDataError).key).toBe(ctx.key);
  });

  test("what the caller's callback throws passes unchanged", async () => {
    const codec = await zstd();
    const mine = new RangeError("the caller's own");
    const thrown = await Promise.resolve(
      codec.decodeLent!(WITH_CHECKSUM, ctx, () => {
        throw mine;
      }),
    ).catch((e: unknown) => e);
    expect(thrown).toBe(mine);
    // The instance is still sound afterwards.
    expect(new TextDecoder().decode(await codec.decode(WITH_CHECKSUM, ctx))).toBe(TEXT);
  });
});

describe("zstd wasm instances", () => {
  const load = () => import("../src/zstd/zstd-decode-wasm.js").then((m) => m.default);

  test(
    "an instance whose memory grew past 64 MiB is dropped after the call; the next call gets a " + "fresh one",
    async () => {
      const lazy = new LazyInstance<WasmHeap>(load);
      const first = await lazy.instance();
      lazy.release(first);
      expect(lazy.ready).toBe(first);
      withAllocation(first, 80 * 2 ** 20, () => undefined);
      lazy.release(first);
      expect(lazy.ready).toBeUndefined();
      const second = await lazy.instance();
      expect(second).not.toBe(first);
      expect(second.memory.buffer.byteLength).toBeLessThan(2 ** 20);
    },
  );

  test("calls that arrive while the first instance is being made share it: one instance, one memory", async () => {
    // A whole read starts dozens of decodes at once; an instance (and wasm memory) each exhausted Chromium's.
    const instantiate = vi.spyOn(WebAssembly, "instantiate");
    try {
      const lazy = new LazyInstance<WasmHeap>(load);
      const instances = await Promise.all(Array.from({ length: 32 }, () => lazy.instance()));
      expect(new Set(instances).size).toBe(1);
      expect(instantiate).toHaveBeenCalledTimes(1);
    } finally {
      instantiate.mockRestore();
    }
  });

  test("an allocation wasm memory cannot hold is a RangeError, and nothing is left allocated", async () => {
    const instance = await new LazyInstance<WasmHeap>(load).instance();
    expect(() => withAllocation(instance, 2 ** 32, () => undefined)).toThrow(RangeError);
    expect(() => withAllocation(instance, 0xffff_0000, () => undefined)).toThrow(RangeError);
  });
});
