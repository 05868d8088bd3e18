import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createArray, MemoryStore, type Selection, slice } from "../src/index.js";

/** Naive reference: the flat C-order indices a selection picks, per dimension lists. */
function pick(shape: number[], sel: (number | { start: number; stop: number; step: number })[]): number[][] {
  return shape.map((n, d) => {
    const s = sel[d]!;
    if (typeof s === "number") return [s < 0 ? s + n : s];
    const out: number[] = [];
    for (let i = Math.max(0, s.start); i < Math.min(n, s.stop); i += s.step) out.push(i);
    return out;
  });
}

function flatIndices(shape: number[], lists: number[][]): number[] {
  let acc: number[] = [0];
  shape.forEach((n, d) => {
    acc = acc.flatMap((base) => lists[d]!.map((i) => base * n + i));
  });
  return acc;
}

const case_ = fc
  .integer({ min: 1, max: 3 })
  .chain((rank) =>
    fc.tuple(
      fc.array(fc.integer({ min: 1, max: 9 }), { minLength: rank, maxLength: rank }),
      fc.array(fc.integer({ min: 1, max: 5 }), { minLength: rank, maxLength: rank }),
    ),
  )
  .chain(([shape, chunkShape]) =>
    fc.tuple(
      fc.constant(shape),
      fc.constant(chunkShape),
      fc.tuple(
        ...shape.map((n) =>
          fc.oneof(
            fc.integer({ min: -n, max: n - 1 }),
            fc.record({
              start: fc.integer({ min: 0, max: n }),
              stop: fc.integer({ min: 0, max: n + 2 }),
              step: fc.integer({ min: 1, max: 4 }),
            }),
          ),
        ),
      ),
    ),
  );

describe("indexing matches a naive reference", () => {
  it("get and set of random selections over random chunkings", async () => {
    await fc.assert(
      fc.asyncProperty(case_, async ([shape, chunkShape, sel]) => {
        const store = new MemoryStore();
        const arr = await createArray(store, "a", { shape, dataType: "int32", chunkShape, fillValue: -1 });
        const total = shape.reduce((a, b) => a * b, 1);
        const model = Int32Array.from({ length: total }, (_, i) => i * 7);
        await arr.set(null, model);
        const selection: Selection = sel.map((s) => (typeof s === "number" ? s : slice(s.start, s.stop, s.step)));
        const lists = pick(shape, sel);
        const indices = flatIndices(shape, lists);
        const got = await arr.get(selection);
        expect(Array.from(got.data as Int32Array)).toEqual(indices.map((i) => model[i]));
        expect(got.shape).toEqual(lists.filter((_, d) => typeof sel[d] !== "number").map((l) => l.length));
        const values = Int32Array.from(indices, (_, k) => -100 - k);
        await arr.set(selection, values);
        indices.forEach((i, k) => {
          model[i] = values[k]!;
        });
        expect(Array.from((await arr.get()).data as Int32Array)).toEqual(Array.from(model));
      }),
      { numRuns: 150 },
    );
  });
});
