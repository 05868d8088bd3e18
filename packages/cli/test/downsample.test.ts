import { describe, expect, it } from "vitest";
import { dataType, type NdArray } from "zarrkit";
import type { ConvertSource } from "../src/convert-source.js";
import { downsampledSource } from "../src/downsample.js";

/** An in-memory source over C-order values, counting the elements each read asks for. */
function memory(
  name: string,
  shape: number[],
  values: ArrayLike<number | bigint>,
): ConvertSource & { elementsRead: number[] } {
  const type = dataType(name);
  const strides = shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));
  const elementsRead: number[] = [];
  return {
    label: name,
    shape,
    dataType: name,
    type,
    chunkShape: shape,
    fillValue: 0,
    attributes: {},
    elementsRead,
    async read(start, stop): Promise<NdArray> {
      const counts = start.map((s, d) => stop[d]! - s);
      const total = counts.reduce((a, b) => a * b, 1);
      elementsRead.push(total);
      const data = type.allocate(total) as unknown as { [i: number]: number | bigint };
      const index = counts.map(() => 0);
      for (let n = 0; n < total; n++) {
        data[n] = values[index.reduce((a, i, d) => a + (i + start[d]!) * strides[d]!, 0)]!;
        for (let d = counts.length - 1; d >= 0; d--) {
          if (++index[d]! < counts[d]!) break;
          index[d] = 0;
        }
      }
      return { data: data as unknown as NdArray["data"], shape: counts };
    },
  };
}

const all = (s: ConvertSource) =>
  s.read(
    s.shape.map(() => 0),
    s.shape,
  );

describe("downsampledSource", () => {
  it("integer means round to nearest, ties away from zero; odd edges average the elements that exist", async () => {
    // Blocks of 2: [-5, -4] -> -4.5 -> -5; [1, 2] -> 1.5 -> 2; [3, 3] -> 3; the odd edge [7] -> 7.
    const level = downsampledSource(memory("int32", [1, 7], [-5, -4, 1, 2, 3, 3, 7]), 1, [false, true], "mean");
    expect(level.shape).toEqual([1, 4]);
    expect(Array.from((await all(level)).data as Int32Array)).toEqual([-5, 2, 3, 7]);
  });

  it("64-bit means in exact integer arithmetic, floats stay fractional", async () => {
    const big = downsampledSource(
      memory("int64", [2, 2], [2n ** 62n, 2n ** 62n + 3n, -3n, -2n]),
      1,
      [true, true],
      "mean",
    );
    // (2^63 - 2) / 4 = 2^61 - 0.5, a tie: away from zero, 2^61 (float64 could not tell these apart).
    expect(Array.from((await all(big)).data as BigInt64Array)).toEqual([2n ** 61n]);
    const float = downsampledSource(memory("float64", [2, 2], [1, 2, 2, 2]), 1, [true, true], "mean");
    expect(Array.from((await all(float)).data as Float64Array)).toEqual([1.75]);
  });

  it("mode: the most frequent value, the smallest on a tie; level 2 from the source directly", async () => {
    // A 4 x 4 block at level 2: 9 is most frequent; in its 2 x 2 quarters, ties go to the smallest.
    const values = [9, 9, 1, 2, 9, 3, 2, 1, 4, 4, 9, 9, 5, 5, 9, 9];
    const src = memory("uint8", [4, 4], values);
    const l1 = downsampledSource(src, 1, [true, true], "mode");
    expect(Array.from((await all(l1)).data as Uint8Array)).toEqual([9, 1, 4, 9]);
    const l2 = downsampledSource(src, 2, [true, true], "mode");
    expect(Array.from((await all(l2)).data as Uint8Array)).toEqual([9]);
  });

  it("reads the source in blocks within the budget", async () => {
    const side = 2 ** 12 + 1;
    const src = memory("uint8", [side, side], new Uint8Array(side * side).fill(7));
    const level = downsampledSource(src, 1, [true, true], "mean");
    const got = await all(level);
    expect(got.shape).toEqual([2 ** 11 + 1, 2 ** 11 + 1]);
    expect((got.data as Uint8Array).every((v) => v === 7)).toBe(true);
    expect(Math.max(...src.elementsRead)).toBeLessThanOrEqual(2 ** 24);
    expect(src.elementsRead.reduce((a, b) => a + b, 0)).toBe(side * side);
  });
});
