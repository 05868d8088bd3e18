import { openArray, type Selection, slice } from "@zarrkit/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BYTES, createArray, MemoryStore } from "./helpers.js";

/** A random sharded layout: shape, shard shape (a multiple of the inner chunk shape), inner chunk shape. */
const layout = fc.integer({ min: 1, max: 3 }).chain((rank) =>
  fc
    .tuple(
      fc.array(fc.integer({ min: 1, max: 12 }), { minLength: rank, maxLength: rank }),
      fc.array(fc.integer({ min: 1, max: 4 }), { minLength: rank, maxLength: rank }),
      fc.array(fc.integer({ min: 1, max: 3 }), { minLength: rank, maxLength: rank }),
      fc.constantFrom("start", "end"),
      fc.constantFrom("rewrite", "append", "in-place"),
      fc.constantFrom("morton", "c"),
    )
    .map(([shape, inner, factor, location, strategy, order]) => ({
      shape,
      chunkShape: inner,
      shardShape: inner.map((n, d) => n * factor[d]!),
      location: location as "start" | "end",
      strategy: strategy as "rewrite" | "append" | "in-place",
      order: order as "morton" | "c",
    })),
);

const selectionFor = (shape: number[]) =>
  fc.tuple(
    ...shape.map((n) =>
      fc.record({
        start: fc.integer({ min: 0, max: n - 1 }),
        len: fc.integer({ min: 1, max: n }),
        step: fc.integer({ min: 1, max: 3 }),
      }),
    ),
  );

function indicesOf(shape: number[], sel: { start: number; len: number; step: number }[]): number[] {
  let acc = [0];
  shape.forEach((n, d) => {
    const s = sel[d]!;
    const picks: number[] = [];
    for (let i = s.start; i < Math.min(n, s.start + s.len); i += s.step) picks.push(i);
    acc = acc.flatMap((base) => picks.map((i) => base * n + i));
  });
  return acc;
}

describe("sharded round trips against a naive model", () => {
  it("random layouts, selections, partial writes and write strategies", async () => {
    await fc.assert(
      fc.asyncProperty(
        layout.chain((l) => fc.tuple(fc.constant(l), fc.array(selectionFor(l.shape), { minLength: 1, maxLength: 4 }))),
        async ([l, writes]) => {
          const store = new MemoryStore();
          const options = { codecOptions: { sharding_indexed: { writeStrategy: l.strategy, chunkOrder: l.order } } };
          const arr = await createArray(
            store,
            "a",
            {
              shape: l.shape,
              dataType: "int16",
              chunkShape: l.chunkShape,
              shardShape: l.shardShape,
              indexLocation: l.location,
              indexCodecs: [BYTES],
              fillValue: -1,
            },
            options,
          );
          const total = l.shape.reduce((a, b) => a * b, 1);
          const model = new Int16Array(total).fill(-1);
          let counter = 0;
          for (const sel of writes) {
            const selection: Selection = sel.map((s) => slice(s.start, s.start + s.len, s.step));
            const indices = indicesOf(l.shape, sel);
            const values = Int16Array.from(indices, () => (counter++ % 7 === 0 ? -1 : counter));
            await arr.set(selection, values);
            indices.forEach((i, k) => {
              model[i] = values[k]!;
            });
            const reopened = await openArray(store, "a", options);
            expect(Array.from((await reopened.get()).data as Int16Array)).toEqual(Array.from(model));
            expect(Array.from((await reopened.get(selection)).data as Int16Array)).toEqual(
              indices.map((i) => model[i]!),
            );
          }
        },
      ),
      { numRuns: 120 },
    );
  });
});
