// Mutated zarr.json documents: random deletions, type swaps, integers past
// 2^53 (written as literals, parsed as bigint) and Object.prototype names.
// Opening each (and reading one element of an array that opens) either
// works or throws a ZarrkitError: never an untyped error, never a hang.
//
// Run against the code before these checks, it found (each now a named test
// in hostile-metadata.test.ts): a huge integer as node_type or zarr_format
// (TypeError from JSON.stringify on a bigint: "node_type", "zarr_format"),
// and "configuration": null in the chunk key encoding, a regular grid and a
// rectilinear grid (TypeError reading null: the '"configuration": null is a
// typed error' tests).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryStore, open, slice, ZarrArray, ZarrkitError } from "../src/index.js";

const SEED = 20240611;
const HUGE = "98765432109876543210987654321";
const MARK = "@@HUGE@@";

const VALID: Record<string, unknown>[] = [
  {
    zarr_format: 3,
    node_type: "array",
    shape: [6, 5],
    data_type: "int16",
    chunk_grid: { name: "regular", configuration: { chunk_shape: [4, 2] } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: 3,
    codecs: [
      { name: "transpose", configuration: { order: [1, 0] } },
      { name: "bytes", configuration: { endian: "big" } },
    ],
    attributes: { a: [1, 2] },
    dimension_names: ["y", null],
  },
  {
    zarr_format: 3,
    node_type: "array",
    shape: [10],
    data_type: "float64",
    chunk_grid: { name: "rectilinear", configuration: { kind: "inline", chunk_shapes: [[3, [2, 2], 3]] } },
    chunk_key_encoding: { name: "v2", configuration: { separator: "." } },
    fill_value: "NaN",
    codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    attributes: {},
  },
  {
    zarr_format: 3,
    node_type: "array",
    shape: [],
    data_type: "r24",
    chunk_grid: { name: "regular", configuration: { chunk_shape: [] } },
    chunk_key_encoding: { name: "default" },
    fill_value: [1, 2, 3],
    codecs: ["bytes"],
    attributes: {},
    storage_transformers: [],
  },
  { zarr_format: 3, node_type: "group", attributes: { x: 1 }, consolidated_metadata: null },
];

type Path = (string | number)[];

function paths(value: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [];
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) out.push([...prefix, i], ...paths(v, [...prefix, i]));
  } else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) out.push([...prefix, k], ...paths(v, [...prefix, k]));
  }
  return out;
}

/** A copy of `doc` with the value at `path` replaced (or deleted when `replacement` is DELETE). */
const DELETE = Symbol("delete");
function mutate(doc: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy = (Array.isArray(doc) ? [...doc] : { ...(doc as object) }) as Record<string | number, unknown>;
  const next = mutate(copy[head!], rest, replacement);
  if (next === DELETE) {
    if (Array.isArray(copy)) (copy as unknown[]).splice(head as number, 1);
    else delete copy[head!];
  } else {
    copy[head!] = next;
  }
  return copy;
}

const PROTO_NAMES = ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf", "prototype"];

const replacement: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(DELETE) },
  { weight: 3, arbitrary: fc.constant(MARK) },
  { weight: 1, arbitrary: fc.constant(`-${MARK}`) },
  { weight: 3, arbitrary: fc.constantFrom(...PROTO_NAMES) },
  { weight: 2, arbitrary: fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53, 2 ** 31, "", [], {}) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      { name: "toString" },
      { name: "bytes", configuration: null },
      { configuration: null },
      [MARK],
      { __proto__: null },
    ),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

/** zarr.json text: huge-integer markers become bare literals that the parser reads as bigint. */
function text(doc: unknown): string {
  return JSON.stringify(doc).replaceAll(`"-${MARK}"`, `-${HUGE}`).replaceAll(`"${MARK}"`, HUGE);
}

const HANG_MS = 2000;

async function openAndRead(source: string): Promise<void> {
  const store = new MemoryStore();
  await store.set("zarr.json", new TextEncoder().encode(source));
  const node = await open(store, "", { workers: false });
  if (node instanceof ZarrArray) {
    const one = node.shape.map(() => slice(0, 1));
    await node.get(one);
    await node.set(one, node.fillValue);
  }
}

/** Run `openAndRead`: undefined when it worked or threw a ZarrkitError, else what went wrong. */
async function outcome(source: string): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`hang (> ${HANG_MS} ms)`), HANG_MS);
  });
  try {
    return await Promise.race([
      openAndRead(source).then(
        () => undefined,
        (error: unknown) =>
          error instanceof ZarrkitError
            ? undefined
            : `untyped ${(error as Error)?.name}: ${(error as Error)?.message ?? error}`,
      ),
      hang,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe("mutated zarr.json documents open or fail with a ZarrkitError", () => {
  it("holds for seeded random mutations (1 to 3 per document)", async () => {
    const started = performance.now();
    let runs = 0;
    const mutation = fc
      .constantFrom(...VALID)
      .chain((doc) =>
        fc.array(fc.tuple(fc.nat(), replacement), { minLength: 1, maxLength: 3 }).map((steps) => ({ doc, steps })),
      );
    await fc.assert(
      fc.asyncProperty(mutation, async ({ doc, steps }) => {
        runs++;
        let current: unknown = doc;
        for (const [pick, value] of steps) {
          const all = [[], ...paths(current)];
          current = mutate(current, all[pick % all.length]!, value);
        }
        if (current === DELETE) return;
        const source = text(current);
        expect(await outcome(source), source).toBeUndefined();
      }),
      { seed: SEED, numRuns: 8000 },
    );
    console.log(`${runs} mutated documents in ${(performance.now() - started).toFixed(0)} ms`);
  }, 30_000);
});
