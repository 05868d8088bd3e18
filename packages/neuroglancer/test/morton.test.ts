import { compressedMortonBits, compressedMortonCode } from "@zarrkit/neuroglancer";
import { InvalidMetadataError, InvalidSelectionError } from "@zarrkit/registry";
import { describe, expect, it } from "vitest";
import { describeVectors, itemAt, vectors } from "./helpers.js";

describeVectors("compressed Morton code known answers", () => {
  it.each(vectors?.compressed_morton.vectors ?? [])("grid $grid_size at $grid_point → $code", (v) => {
    expect(compressedMortonCode(v.grid_point, v.grid_size)).toBe(BigInt(v.code));
  });

  it("rejects the points cloud-volume rejects (outside the grid)", () => {
    expect(() => compressedMortonCode([3, 0, 0], [3, 3, 3])).toThrow(InvalidSelectionError);
    expect(() => compressedMortonCode([0, 0, 7], [2, 3, 1])).toThrow(InvalidSelectionError);
  });

  it.each(vectors?.compressed_morton.bits_tests ?? [])("tensorstore bits for shape $shape, chunk $chunk", (v) => {
    const shape = v.shape.map((n: number | string) => (typeof n === "number" ? n : 2 ** 62 - 2));
    const grid = shape.map((n: number, d: number) => Math.ceil(n / itemAt(v.chunk, d)));
    expect(compressedMortonBits(grid)).toEqual(v.bits);
  });
});

describe("compressedMortonCode", () => {
  it("interleaves while every dimension has bits, then continues with the rest", () => {
    // bits [1, 3]: x0 y0 y1 y2
    expect(compressedMortonCode([1, 0b101], [2, 8])).toBe(0b1011n);
  });

  it("uses all 64 bits", () => {
    expect(compressedMortonCode([2 ** 32 - 1, 2 ** 32 - 1], [2 ** 32, 2 ** 32])).toBe(2n ** 64n - 1n);
    expect(compressedMortonCode([2 ** 31, 0], [2 ** 32, 2 ** 32])).toBe(1n << 62n);
  });

  it("refuses grids needing more than 64 bits and mismatched ranks", () => {
    expect(() => compressedMortonCode([0, 0, 0], [2 ** 22, 2 ** 22, 2 ** 21 + 1])).toThrow(InvalidMetadataError);
    expect(() => compressedMortonCode([0, 0], [2, 2, 2])).toThrow(InvalidSelectionError);
    expect(() => compressedMortonCode([0.5, 0, 0], [2, 2, 2])).toThrow(InvalidSelectionError);
  });

  it("works at any rank (annotation spatial indexes)", () => {
    expect(compressedMortonCode([1, 1, 1, 1], [2, 2, 2, 2])).toBe(15n);
    expect(compressedMortonCode([], [])).toBe(0n);
  });
});
