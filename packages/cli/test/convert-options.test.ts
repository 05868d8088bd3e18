import { describe, expect, it } from "vitest";
import { parseBytes, parseCodec, resolvePart, shardShapeForBytes } from "../src/convert-options.js";
import { UsageError } from "../src/errors.js";

describe("convert options", () => {
  it(
    "shardShapeForBytes: the largest doubling of the chunk within the target, a multiple of the chunk, capped by " +
      "the array",
    () => {
      // 64^3 uint16 chunks (512 KiB): 1 GiB is 2048 chunks = 8 x 16 x 16.
      const shard = shardShapeForBytes([4096, 4096, 4096], [64, 64, 64], 2, 2 ** 30);
      expect(shard).toEqual([512, 1024, 1024]);
      expect(shard.reduce((a, b) => a * b, 2)).toBe(2 ** 30);
      // A small array: one shard covering it, in whole chunks.
      expect(shardShapeForBytes([100, 30], [16, 16], 4, 2 ** 30)).toEqual([112, 32]);
      // A target below one chunk: the chunk itself.
      expect(shardShapeForBytes([100], [10], 8, 1)).toEqual([10]);
      expect(shardShapeForBytes([], [], 8, 2 ** 30)).toEqual([]);
    },
  );

  it("parseBytes and parseCodec", () => {
    expect(parseBytes("1GiB", "--shard-bytes")).toBe(2 ** 30);
    expect(parseBytes("512MiB", "--shard-bytes")).toBe(512 * 2 ** 20);
    expect(parseBytes("64M", "--shard-bytes")).toBe(64e6);
    expect(parseBytes("1000", "--shard-bytes")).toBe(1000);
    expect(() => parseBytes("0", "--shard-bytes")).toThrow(UsageError);
    expect(() => parseBytes("1 parsec", "--shard-bytes")).toThrow(/--shard-bytes "1 parsec"/);
    expect(parseCodec("blosc:lz4:9:bitshuffle", 2)[1]).toEqual({
      name: "blosc",
      configuration: { cname: "lz4", clevel: 9, shuffle: "bitshuffle", typesize: 2, blocksize: 0 },
    });
    expect(parseCodec("gzip", 4)[1]).toEqual({ name: "gzip", configuration: { level: 6 } });
    expect(() => parseCodec("gzip:6:7", 4)).toThrow(/too many parts/);
    expect(() => parseCodec("blosc:zstd:5:sideways", 4)).toThrow(/unknown blosc shuffle/);
  });

  it("resolvePart: --part, then SLURM, Kubernetes, AWS Batch; errors name the source", () => {
    expect(resolvePart(undefined, undefined, {})).toEqual({ index: 0, count: 1, from: "" });
    expect(resolvePart("3/8", undefined, { SLURM_ARRAY_TASK_ID: "1", SLURM_ARRAY_TASK_COUNT: "2" })).toEqual({
      index: 3,
      count: 8,
      from: "--part",
    });
    expect(resolvePart(undefined, undefined, { SLURM_ARRAY_TASK_ID: "1", SLURM_ARRAY_TASK_COUNT: "4" })).toEqual({
      index: 1,
      count: 4,
      from: "SLURM_ARRAY_TASK_ID",
    });
    // --array=3-6: tasks 3..6 are parts 0..3; a resubmitted --array=2 with --parts 4 is part 2 of 4.
    expect(
      resolvePart(undefined, undefined, {
        SLURM_ARRAY_TASK_ID: "5",
        SLURM_ARRAY_TASK_MIN: "3",
        SLURM_ARRAY_TASK_COUNT: "4",
      }),
    ).toEqual({ index: 2, count: 4, from: "SLURM_ARRAY_TASK_ID" });
    expect(
      resolvePart(undefined, "4", { SLURM_ARRAY_TASK_ID: "2", SLURM_ARRAY_TASK_MIN: "2", SLURM_ARRAY_TASK_COUNT: "1" }),
    ).toEqual({ index: 2, count: 4, from: "SLURM_ARRAY_TASK_ID" });
    expect(() =>
      resolvePart(undefined, "4", { SLURM_ARRAY_TASK_ID: "4", SLURM_ARRAY_TASK_MIN: "4", SLURM_ARRAY_TASK_COUNT: "1" }),
    ).toThrow(/part 4 of 4 \(from SLURM_ARRAY_TASK_ID\)/);
    expect(resolvePart(undefined, "5", { AWS_BATCH_JOB_ARRAY_INDEX: "4" })).toEqual({
      index: 4,
      count: 5,
      from: "AWS_BATCH_JOB_ARRAY_INDEX",
    });
    expect(() => resolvePart(undefined, undefined, { JOB_COMPLETION_INDEX: "1" })).toThrow(
      /JOB_COMPLETION_INDEX is set: give the number of parts with --parts N/,
    );
    expect(() => resolvePart(undefined, "2", { JOB_COMPLETION_INDEX: "2" })).toThrow(
      /part 2 of 2 \(from JOB_COMPLETION_INDEX\)/,
    );
    expect(() => resolvePart("1/0", undefined, {})).toThrow(/--part count "0"/);
    expect(() => resolvePart("a/b", undefined, {})).toThrow(/--part "a\/b": expected i\/N/);
  });
});
