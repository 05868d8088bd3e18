import {
  type ArrayToBytesCodec,
  CorruptDataError,
  InvalidMetadataError,
  InvalidSelectionError,
  isCodecRegistered,
} from "@zarrkit/registry";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import "../src/index.js";
import { numcodecsVlenBytesCodecFactory, vlenBytesCodecFactory } from "../src/vlen-bytes.js";
import { chunkSpec, create, ctx, FIELD } from "./helpers.js";

const TYPE = "variable_length_bytes";
const vlen = (shape: number[] = [4], factory = vlenBytesCodecFactory) =>
  create<ArrayToBytesCodec>(factory, {}, chunkSpec(shape, TYPE));
const b = (...values: number[]) => Uint8Array.from(values);

async function roundTrip(items: Uint8Array[], shape = [items.length]): Promise<Uint8Array> {
  const codec = await vlen(shape);
  const spec = chunkSpec(shape, TYPE);
  const bytes = await codec.encode({ data: items, shape }, spec, ctx);
  const chunk = await codec.decode(bytes, spec, ctx);
  expect((chunk.data as Uint8Array[]).map((item) => Array.from(item))).toEqual(items.map((item) => Array.from(item)));
  expect(chunk.shape).toEqual(shape);
  return bytes;
}

async function decodeError(bytes: Uint8Array | number[], shape = [2], maxDecodedBytes?: number): Promise<unknown> {
  const codec = await vlen(shape);
  return Promise.resolve()
    .then(() => codec.decode(Uint8Array.from(bytes), chunkSpec(shape, TYPE), { ...ctx, maxDecodedBytes }))
    .catch((e: unknown) => e);
}

describe("vlen-bytes", () => {
  test("lays items out as count, then length + bytes each (numcodecs' VLenBytes)", async () => {
    expect(Array.from(await roundTrip([b(97), b(0, 255), b()]))).toEqual([
      3, 0, 0, 0, 1, 0, 0, 0, 97, 2, 0, 0, 0, 0, 255, 0, 0, 0, 0,
    ]);
    expect(Array.from(await roundTrip([]))).toEqual([0, 0, 0, 0]);
    // numcodecs.VLenBytes().encode(np.array([b"ab", b"\xff\x00"], dtype=object))
    expect(Array.from(await roundTrip([b(0x61, 0x62), b(0xff, 0)]))).toEqual([
      2, 0, 0, 0, 2, 0, 0, 0, 0x61, 0x62, 2, 0, 0, 0, 0xff, 0,
    ]);
  });

  test("round trips arbitrary byte strings, large items and 2-d chunks", async () => {
    await roundTrip([new Uint8Array(100_000).fill(7), b(), b(0)]);
    await roundTrip([b(1), b(2), b(3), b(4), b(5), b(6)], [2, 3]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 64 })), async (items) => {
        await roundTrip(items);
      }),
      { numRuns: 200 },
    );
  });

  test("decoded items are copies: changing one changes neither the stored bytes nor another item", async () => {
    const codec = await vlen([2]);
    const spec = chunkSpec([2], TYPE);
    const bytes = Buffer.from([2, 0, 0, 0, 1, 0, 0, 0, 5, 1, 0, 0, 0, 6]);
    const items = (await codec.decode(bytes, spec, ctx)).data as Uint8Array[];
    items[0]![0] = 99;
    expect(bytes[8]).toBe(5);
    expect(items[0]!.buffer).not.toBe(items[1]!.buffer);
  });

  test("an item that is not a Uint8Array cannot be encoded (InvalidSelectionError naming the key)", async () => {
    const codec = await vlen([2]);
    const spec = chunkSpec([2], TYPE);
    for (const bad of ["text", null, [1, 2], new Uint16Array(2)]) {
      expect(() => codec.encode({ data: [b(1), bad as unknown as Uint8Array], shape: [2] }, spec, ctx)).toThrow(
        InvalidSelectionError,
      );
    }
    expect(() => codec.encode({ data: [b(1), "x" as unknown as Uint8Array], shape: [2] }, spec, ctx)).toThrow(
      /vlen-bytes: item 1 of the chunk for arr\/c\/0 is not a Uint8Array \(string\)/,
    );
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
  ])("%s is CorruptDataError naming the key", async (_what, bytes, message) => {
    const error = await decodeError(bytes);
    expect(error).toBeInstanceOf(CorruptDataError);
    expect((error as CorruptDataError).key).toBe(ctx.key);
    expect((error as Error).message).toMatch(message);
  });

  test("a huge declared count is refused before allocating for it", async () => {
    const error = await decodeError([0, 0, 0, 64, 1, 2, 3, 4], [2 ** 30]);
    expect(error).toBeInstanceOf(CorruptDataError);
    expect((error as Error).message).toMatch(/1073741824 items cannot fit in 8 bytes/);
  });

  test("items holding more than maxDecodedBytes together are refused before any is copied", async () => {
    const bytes = await roundTrip([new Uint8Array(600), new Uint8Array(500)]);
    const error = await decodeError(bytes, [2], 1000);
    expect(error).toBeInstanceOf(CorruptDataError);
    expect((error as CorruptDataError).key).toBe(ctx.key);
    expect((error as Error).message).toMatch(/hold 1100 bytes, more than the 1000/);
    expect(await decodeError(bytes, [2], 1100)).toMatchObject({
      data: [expect.any(Uint8Array), expect.any(Uint8Array)],
    });
  });

  test("every truncation is CorruptDataError", async () => {
    const bytes = await roundTrip([b(1, 2, 3), b(), b(4), b(5, 6)]);
    for (let cut = 0; cut < bytes.length; cut++)
      expect(await decodeError(bytes.subarray(0, cut), [4])).toBeInstanceOf(CorruptDataError);
  });

  test("configuration: none allowed, variable_length_bytes data only; both names registered", async () => {
    expect((await vlen()).toJSON()).toEqual({ name: "vlen-bytes", configuration: {} });
    expect((await vlen([2], numcodecsVlenBytesCodecFactory)).toJSON()).toEqual({
      name: "numcodecs.vlen-bytes",
      configuration: {},
    });
    await expect(create(vlenBytesCodecFactory, { encoding: "latin1" }, chunkSpec([2], TYPE))).rejects.toMatchObject({
      name: "InvalidMetadataError",
      field: `${FIELD}.configuration.encoding`,
    });
    await expect(create(vlenBytesCodecFactory, {}, chunkSpec([2], "string"))).rejects.toBeInstanceOf(
      InvalidMetadataError,
    );
    await expect(create(numcodecsVlenBytesCodecFactory, {}, chunkSpec([2], "uint8"))).rejects.toThrow(
      /stores the variable_length_bytes data type, not uint8/,
    );
    expect(isCodecRegistered("vlen-bytes")).toBe(true);
    expect(isCodecRegistered("numcodecs.vlen-bytes")).toBe(true);
  });
});
