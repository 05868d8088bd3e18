// Target 2: zarr.json documents. Valid metadata written by createArray (plain,
// compressed, sharded, uint64 with a fill value above 2^53, a group), then
// mutated as JSON (deleted fields, swapped types, integer literals above 2^53,
// null configurations, prototype names as codec / data type / grid names,
// absurd shapes, deep nesting) or as text, stored raw, then opened and read.
import { createArray, createGroup, MemoryStore, open, type Store, ZarrArray } from "@zarrkit/core";
import "@zarrkit/codecs";
import "@zarrkit/crc32c";
import "@zarrkit/sharding";
import fc from "fast-check";
import { classify, combine, cyclicAt, itemAt, type Outcome, sameBytes } from "../contract.js";
import { chunkedData, type Numeric, type NumericDtype, product } from "../ndarray.js";
import type { FuzzTarget, StoreDump } from "../target.js";
import { dumpStore } from "./shard.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Base {
  name: string;
  dtype?: NumericDtype;
  build(store: Store): Promise<Numeric | undefined>;
}

const BYTES = { name: "bytes", configuration: { endian: "little" } };

function arrayBase(
  name: string,
  dtype: NumericDtype,
  shape: number[],
  chunk: number[],
  extra: Record<string, unknown>,
  fill = 0,
): Base {
  return {
    name,
    dtype,
    async build(store) {
      const options = structuredClone({ shape, chunkShape: chunk, ...extra });
      const arr = await createArray(store, "a", {
        ...options,
        dataType: dtype,
        fillValue: dtype === "uint64" ? 2n ** 64n - 1n : fill,
      });
      const data = chunkedData(dtype, shape, chunk, fill, 7, 0.3);
      await arr.set(null, data);
      return data;
    },
  };
}

