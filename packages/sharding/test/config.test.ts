import { type ArrayMetadata, InvalidMetadataError, InvalidOptionError, UnsupportedError } from "@zarrkit/core";
import { describe, expect, it } from "vitest";
import { BYTES, createArray, MemoryStore } from "./helpers.js";

const make = (configuration: Record<string, unknown>, shardShape = [8, 8]) =>
  createArray(new MemoryStore(), "a", {
    zarr_format: 3,
    node_type: "array",
    shape: [16, 16],
    data_type: "uint16",
    chunk_grid: { name: "regular", configuration: { chunk_shape: shardShape } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: 0,
    codecs: [{ name: "sharding_indexed", configuration }],
    attributes: {},
  });

const ok = { chunk_shape: [4, 4], codecs: [BYTES], index_codecs: [BYTES], index_location: "end" };

describe("configuration is validated whole", () => {
  const cases: [string, Record<string, unknown>, RegExp, new (...a: never[]) => Error][] = [
    ["rank", { ...ok, chunk_shape: [4] }, /1 dimensions but the shard shape \[8, 8\] has 2/, InvalidMetadataError],
    [
      "divisibility",
      { ...ok, chunk_shape: [3, 4] },
      /along dimension 0 \(8 is not a multiple of 3\)/,
      InvalidMetadataError,
    ],
    [
      "positive",
      { ...ok, chunk_shape: [0, 4] },
      /chunk_shape must be a list of positive integers/,
      InvalidMetadataError,
    ],
    [
      "index_location",
      { ...ok, index_location: "middle" },
      /index_location must be "start" or "end"/,
      InvalidMetadataError,
    ],
    ["missing codecs", { ...ok, codecs: undefined }, /codecs is required/, InvalidMetadataError],
    ["missing index_codecs", { ...ok, index_codecs: undefined }, /index_codecs is required/, InvalidMetadataError],
    ["no array->bytes in codecs", { ...ok, codecs: [] }, /codecs must be a non-empty list/, InvalidMetadataError],
    [
      "two array->bytes in index_codecs",
      { ...ok, index_codecs: [BYTES, BYTES] },
      /index_codecs\[1\].*second array->bytes/,
      InvalidMetadataError,
    ],
    ["unknown inner codec", { ...ok, codecs: [BYTES, { name: "lzma" }] }, /lzma/, UnsupportedError],
  ];
  for (const [name, configuration, message, ErrorClass] of cases) {
    it(name, async () => {
      const error = await make(configuration).catch((e) => e);
      expect(error).toBeInstanceOf(ErrorClass);
      expect(error.message).toMatch(message);
      expect(error.message).toMatch(/codecs\[0\]/);
    });
  }

  it("runtime options are checked: a bad one is an InvalidOptionError naming it", async () => {
    const store = new MemoryStore();
    const error = await createArray(
      store,
      "a",
      { shape: [4], dataType: "uint8", chunkShape: [2], shardShape: [4], indexCodecs: [BYTES] },
      {
        codecOptions: { sharding_indexed: { writeStrategy: "sideways" } },
      },
    ).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error.field).toBe("codecOptions.sharding_indexed.writeStrategy");
  });

  it("toJSON writes the configuration as stored", async () => {
    const arr = await make(ok);
    expect((arr.metadata as ArrayMetadata).codecs[0]).toEqual({ name: "sharding_indexed", configuration: ok });
    expect(arr.chunkShape).toEqual([4, 4]);
    expect(arr.shardShape).toEqual([8, 8]);
  });

  it(
    "a shard of more inner chunks than an index zarrkit can hold is refused at open, before anything is " + "allocated",
    async () => {
      const huge = () =>
        createArray(new MemoryStore(), "a", {
          zarr_format: 3,
          node_type: "array",
          shape: [16384, 16384],
          data_type: "uint8",
          chunk_grid: { name: "regular", configuration: { chunk_shape: [16384, 16384] } },
          chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
          fill_value: 0,
          codecs: [{ name: "sharding_indexed", configuration: { ...ok, chunk_shape: [1, 1] } }],
          attributes: {},
        });
      const before = process.memoryUsage().heapUsed;
      const error = await huge().catch((e) => e);
      expect(error).toBeInstanceOf(UnsupportedError);
      expect(error.message).toMatch(/268435456 inner chunks per shard.*at most 16777216/);
      expect(error.field).toBe("codecs[0].configuration.chunk_shape");
      expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 2 ** 20);
    },
  );
});
