import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ArrayToArrayCodec, registerCodec } from "@zarrkit/registry";
import { createArray, InvalidMetadataError, MemoryStore, openArray, type Selection, slice } from "../src/index.js";
import { encodeJson, parseJson } from "../src/internal.js";
import { keysOf, sequence } from "./helpers.js";

describe("creating a rectilinear array", () => {
  it("takes nested edges in chunkShape (the issue's example)", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "t", {
      shape: [1000, 10],
      chunkShape: [[100, 300, 500, 100], 10],
      dataType: "uint16",
    });
    expect(arr.metadata.chunk_grid).toEqual({
      name: "rectilinear",
      configuration: { kind: "inline", chunk_shapes: [[100, 300, 500, 100], 10] },
    });
    expect(arr.gridShape).toEqual([4, 1]);
    expect(arr.chunkSpec([2, 0]).shape).toEqual([500, 10]);
    const data = sequence("uint16", 10_000) as Uint16Array;
    await arr.set(null, data);
    expect(await keysOf(store)).toEqual(["t/c/0/0", "t/c/1/0", "t/c/2/0", "t/c/3/0", "t/zarr.json", "zarr.json"]);
    expect((await store.get("t/c/2/0"))!.length).toBe(500 * 10 * 2);
    const back = await openArray(store, "t");
    expect((await back.get()).data).toEqual(data);
    expect((await back.get([slice(395, 405), 3])).data).toEqual(
      Uint16Array.from({ length: 10 }, (_, i) => data[(395 + i) * 10 + 3]!),
    );
  });

  it("writes the edges compactly and names bad ones by the option", async () => {
    const arr = await createArray(new MemoryStore(), "t", {
      shape: [40, 7],
      chunkShape: [
        [10, 10, 10, 10],
        [[1, 4], 3],
      ],
      dataType: "int8",
    });
    expect(arr.metadata.chunk_grid).toEqual({
      name: "rectilinear",
      configuration: { kind: "inline", chunk_shapes: [10, [[1, 4], 3]] },
    });
    await expect(
      createArray(new MemoryStore(), "t", { shape: [40], chunkShape: [[10, 0, 30]], dataType: "int8" }),
    ).rejects.toThrow(/chunkShape\[0\]\[1\] must be an edge length >= 1.*got 0/);
    await expect(
      createArray(new MemoryStore(), "t", { shape: [40], chunkShape: [[10, 20]], dataType: "int8" }),
    ).rejects.toThrow(/chunkShape\[0\] edges sum to 30, less than the array's length 40/);
  });

  it("writes the ZEP 3 draft form on request", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "t", {
      shape: [30, 25],
      chunkShape: [[5, 5, 5, 15], 10],
      dataType: "float32",
      chunkGrid: "rectangular",
    });
    const stored = parseJson((await store.get("t/zarr.json"))!, "t/zarr.json") as { chunk_grid: unknown };
    expect(stored.chunk_grid).toEqual({ name: "rectangular", configuration: { chunk_shape: [[5, 5, 5, 15], 10] } });
    await arr.set([slice(3, 20), null], 1.5);
    const back = await openArray(store, "t");
    expect(back.metadata.chunk_grid).toEqual(stored.chunk_grid);
    expect(Array.from((await back.get([slice(2, 21), 24])).data as Float32Array)).toEqual([
      0,
      ...new Array(17).fill(1.5),
      0,
    ]);
  });

  it("opens rectilinear metadata written elsewhere", async () => {
    const store = new MemoryStore();
    const doc = {
      zarr_format: 3,
      node_type: "array",
      shape: [6, 6],
      data_type: "int32",
      chunk_grid: {
        name: "rectilinear",
        configuration: {
          kind: "inline",
          chunk_shapes: [
            [[1, 3], 3],
            [4, 4, 4],
          ],
        },
      },
      chunk_key_encoding: { name: "default" },
      fill_value: -1,
      codecs: [{ name: "bytes", configuration: { endian: "little" } }],
      attributes: {},
    };
    await store.set("x/zarr.json", encodeJson(doc));
    const arr = await openArray(store, "x");
    expect(arr.gridShape).toEqual([4, 2]);
    await arr.set([slice(2, 5), slice(3, 6)], 7);
    expect(await keysOf(store)).toEqual(["x/c/2/0", "x/c/2/1", "x/c/3/0", "x/c/3/1", "x/zarr.json"]);
    expect(arr.chunkSpec([3, 1]).shape).toEqual([3, 4]);
  });
});