export const BASES: Base[] = [
  arrayBase("plain int32", "int32", [6, 5], [4, 3], {}),
  arrayBase("gzip uint8", "uint8", [10], [4], { codecs: [BYTES, { name: "gzip", configuration: { level: 1 } }] }, 3),
  arrayBase("sharded int16", "int16", [8, 8], [2, 2], { shardShape: [4, 4] }),
  arrayBase("sharded nested zstd float64", "float64", [8, 4], [4, 4], {
    shardShape: [8, 4],
    codecs: [
      {
        name: "sharding_indexed",
        configuration: {
          chunk_shape: [2, 2],
          codecs: [BYTES, { name: "zstd", configuration: { level: 1, checksum: false } }],
          index_codecs: [BYTES],
          index_location: "start",
        },
      },
    ],
  }),
  arrayBase("uint64 fill 2^64-1, transpose, blosc", "uint64", [5, 3], [2, 3], {
    codecs: [
      { name: "transpose", configuration: { order: [1, 0] } },
      BYTES,
      { name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", blocksize: 0 } },
    ],
  }),
  {
    name: "group",
    async build(store) {
      await createGroup(store, "a", { attributes: { answer: 42, nested: { list: [1, 2, 3] } } } as never);
      return undefined;
    },
  },
];

export const PROTO_NAMES = [
  "toString",
  "constructor",
  "__proto__",
  "hasOwnProperty",
  "valueOf",
  "prototype",
  "__defineGetter__",
  "isPrototypeOf",
];
/** Number literals as JSON text: above 2^53, beyond float range, negative zero, and so on. */
export const LITERALS = [
  "9007199254740993",
  "18446744073709551616",
  "18446744073709551615",
  "-9223372036854775809",
  "123456789012345678901234567890123",
  "1e400",
  "-1e400",
  "1e-400",
  "-0",
  "4.0",
  "8589934592",
  "2147483648",
];
const lit = (text: string) => `@@LIT:${text}@@`;
const ABSURD_SHAPES: Json[] = [
  [lit("8589934592")],
  [lit("9007199254740992")],
  [lit("9007199254740993")],
  [lit("18446744073709551616")],
  [2 ** 31, 2 ** 31],
  [2 ** 20, 2 ** 20, 2 ** 20],
  Array(64).fill(1),
  Array(40).fill(2),
  Array(1000).fill(1),
  [0],
  [0, 0],
  [-1],
  [1.5],
  ["4"],
  [],
  [null],
  [lit("1e400")],
];

type ValueSpec =
  | { kind: "const"; index: number }
  | { kind: "literal"; text: string }
  | { kind: "proto"; name: string }
  | { kind: "shape"; index: number };

export const CONSTS: Json[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  "",
  "x",
  [],
  {},
  [[[[[[[[[[1]]]]]]]]]],
  JSON.parse('{"__proto__": {"name": "gzip", "level": 99, "polluted": true}}'),
  { name: "bytes" },
  { name: "crc32c", configuration: null },
  "\u0000",
  "a/../../b",
];

type Where =
  | "codec"
  | "last codec"
  | "inner codec"
  | "index codec"
  | "data_type"
  | "chunk_grid"
  | "chunk_key_encoding"
  | "separator"
  | "node_type";
type Shaped = "shape" | "chunk_shape" | "inner chunk_shape" | "shape and chunk_shape";

export type MetaMutation =
  | { op: "delete"; at: number }
  | { op: "set"; at: number; value: ValueSpec }
  | { op: "name"; where: Where; name: string }
  | { op: "nullConfig"; at: number }
  | { op: "shape"; which: Shaped; shape: number }
  | { op: "deep"; depth: number }
  | { op: "protoKey"; at: number; key: string };

export type TextMutation =
  | { op: "truncate"; at: number }
  | { op: "flip"; at: number; bit: number }
  | { op: "duplicate"; key: string; value: ValueSpec }
  | { op: "wrap"; prefix: string; suffix: string };

export interface MetadataCase {
  base: number;
  mutations: MetaMutation[];
  text: TextMutation | null;
}

const valueArb: fc.Arbitrary<ValueSpec> = fc.oneof(
  fc.record({ kind: fc.constant("const" as const), index: fc.nat({ max: CONSTS.length - 1 }) }),
  fc.record({ kind: fc.constant("literal" as const), text: fc.constantFrom(...LITERALS) }),
  fc.record({ kind: fc.constant("proto" as const), name: fc.constantFrom(...PROTO_NAMES) }),
  fc.record({ kind: fc.constant("shape" as const), index: fc.nat({ max: ABSURD_SHAPES.length - 1 }) }),
);

const mutationArb: fc.Arbitrary<MetaMutation> = fc.oneof(
  fc.record({ op: fc.constant("delete" as const), at: fc.nat() }),
  { weight: 2, arbitrary: fc.record({ op: fc.constant("set" as const), at: fc.nat(), value: valueArb }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("name" as const),
      where: fc.constantFrom<Where>(
        "codec",
        "last codec",
        "inner codec",
        "index codec",
        "data_type",
        "chunk_grid",
        "chunk_key_encoding",
        "separator",
        "node_type",
      ),
      name: fc.constantFrom(
        ...PROTO_NAMES,
        "sharding_indexed",
        "bytes",
        "gzip",
        "crc32c",
        "int32",
        "regular",
        "v2",
        ".",
      ),
    }),
  },
  fc.record({ op: fc.constant("nullConfig" as const), at: fc.nat() }),
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("shape" as const),
      which: fc.constantFrom<Shaped>("shape", "chunk_shape", "inner chunk_shape", "shape and chunk_shape"),
      shape: fc.nat({ max: ABSURD_SHAPES.length - 1 }),
    }),
  },
  fc.record({ op: fc.constant("deep" as const), depth: fc.constantFrom(2, 10, 100, 3000) }),
  fc.record({
    op: fc.constant("protoKey" as const),
    at: fc.nat(),
    key: fc.constantFrom("__proto__", "constructor", "toString"),
  }),
);

