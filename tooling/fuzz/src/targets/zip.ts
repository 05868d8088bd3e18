// Target 5: zip archives. Archives of 1-6 entries (STORED or DEFLATE; written
// by fflate's zipSync, or STORED and ZIP64 by @zarrkit/store-zip's writer),
// their bytes mutated (bit flips, overwrites, runs of 0xff where sizes and
// offsets live, truncation, extension), then every entry read through a
// ZipStore over a MemoryStore, whole and by a window.
import { concatBytes } from "@zarrkit/util";
import { MemoryStore } from "@zarrkit/core";
import { ZipStore, zipChunks } from "@zarrkit/store-zip";
import fc from "fast-check";
import { zipSync } from "fflate";
import { classify, combine, ContractViolation, itemAt, type Outcome, sameBytes } from "../contract.js";
import type { FuzzTarget } from "../target.js";

export interface ZipEntryCase {
  name: string;
  length: number;
  content: "smooth" | "noise" | "zeros";
  deflate: boolean;
}

export type ZipMutation =
  | { op: "flip"; pos: number; bit: number }
  | { op: "overwrite"; pos: number; bytes: number[] }
  | { op: "ones"; pos: number; width: 2 | 4 | 8 }
  | { op: "truncate"; keep: number }
  | { op: "extend"; bytes: number[] };

export interface ZipCase {
  writer: "fflate" | "zarrkit";
  entries: ZipEntryCase[];
  mutations: ZipMutation[];
  window: { offset: number; length: number };
}

const NAMES = ["zarr.json", "a/zarr.json", "a/c/0/0", "a/c/0/1", "b/x", "deep/er/still/c"];

const entryArb: fc.Arbitrary<ZipEntryCase> = fc.record({
  name: fc.constantFrom(...NAMES),
  length: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 100_000 })),
  content: fc.constantFrom("smooth" as const, "noise" as const, "zeros" as const),
  deflate: fc.boolean(),
});

const posArb = fc.nat({ max: 2 ** 24 });
const mutationArb: fc.Arbitrary<ZipMutation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant("flip" as const), pos: posArb, bit: fc.integer({ min: 0, max: 7 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("overwrite" as const),
      pos: posArb,
      bytes: fc.array(fc.nat({ max: 255 }), { minLength: 1, maxLength: 8 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("ones" as const),
      pos: posArb,
      width: fc.constantFrom(2 as const, 4 as const, 8 as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("truncate" as const), keep: posArb }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("extend" as const),
      bytes: fc.array(fc.nat({ max: 255 }), { minLength: 1, maxLength: 16 }),
    }),
  },
);

const zipCaseArb: fc.Arbitrary<ZipCase> = fc.record({
  writer: fc.constantFrom("fflate" as const, "zarrkit" as const),
  entries: fc.uniqueArray(entryArb, { minLength: 1, maxLength: 6, selector: (e) => e.name }),
  mutations: fc.array(mutationArb, { minLength: 0, maxLength: 3 }),
  window: fc.record({ offset: fc.nat({ max: 120_000 }), length: fc.nat({ max: 120_000 }) }),
});

function content(entry: ZipEntryCase, seed: number): Uint8Array {
  const out = new Uint8Array(entry.length);
  if (entry.content === "zeros") return out;
  let state = seed | 1;
  for (let i = 0; i < out.length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[i] = entry.content === "noise" ? state : (Math.round(90 * Math.sin(i / 300)) + (state & 3)) & 0xff;
  }
  return out;
}

async function build(c: ZipCase, values: Map<string, Uint8Array>): Promise<Uint8Array> {
  if (c.writer === "fflate") {
    const files = Object.fromEntries(
      c.entries.map((e) => [e.name, [values.get(e.name)!, { level: e.deflate ? 6 : 0 }]]),
    );
    return zipSync(files as Parameters<typeof zipSync>[0]);
  }
  const source = new MemoryStore();
  for (const [name, value] of values) await source.set(name, value);
  const parts: Uint8Array[] = [];
  for await (const part of zipChunks(source, { ome: false })) parts.push(part);
  return concatBytes(parts);
}

function mutate(original: Uint8Array, mutations: readonly ZipMutation[]): Uint8Array {
  let bytes: Uint8Array = original.slice();
  for (const m of mutations) {
    if (m.op === "extend") {
      bytes = concatBytes([bytes, Uint8Array.from(m.bytes)]);
      continue;
    }
    if (bytes.length === 0) continue;
    const p = (m.op === "truncate" ? m.keep : m.pos) % bytes.length;
    if (m.op === "flip") bytes[p] = itemAt(bytes, p) ^ (1 << m.bit);
    else if (m.op === "overwrite") bytes.set(m.bytes.slice(0, bytes.length - p), p);
    else if (m.op === "ones") bytes.fill(0xff, p, Math.min(bytes.length, p + m.width));
    else bytes = bytes.slice(0, p);
  }
  return bytes;
}

/**
 * One read classified: a key that vanished (names carry no checksum: a
 * mutated name is another key) may read as missing; any other different
 * value only where no CRC-32 covers the read (a window of a STORED entry).
 */
async function readClassified(
  label: string,
  read: () => Promise<Uint8Array | undefined>,
  expected: Uint8Array,
  checked: boolean,
): Promise<Outcome> {
  let got: Uint8Array | undefined;
  const outcome = await classify(
    label,
    async () => (got = await read()),
    (value) => value !== undefined && sameBytes(value, expected),
    true,
  );
  if (outcome === "different" && got !== undefined && checked) {
    throw new ContractViolation(
      "wrong-value",
      `${label}: a different value where the entry's CRC-32 covers it: ${got.length} bytes`,
    );
  }
  return outcome;
}

export const zipTarget: FuzzTarget<ZipCase> = {
  name: "zip",
  description:
    "zip archives (fflate STORED/DEFLATE, zarrkit STORED ZIP64) mutated, every entry read whole and by a window",
  arbitrary: zipCaseArb,
  async run(c, dump) {
    const values = new Map(c.entries.map((e, i) => [e.name, content(e, i + 1)]));
    const bytes = mutate(await build(c, values), c.mutations);
    if (dump) dump(new Map([["archive.zip", bytes]]));
    const outer = new MemoryStore();
    await outer.set("archive.zip", bytes);
    let store: ZipStore;
    try {
      store = await ZipStore.open(outer, "archive.zip");
    } catch (error) {
      return {
        outcome: await classify(
          "open",
          () => Promise.reject(error),
          () => false,
          false,
        ),
      };
    }
    const outcomes: Outcome[] = [];
    for (const entry of c.entries) {
      const value = values.get(entry.name)!;
      outcomes.push(await readClassified(`get ${entry.name}`, () => store.get(entry.name), value, true));
      const end = Math.min(value.length, c.window.offset + c.window.length);
      const window = value.slice(Math.min(c.window.offset, value.length), end);
      const range = { offset: c.window.offset, length: c.window.length };
      outcomes.push(
        await readClassified(
          `getRange ${entry.name}`,
          () => store.getRange(entry.name, range),
          window,
          entry.deflate && c.writer === "fflate",
        ),
      );
    }
    return { outcome: combine(outcomes) };
  },
};