/** The flat C-order indices a selection picks, per dimension lists (naive reference). */
function pick(shape: number[], sel: (number | { start: number; stop: number; step: number })[]): number[][] {
  return shape.map((n, d) => {
    const s = sel[d]!;
    if (typeof s === "number") return [s];
    const out: number[] = [];
    for (let i = s.start; i < Math.min(n, s.stop); i += s.step) out.push(i);
    return out;
  });
}

function flatIndices(shape: number[], lists: number[][]): number[] {
  let acc = [0];
  shape.forEach((n, d) => {
    acc = acc.flatMap((base) => lists[d]!.map((i) => base * n + i));
  });
  return acc;
}

/** Per dimension: a length and edges covering it (a bare length, or explicit edges and runs, possibly overshooting). */
const dimension = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 1, max: 5 })),
  fc
    .array(
      fc.oneof(
        fc.integer({ min: 1, max: 5 }),
        fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 3 })),
      ),
      {
        minLength: 1,
        maxLength: 6,
      },
    )
    .chain((edges) => {
      const sum = edges.reduce<number>((a, e) => a + (typeof e === "number" ? e : e[0] * e[1]), 0);
      return fc.tuple(fc.integer({ min: 0, max: sum }), fc.constant(edges));
    }),
);

const selectionFor = (shape: number[]) =>
  fc.tuple(
    ...shape.map((n) =>
      n > 0
        ? fc.oneof(
            fc.integer({ min: 0, max: n - 1 }),
            fc.record({
              start: fc.integer({ min: 0, max: n }),
              stop: fc.integer({ min: 0, max: n + 2 }),
              step: fc.integer({ min: 1, max: 4 }),
            }),
          )
        : fc.constant({ start: 0, stop: 0, step: 1 }),
    ),
  );

const case_ = fc.array(dimension, { minLength: 1, maxLength: 3 }).chain((dims) => {
  const shape = dims.map(([n]) => n);
  return fc.tuple(
    fc.constant(shape),
    fc.constant(dims.map(([, edges]) => edges)),
    fc.array(selectionFor(shape), { minLength: 1, maxLength: 3 }),
  );
});

describe("reads and writes match a naive reference (fast-check)", () => {
  it("random edges, random selections, partial writes", async () => {
    await fc.assert(
      fc.asyncProperty(case_, async ([shape, chunkShape, selections]) => {
        const store = new MemoryStore();
        const arr = await createArray(store, "a", {
          shape,
          dataType: "int32",
          chunkShape,
          chunkGrid: "rectilinear",
          fillValue: -1,
        });
        const total = shape.reduce((a, b) => a * b, 1);
        const model = new Int32Array(total).fill(-1);
        for (const [k, sel] of selections.entries()) {
          const selection: Selection = sel.map((s) => (typeof s === "number" ? s : slice(s.start, s.stop, s.step)));
          const lists = pick(shape, sel);
          const indices = flatIndices(shape, lists);
          const values = Int32Array.from(indices, (_, i) => k * 1000 + i);
          await arr.set(selection, values);
          indices.forEach((index, i) => {
            model[index] = values[i]!;
          });
          const got = await arr.get(selection);
          expect(Array.from(got.data as Int32Array)).toEqual(indices.map((i) => model[i]));
          expect(got.shape).toEqual(lists.filter((_, d) => typeof sel[d] !== "number").map((l) => l.length));
        }
        const reopened = await openArray(store, "a");
        expect(Array.from((await reopened.get()).data as Int32Array)).toEqual(Array.from(model));
      }),
      { numRuns: 200 },
    );
  });
});