const textArb: fc.Arbitrary<TextMutation> = fc.oneof(
  fc.record({ op: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("flip" as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({
    op: fc.constant("duplicate" as const),
    key: fc.constantFrom("shape", "data_type", "codecs", "zarr_format", "node_type", "fill_value"),
    value: valueArb,
  }),
  fc.record({
    op: fc.constant("wrap" as const),
    prefix: fc.constantFrom("", "\ufeff", " ", "[", "null"),
    suffix: fc.constantFrom("", "\n", " x", "]", "{}"),
  }),
);

export const metadataCaseArb: fc.Arbitrary<MetadataCase> = fc.record({
  base: fc.nat({ max: BASES.length - 1 }),
  mutations: fc.array(mutationArb, { minLength: 1, maxLength: 3 }),
  text: fc.option(textArb, { freq: 5 }),
});

function materialize(spec: ValueSpec): Json {
  switch (spec.kind) {
    case "const":
      return JSON.parse(JSON.stringify(itemAt(CONSTS, spec.index)));
    case "literal":
      return lit(spec.text);
    case "proto":
      return spec.name;
    case "shape":
      return structuredClone(itemAt(ABSURD_SHAPES, spec.index));
  }
}

type Slot = { parent: Json[] | { [key: string]: Json }; key: string | number };

/** Every (parent, key) slot of the document, depth first. */
function slots(doc: Json, out: Slot[] = []): Slot[] {
  if (Array.isArray(doc)) {
    doc.forEach((v, i) => {
      out.push({ parent: doc, key: i });
      slots(v, out);
    });
  } else if (doc && typeof doc === "object") {
    for (const [k, v] of Object.entries(doc)) {
      out.push({ parent: doc, key: k });
      slots(v, out);
    }
  }
  return out;
}

const obj = (v: Json | undefined): { [key: string]: Json } | undefined =>
  v && typeof v === "object" && !Array.isArray(v) ? v : undefined;
const arr = (v: Json | undefined): Json[] | undefined => (Array.isArray(v) ? v : undefined);

function codecAt(doc: { [key: string]: Json }, where: Where): { [key: string]: Json } | undefined {
  const codecs = arr(doc.codecs);
  if (!codecs || codecs.length === 0) return undefined;
  if (where === "codec") return obj(codecs[0]);
  if (where === "last codec") return obj(codecs[codecs.length - 1]);
  const config = obj(obj(codecs[0])?.configuration);
  const list = arr(where === "inner codec" ? config?.codecs : config?.index_codecs);
  return obj(list?.[0]);
}

export function mutateDoc(doc: Json, m: MetaMutation): Json {
  const root = obj(doc);
  switch (m.op) {
    case "delete":
    case "set":
    case "nullConfig":
    case "protoKey": {
      if (m.op === "nullConfig") {
        const s = cyclicAt(
          slots(doc).filter((slot) => slot.key === "configuration"),
          m.at,
        );
        if (!s) return doc;
        (s.parent as { [key: string]: Json })[s.key as string] = null;
        return doc;
      }
      const s = cyclicAt(slots(doc), m.at);
      if (!s) return doc;
      if (m.op === "delete") {
        if (Array.isArray(s.parent)) s.parent.splice(s.key as number, 1);
        else delete s.parent[s.key as string];
      } else if (m.op === "set") {
        (s.parent as Record<string | number, Json>)[s.key] = materialize(m.value);
      } else {
        const target = obj((s.parent as Record<string | number, Json>)[s.key]);
        if (target)
          Object.defineProperty(target, m.key, {
            value: { name: "gzip", configuration: { level: 1 } },
            enumerable: true,
            configurable: true,
            writable: true,
          });
      }
      return doc;
    }
    case "name": {
      if (!root) return doc;
      if (m.where === "data_type" || m.where === "node_type") root[m.where] = m.name;
      else if (m.where === "chunk_grid" || m.where === "chunk_key_encoding") {
        const o = obj(root[m.where]);
        if (o) o.name = m.name;
      } else if (m.where === "separator") {
        const c = obj(obj(root.chunk_key_encoding)?.configuration);
        if (c) c.separator = m.name;
      } else {
        const codec = codecAt(root, m.where);
        if (codec) codec.name = m.name;
      }
      return doc;
    }
    case "shape": {
      if (!root) return doc;
      const shape = structuredClone(itemAt(ABSURD_SHAPES, m.shape));
      if (m.which === "shape" || m.which === "shape and chunk_shape") root.shape = shape;
      if (m.which === "chunk_shape" || m.which === "shape and chunk_shape") {
        const c = obj(obj(root.chunk_grid)?.configuration);
        if (c) c.chunk_shape = structuredClone(shape);
      }
      if (m.which === "inner chunk_shape") {
        const c = obj(obj(arr(root.codecs)?.[0])?.configuration);
        if (c && "chunk_shape" in c) c.chunk_shape = shape;
      }
      return doc;
    }
    case "deep": {
      // codecs: sharding_indexed inside sharding_indexed, `depth` levels.
      if (!root) return doc;
      let codecs: Json = [structuredClone(BYTES) as unknown as Json];
      const inner = obj(obj(root.chunk_grid)?.configuration)?.chunk_shape ?? [1];
      for (let i = 0; i < m.depth; i++) {
        codecs = [
          {
            name: "sharding_indexed",
            configuration: {
              chunk_shape: structuredClone(inner),
              codecs,
              index_codecs: [structuredClone(BYTES) as unknown as Json],
            },
          },
        ];
      }
      root.codecs = codecs;
      return doc;
    }
  }
}

export function serialize(doc: Json): string {
  return JSON.stringify(doc).replace(/"@@LIT:([^@]*)@@"/g, "$1");
}

export function mutateText(text: string, m: TextMutation): string {
  switch (m.op) {
    case "truncate":
      return text.slice(0, m.at % Math.max(1, text.length));
    case "flip": {
      const bytes = Buffer.from(text, "utf8");
      if (bytes.length > 0) {
        const at = m.at % bytes.length;
        bytes[at] = itemAt(bytes, at) ^ (1 << m.bit);
      }
      return bytes.toString("latin1");
    }
    case "duplicate": {
      const end = text.lastIndexOf("}");
      if (end < 0) return text;
      return `${text.slice(0, end)},${JSON.stringify(m.key)}:${serialize(materialize(m.value))}${text.slice(end)}`;
    }
    case "wrap":
      return `${m.prefix}${text}${m.suffix}`;
  }
}

/** The encoded zarr.json after the case's mutations (text flips produce latin1 bytes, so invalid UTF-8 too). */
export function mutatedMetadata(original: Uint8Array, c: MetadataCase): Uint8Array {
  let doc = JSON.parse(new TextDecoder().decode(original)) as Json;
  for (const m of c.mutations) doc = mutateDoc(doc, m);
  let text = serialize(doc);
  if (c.text) text = mutateText(text, c.text);
  return c.text?.op === "flip" ? new Uint8Array(Buffer.from(text, "latin1")) : new TextEncoder().encode(text);
}

/** Opens "a" and reads it (origin element; whole array when small or beyond zarrkit's documented 2^31-1 slots). */
export async function readNode(
  store: Store,
  expected: Numeric | undefined,
  baseShape: number[] | undefined,
): Promise<Outcome> {
  const outcomes: Outcome[] = [];
  let node: Awaited<ReturnType<typeof open>> | undefined;
  outcomes.push(
    await classify(
      "open",
      async () => (node = await open(store, "a", { workers: false })),
      (n) => (expected === undefined ? !(n instanceof ZarrArray) : n instanceof ZarrArray),
      true,
    ),
  );
  if (!(node instanceof ZarrArray)) return combine(outcomes);
  const a = node;
  const shape = a.shape;
  const sameShape =
    baseShape !== undefined && shape.length === baseShape.length && shape.every((n, i) => n === baseShape[i]);
  if (shape.every((n) => n > 0)) {
    outcomes.push(
      await classify(
        "origin read",
        () => a.get(shape.map(() => 0)),
        (v) => expected !== undefined && sameShape && sameBytes(v.data as Numeric, expected.subarray(0, 1)),
        true,
      ),
    );
  }
  const n = product(shape);
  if (n <= 2 ** 16 || n > 2 ** 31 - 1) {
    outcomes.push(
      await classify(
        "whole read",
        () => a.get(),
        (v) => expected !== undefined && sameShape && sameBytes(v.data as Numeric, expected),
        true,
      ),
    );
  }
  return combine(outcomes);
}

export const metadataTarget: FuzzTarget<MetadataCase> = {
  name: "metadata",
  description: "zarr.json documents mutated as JSON and as text, then opened and read",
  arbitrary: metadataCaseArb,
  async run(c, dump?: (files: StoreDump) => void) {
    const base = itemAt(BASES, c.base);
    const store = new MemoryStore();
    const expected = await base.build(store);
    const original = (await store.get("a/zarr.json"))!;
    const baseShape = (JSON.parse(new TextDecoder().decode(original)) as { shape?: number[] }).shape;
    await store.set("a/zarr.json", mutatedMetadata(original, c));
    if (dump) dump(await dumpStore(store));
    return { outcome: await readNode(store, expected, baseShape) };
  },
};
