import { computeShardParamsForImage, computeShardParamsForLabels, parseShardingSpec } from "@zarrkit/neuroglancer";
import { InvalidMetadataError, InvalidSelectionError } from "@zarrkit/registry";
import { describe, expect, it } from "vitest";
import { describeVectors, itemAt, vectors } from "./helpers.js";

describeVectors("cloud-volume parameter vectors", () => {
  it.each(vectors?.compute_shard_params_for_hashed.vectors ?? [])(
    "labels: $num_labels labels, $shard_index_bytes / $minishard_index_bytes bytes, min_shards $min_shards → $result",
    (v) => {
      const spec = computeShardParamsForLabels(v.num_labels, {
        shardIndexBytes: v.shard_index_bytes,
        minishardIndexBytes: v.minishard_index_bytes,
        minShards: v.min_shards,
      });
      expect([spec.shard_bits, spec.minishard_bits, spec.preshift_bits]).toEqual(v.result);
      expect(spec.hash).toBe("murmurhash3_x86_128");
    },
  );

  it("image: test_broken_dataset uses all 20 Morton bits, raw data for jpeg", () => {
    const { size, chunk, encoding, dtype } = vectors?.compute_shard_params_for_image.input ?? ({} as never);
    const spec = computeShardParamsForImage({ size, chunkSize: chunk, encoding, dataType: dtype });
    expect(spec.shard_bits + spec.minishard_bits + spec.preshift_bits).toBe(20);
    expect(spec).toMatchObject({ hash: "identity", data_encoding: "raw", minishard_index_encoding: "gzip" });
  });
});

describe("computeShardParamsForImage", () => {
  it("returns a valid identity spec that spends every Morton bit", () => {
    for (const [size, chunkSize, dataType] of [
      [[1024, 1024, 1024], [64, 64, 64], "uint8"],
      [[248832, 134144, 7063], [128, 128, 16], "uint8"],
      [[100, 100, 100], [64, 64, 64], "uint64"],
      [[34432, 39552, 51508], [64, 64, 64], "uint32"],
    ] as const) {
      const spec = computeShardParamsForImage({ size, chunkSize, encoding: "raw", dataType });
      expect(parseShardingSpec(spec)).toEqual(spec);
      const bits = size.reduce((sum, n, d) => sum + Math.ceil(Math.log2(Math.ceil(n / itemAt(chunkSize, d)))), 0);
      expect(spec.preshift_bits + spec.minishard_bits + spec.shard_bits).toBe(bits);
      expect(spec.data_encoding).toBe("gzip");
      // The shard index stays within the default 8 KiB target.
      expect(16 * 2 ** spec.minishard_bits).toBeLessThanOrEqual(8192);
    }
  });

  it("keeps the dataset in one shard when it is smaller than the target", () => {
    const spec = computeShardParamsForImage({
      size: [512, 512, 512],
      chunkSize: [64, 64, 64],
      encoding: "raw",
      dataType: 1,
    });
    expect(spec.shard_bits).toBe(0);
    expect(spec.preshift_bits + spec.minishard_bits).toBe(9);
  });

  it("rejects grids needing over 64 bits and unknown inputs", () => {
    expect(() =>
      computeShardParamsForImage({
        size: [2 ** 23, 2 ** 23, 2 ** 23],
        chunkSize: [1, 1, 1],
        encoding: "raw",
        dataType: "uint8",
      }),
    ).toThrow(InvalidMetadataError);
    expect(() =>
      computeShardParamsForImage({ size: [1, 1, 1], chunkSize: [1, 1, 1], encoding: "raw", dataType: "bool" }),
    ).toThrow(InvalidSelectionError);
    expect(() =>
      computeShardParamsForImage({ size: [0, 1, 1], chunkSize: [1, 1, 1], encoding: "raw", dataType: "uint8" }),
    ).toThrow(InvalidSelectionError);
  });
});

describe("computeShardParamsForLabels", () => {
  it("defaults to gzip for both encodings and accepts overrides", () => {
    expect(computeShardParamsForLabels(10)).toMatchObject({ minishard_index_encoding: "gzip", data_encoding: "gzip" });
    expect(computeShardParamsForLabels(10, { dataEncoding: "raw" }).data_encoding).toBe("raw");
  });

  it("rejects minShards below 1", () => {
    expect(() => computeShardParamsForLabels(10, { minShards: 0 })).toThrow(InvalidSelectionError);
  });
});
