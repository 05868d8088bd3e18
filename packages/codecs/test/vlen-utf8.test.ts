import {
  type ArrayToBytesCodec,
  type BytesToBytesCodec,
  CorruptDataError,
  InvalidMetadataError,
  InvalidSelectionError,
} from "@zarrkit/registry";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { vlenUtf8CodecFactory } from "../src/vlen-utf8.js";
import { zstdCodecFactory } from "../src/zstd.js";
import { chunkSpec, create, ctx, expectedArray, FIELD, fixtureBytes, fixtureCodecs } from "./helpers.js";

const vlen = (shape: number[] = [4]) => create<ArrayToBytesCodec>(vlenUtf8CodecFactory, {}, chunkSpec(shape, "string"));

async function roundTrip(items: string[], shape = [items.length]): Promise<Uint8Array> {
  const codec = await vlen(shape);
  const spec = chunkSpec(shape, "string");
  const bytes = await codec.encode({ data: items, shape }, spec, ctx);
  const chunk = await codec.decode(bytes, spec, ctx);
  expect(chunk.data).toEqual(items);
  expect(chunk.shape).toEqual(shape);
  return bytes;
}

async function decodeError(bytes: Uint8Array | number[], shape = [2]): Promise<unknown> {
  const codec = await vlen(shape);
  return Promise.resolve()
    .then(() => codec.decode(Uint8Array.from(bytes), chunkSpec(shape, "string"), ctx))
    .catch((e: unknown) => e);
}

describe("vlen-utf8", () => {
  test("lays items out as count, then length + UTF-8 bytes each", async () => {
    expect(Array.from(await roundTrip(["a", "bb", ""]))).toEqual([
      3, 0, 0, 0, 1, 0, 0, 0, 97, 2, 0, 0, 0, 98, 98, 0, 0, 0, 0,
    ]);
    expect(Array.from(await roundTrip([]))).toEqual([0, 0, 0, 0]);
    expect(Array.from(await roundTrip(["é"]))).toEqual([1, 0, 0, 0, 2, 0, 0, 0, 0xc3, 0xa9]);
  });

  test("round trips Unicode: CJK, astral characters, a leading BOM, NUL, long items, 2-d chunks", async () => {
    await roundTrip(["世界", "🚀🎉", "\uFEFFbom", "nul\0byte", "Ñoño", "x".repeat(100_000), "é".repeat(1000)]);
    await roundTrip(["a", "b", "c", "d", "e", "f"], [2, 3]);
  });

  test("round trips arbitrary strings", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme-ascii" }))),
        async (items) => {
          await roundTrip(items);
        },
      ),
      { numRuns: 200 },
    );
  });

  test("a lone surrogate or a non-string item cannot be encoded", async () => {
    const codec = await vlen([2]);
    const spec = chunkSpec([2], "string");
    expect(() => codec.encode({ data: ["ok", "bad\uD800"], shape: [2] }, spec, ctx)).toThrow(InvalidSelectionError);
    expect(() => codec.encode({ data: ["ok", "\uDC00"], shape: [2] }, spec, ctx)).toThrow(/item 1 .* lone surrogate/);
    expect(() => codec.encode({ data: ["ok", 5 as unknown as string], shape: [2] }, spec, ctx)).toThrow(/not a string/);
  });

  test.each([
    ["fewer than 4 bytes", [2, 0, 0], /too short/],
    [
      "a count that is not the chunk's",
      [3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      /3 items where the chunk has 2/,
    ],
    ["an item past the end", [2, 0, 0, 0, 4, 0, 0, 0, 97, 98, 99, 100], /item 1 starts past the end/],
    [
      "a length past the end",
      [2, 0, 0, 0, 1, 0, 0, 0, 97, 255, 255, 255, 255, 97],
      /item 1 declares 4294967295 bytes but only 1 remain/,
    ],
    ["trailing bytes", [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9], /1 bytes follow/],
    ["invalid UTF-8", [2, 0, 0, 0, 1, 0, 0, 0, 0xff, 0, 0, 0, 0], /item 0 is not valid UTF-8/],
    ["an overlong encoding", [2, 0, 0, 0, 2, 0, 0, 0, 0xc0, 0x80, 0, 0, 0, 0], /not valid UTF-8/],
    ["an encoded surrogate", [2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0xed, 0xa0, 0x80], /item 1 is not valid UTF-8/],
  ])("%s is CorruptDataError naming the key", async (_what, bytes, message) => {
    const error = await decodeError(bytes);
    expect(error).toBeInstanceOf(CorruptDataError);
    expect((error as CorruptDataError).key).toBe(ctx.key);
    expect((error as Error).message).toMatch(message);
  });

  test("a huge declared count is refused before allocating for it", async () => {
    const error = await decodeError([0, 0, 0, 64, 1, 2, 3, 4], [2 ** 30]);
    expect((error as Error).message).toMatch(/1073741824 items cannot fit in 8 bytes/);
  });

  test("every truncation is CorruptDataError", async () => {
    const bytes = await roundTrip(["hello", "wörld", "", "🚀"]);
    for (let cut = 0; cut < bytes.length; cut++)
      expect(await decodeError(bytes.subarray(0, cut), [4])).toBeInstanceOf(CorruptDataError);
  });

  test("configuration: none allowed, string data only", async () => {
    expect((await vlen()).toJSON()).toEqual({ name: "vlen-utf8", configuration: {} });
    await expect(create(vlenUtf8CodecFactory, { encoding: "latin1" }, chunkSpec([2], "string"))).rejects.toMatchObject({
      name: "InvalidMetadataError",
      field: `${FIELD}.configuration.encoding`,
    });
    await expect(create(vlenUtf8CodecFactory, {}, chunkSpec([2], "int32"))).rejects.toBeInstanceOf(
      InvalidMetadataError,
    );
  });
});

describe("fixtures: zarr-python's vlen-utf8 + zstd chunks", () => {
  const chunks: [string, string[]][] = [
    ["1d.contiguous.string.vlen", ["c/0"]],
    ["1d.contiguous.string.compressed", ["c/0"]],
    ["1d.chunked.string.vlen", ["c/0", "c/1"]],
    ["2d.chunked.string.vlen", ["c/0/0", "c/1/0"]],
    ["1d.string.empty", ["c/0"]],
    ["1d.string.unicode", ["c/0"]],
  ];
  test.for(chunks)(
    "%s decodes to the expected strings and re-encodes to the same bytes",
    async ([array, keys], { skip }) => {
      const expected = expectedArray(array);
      const codecs = fixtureCodecs(array);
      if (!expected || !codecs) return skip("fixtures absent");
      expect(codecs.map((c) => c.name)).toEqual(["vlen-utf8", "zstd"]);
      const zstd = await create<BytesToBytesCodec>(zstdCodecFactory, codecs[1]!.configuration!);
      const chunkShape = JSON.parse(new TextDecoder().decode(fixtureBytes(`${array}/zarr.json`))).chunk_grid
        .configuration.chunk_shape as number[];
      const codec = await vlen(chunkShape);
      expect(codec.toJSON()).toEqual(codecs[0]);
      const spec = chunkSpec(chunkShape, "string");
      const strings: string[] = [];
      for (const key of keys) {
        const bytes = await zstd.decode(fixtureBytes(`${array}/${key}`)!, { key });
        const chunk = await codec.decode(bytes, spec, { key });
        strings.push(...(chunk.data as string[]));
        expect(await codec.encode(chunk, spec, { key })).toEqual(bytes);
      }
      // Chunks along the first axis concatenate to C order here (one chunk per row or slice).
      expect(strings).toEqual(expected.data);
    },
  );
});