/** An array->array codec that passes data through but, like a shard, only takes shapes divisible by `by`. */
const divisibleCodec = (
  configuration: Record<string, unknown>,
  ctx: { spec: { shape: readonly number[] }; field: string },
): ArrayToArrayCodec => {
  const by = configuration.by as number[];
  ctx.spec.shape.forEach((n, d) => {
    if (n % by[d]! !== 0) {
      throw new InvalidMetadataError(`${ctx.field}: ${n} is not a multiple of ${by[d]} along dimension ${d}`, {
        field: ctx.field,
      });
    }
  });
  return {
    kind: "array_to_array",
    name: "test.divisible",
    toJSON: () => ({ name: "test.divisible", configuration }),
    encodedSpec: (spec) => spec,
    encode: (chunk) => chunk,
    decode: (chunk) => chunk,
  };
};
registerCodec("test.divisible", () => divisibleCodec);

/** A pass-through codec refusing chunks of more than `max` elements: a constraint on the combination of dimensions. */
const maxElementsCodec = (
  configuration: Record<string, unknown>,
  ctx: { spec: { shape: readonly number[] }; field: string },
): ArrayToArrayCodec => {
  const elements = ctx.spec.shape.reduce((a, b) => a * b, 1);
  if (elements > (configuration.max as number)) {
    throw new InvalidMetadataError(`${ctx.field}: ${elements} elements is more than ${configuration.max}`, {
      field: ctx.field,
    });
  }
  return { ...divisibleCodec({ by: ctx.spec.shape.map(() => 1) }, ctx), name: "test.max_elements" };
};
registerCodec("test.max_elements", () => maxElementsCodec);

describe("codecs that constrain the chunk shape", () => {
  const codecs = (by: number[]) => [
    { name: "test.divisible", configuration: { by } },
    { name: "bytes", configuration: { endian: "little" } },
  ];

  it(
    "are checked against every distinct edge before anything is written, naming the chunk and the " + "dimension",
    async () => {
      const store = new MemoryStore();
      const creating = createArray(store, "t", {
        shape: [16, 12],
        chunkShape: [
          [4, 4, 8],
          [4, 4, 6],
        ],
        dataType: "uint8",
        codecs: codecs([4, 2]),
      });
      await expect(creating).resolves.toBeDefined();
      const error = await createArray(store, "u", {
        shape: [16, 12],
        chunkShape: [
          [4, 4, 8],
          [4, 6, 2],
        ],
        dataType: "uint8",
        codecs: codecs([4, 4]),
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(InvalidMetadataError);
      expect((error as Error).message).toMatch(
        /^The chunk at grid coordinates \[0, 1\] has shape \[4, 6\], which the codecs reject along dimension 1: codecs\[0\]: 6 is not a multiple of 4/,
      );
      expect(await keysOf(store)).toEqual(["t/zarr.json", "zarr.json"]);
    },
  );

  it("are checked when metadata written elsewhere is opened", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "t", {
      shape: [12],
      chunkShape: [[4, 8]],
      dataType: "uint8",
      codecs: codecs([4]),
    });
    const doc = {
      ...arr.metadata,
      chunk_grid: { name: "rectilinear", configuration: { kind: "inline", chunk_shapes: [[4, 8, 2]] } },
      shape: [14],
    };
    await store.set("t/zarr.json", encodeJson(doc));
    await expect(openArray(store, "t")).rejects.toThrow(
      /grid coordinates \[2\] has shape \[2\], which the codecs reject along dimension 0/,
    );
  });

  it("leave the codecs' own error alone when chunk 0 is at fault", async () => {
    const creating = createArray(new MemoryStore(), "t", {
      shape: [10],
      chunkShape: [[6, 4]],
      dataType: "uint8",
      codecs: codecs([4]),
    });
    await expect(creating).rejects.toThrow(/^codecs\[0\]: 6 is not a multiple of 4 along dimension 0$/);
  });

  it("that involve several dimensions at once fail when the chunk is first used, still naming it", async () => {
    const store = new MemoryStore();
    const limited = [
      { name: "test.max_elements", configuration: { max: 8 } },
      { name: "bytes", configuration: { endian: "little" } },
    ];
    const arr = await createArray(store, "t", {
      shape: [6, 6],
      chunkShape: [
        [2, 4],
        [2, 4],
      ],
      dataType: "uint8",
      codecs: limited,
    });
    await arr.set([slice(0, 2), null], 1);
    await expect(arr.get([slice(2, 6), slice(2, 6)])).rejects.toThrow(
      /^The chunk at grid coordinates \[1, 1\] has shape \[4, 4\], which the codecs reject: codecs\[0\]: 16 elements is more than 8$/,
    );
  });
});
