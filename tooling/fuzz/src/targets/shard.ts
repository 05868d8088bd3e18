// Target 1: shard files. Valid sharded arrays written with zarrkit's API into a
// MemoryStore (index at start or end, index with or without crc32c, inner
// chains raw / gzip / zstd / blosc with or without crc32c, nested sharding),
// one shard's bytes mutated, the array read back whole and by selections.
import {
  type CodecMetadata,
  createArray,
  MemoryStore,
  openArray,
  type Selection,
  type Store,
  slice,
} from "@zarrkit/core";
import { concatBytes } from "@zarrkit/util";
import "@zarrkit/codecs";
import { crc32c, initCrc32c } from "@zarrkit/crc32c";
import "@zarrkit/sharding";
import fc from "fast-check";
import { gzipZerosBomb, zstdContentSizeLie, zstdZerosBomb } from "../bombs.js";
import { classify, combine, cyclicAt, itemAt, type Outcome, sameBytes, toHex } from "../contract.js";
import { chunkedData, type Numeric, type NumericDtype, product, type SelDim, select } from "../ndarray.js";
import type { FuzzTarget, StoreDump } from "../target.js";

export type Inner = "raw" | "gzip" | "zstd" | "blosc";

export interface NestedLayout {
  chunk: number[];
  inner: Inner;
  innerCrc: boolean;
  indexCrc: boolean;
  indexLocation: "start" | "end";
}

export interface ShardLayout {
  dtype: NumericDtype;
  shape: number[];
  chunk: number[];
  shard: number[];
  indexLocation: "start" | "end";
  indexCrc: boolean;
  inner: Inner;
  innerCrc: boolean;
  bloscCname: "lz4" | "zstd" | "blosclz";
  nested: NestedLayout | null;
  fill: number;
  dataSeed: number;
  emptyChance: number;
}

export type Mutation =
  | { op: "flip"; pos: number; bit: number }
  | { op: "overwrite"; pos: number; bytes: number[] }
  | { op: "truncate"; keep: number }
  | { op: "extend"; bytes: number[]; zeros: number }
  | { op: "entry"; entry: number; field: 0 | 1; value: bigint; forge: boolean }
  | { op: "shift"; entry: number; field: 0 | 1; delta: number; forge: boolean }
  | { op: "swap"; a: number; b: number; forge: boolean }
  | { op: "lie"; entry: number }
  | { op: "bomb"; entry: number };

export interface ShardCase {
  layout: ShardLayout;
  shardPick: number;
  mutations: Mutation[];
  selection: SelDim[];
}

const BYTES: CodecMetadata = { name: "bytes", configuration: { endian: "little" } };
const CRC: CodecMetadata = { name: "crc32c" };
export const EMPTY = 2n ** 64n - 1n;

function chain(inner: Inner, crc: boolean, cname: ShardLayout["bloscCname"]): CodecMetadata[] {
  const codecs = [BYTES];
  if (inner === "gzip") codecs.push({ name: "gzip", configuration: { level: 1 } });
  if (inner === "zstd") codecs.push({ name: "zstd", configuration: { level: 1, checksum: false } });
  if (inner === "blosc")
    codecs.push({ name: "blosc", configuration: { cname, clevel: 5, shuffle: "shuffle", blocksize: 0 } });
  if (crc) codecs.push(CRC);
  return codecs;
}

export function innerCodecs(l: ShardLayout): CodecMetadata[] {
  if (!l.nested) return chain(l.inner, l.innerCrc, l.bloscCname);
  const n = l.nested;
  const nested: CodecMetadata = {
    name: "sharding_indexed",
    configuration: {
      chunk_shape: n.chunk,
      codecs: chain(n.inner, n.innerCrc, l.bloscCname),
      index_codecs: n.indexCrc ? [BYTES, CRC] : [BYTES],
      index_location: n.indexLocation,
    },
  };
  return l.innerCrc ? [nested, CRC] : [nested];
}

/** Every change to an inner chunk's stored bytes is detected (a checksum in the chain, gzip's CRC-32 included). */
export function dataChecked(l: ShardLayout): boolean {
  if (l.innerCrc) return true;
  if (!l.nested) return l.inner === "gzip";
  return l.nested.indexCrc && (l.nested.innerCrc || l.nested.inner === "gzip");
}

// ---------------------------------------------------------------------------
// Arbitraries

const dimArb = fc.record({
  inner: fc.integer({ min: 1, max: 2 }),
  mult: fc.integer({ min: 1, max: 3 }),
  perShard: fc.integer({ min: 1, max: 3 }),
  shards: fc.integer({ min: 1, max: 2 }),
  ragged: fc.nat({ max: 7 }),
});

const innerArb = fc.constantFrom<Inner>("raw", "gzip", "zstd", "blosc");
const locationArb = fc.constantFrom<"start" | "end">("start", "end");

export const layoutArb: fc.Arbitrary<ShardLayout> = fc
  .record({
    dtype: fc.constantFrom<NumericDtype>("uint8", "int16", "int32", "float32", "float64", "uint64"),
    dims: fc.array(dimArb, { minLength: 1, maxLength: 3 }),
    indexLocation: locationArb,
    indexCrc: fc.boolean(),
    inner: innerArb,
    innerCrc: fc.boolean(),
    bloscCname: fc.constantFrom<ShardLayout["bloscCname"]>("lz4", "zstd", "blosclz"),
    nested: fc.option(
      fc.record({ inner: innerArb, innerCrc: fc.boolean(), indexCrc: fc.boolean(), indexLocation: locationArb }),
      { freq: 4 },
    ),
    fill: fc.integer({ min: 0, max: 9 }),
    dataSeed: fc.integer(),
    emptyChance: fc.constantFrom(0, 0.25, 0.6),
  })
  .map(({ dims, nested, ...rest }) => {
    const small = dims.length === 3;
    const sizes = dims.map((d) => {
      const chunk = nested ? d.inner * d.mult : small ? d.mult : d.mult + d.inner - 1;
      const shard = chunk * d.perShard;
      return { chunk, shard, shape: Math.max(1, shard * d.shards - (d.ragged % shard)) };
    });
    return {
      ...rest,
      shape: sizes.map((s) => s.shape),
      chunk: sizes.map((s) => s.chunk),
      shard: sizes.map((s) => s.shard),
      nested: nested ? { ...nested, chunk: dims.map((d) => d.inner) } : null,
    };
  });

const posArb = fc.nat({ max: 1 << 20 });
const entryArb = fc.nat({ max: 64 });
const u64Arb = fc.oneof(
  fc.constantFrom(
    0n,
    1n,
    EMPTY,
    EMPTY - 1n,
    2n ** 53n,
    2n ** 53n + 1n,
    2n ** 63n,
    2n ** 32n,
    2n ** 31n - 1n,
    2n ** 40n,
  ),
  fc.bigInt({ min: 0n, max: 400n }),
  fc.bigInt({ min: 0n, max: EMPTY }),
);

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
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
  { weight: 2, arbitrary: fc.record({ op: fc.constant("truncate" as const), keep: posArb }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("extend" as const),
      bytes: fc.array(fc.nat({ max: 255 }), { maxLength: 16 }),
      zeros: fc.constantFrom(0, 1, 7, 64, 4096),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("entry" as const),
      entry: entryArb,
      field: fc.constantFrom<0 | 1>(0, 1),
      value: u64Arb,
      forge: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("shift" as const),
      entry: entryArb,
      field: fc.constantFrom<0 | 1>(0, 1),
      delta: fc.integer({ min: -40, max: 40 }),
      forge: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant("swap" as const), a: entryArb, b: entryArb, forge: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("lie" as const), entry: entryArb }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("bomb" as const), entry: entryArb }) },
);

const selDimArb = (size: number): fc.Arbitrary<SelDim> =>
  fc.oneof(
    fc.record({ index: fc.integer({ min: -size, max: size - 1 }) }),
    fc.record({
      start: fc.option(fc.integer({ min: -size - 2, max: size + 2 })),
      stop: fc.option(fc.integer({ min: -size - 2, max: size + 2 })),
      step: fc.integer({ min: 1, max: 3 }),
    }),
  );

export const shardCaseArb: fc.Arbitrary<ShardCase> = layoutArb.chain((layout) =>
  fc.record({
    layout: fc.constant(layout),
    shardPick: fc.nat({ max: 7 }),
    mutations: fc.array(mutationArb, { minLength: 1, maxLength: 3 }),
    selection: fc.tuple(...layout.shape.map(selDimArb)),
  }),
);

// ---------------------------------------------------------------------------
// Building and mutating

export function toSelection(sel: readonly SelDim[]): Selection {
  return sel.map((d) => ("index" in d ? d.index : slice(d.start, d.stop, d.step)));
}

export async function buildArray(layout: ShardLayout): Promise<{ store: MemoryStore; data: Numeric }> {
  const store = new MemoryStore();
  const arr = await createArray(store, "a", {
    shape: layout.shape,
    dataType: layout.dtype,
    chunkShape: layout.chunk,
    shardShape: layout.shard,
    codecs: innerCodecs(layout),
    indexCodecs: layout.indexCrc ? [BYTES, CRC] : [BYTES],
    indexLocation: layout.indexLocation,
    fillValue: layout.fill,
  });
  const data = chunkedData(
    layout.dtype,
    layout.shape,
    layout.nested ? layout.nested.chunk : layout.chunk,
    layout.fill,
    layout.dataSeed,
    layout.emptyChance,
  );
  await arr.set(null, data);
  return { store, data };
}

interface IndexView {
  at: number;
  entries: number;
  size: number;
}

function indexView(layout: ShardLayout, length: number): IndexView | undefined {
  const entries = product(layout.shard.map((s, d) => s / itemAt(layout.chunk, d)));
  const size = 16 * entries + (layout.indexCrc ? 4 : 0);
  if (length < size) return undefined;
  return { at: layout.indexLocation === "start" ? 0 : length - size, entries, size };
}

function readEntry(bytes: Uint8Array, ix: IndexView, entry: number, field: 0 | 1): bigint {
  return new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(ix.at + 16 * entry + 8 * field, true);
}

function writeEntry(bytes: Uint8Array, ix: IndexView, entry: number, field: 0 | 1, value: bigint): void {
  new DataView(bytes.buffer, bytes.byteOffset).setBigUint64(
    ix.at + 16 * entry + 8 * field,
    BigInt.asUintN(64, value),
    true,
  );
}

/** Recompute the index's crc32c so the (rewritten) index passes its checksum. */
function forgeIndexCrc(bytes: Uint8Array, ix: IndexView, layout: ShardLayout): void {
  if (!layout.indexCrc) return;
  const body = bytes.subarray(ix.at, ix.at + 16 * ix.entries);
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(ix.at + 16 * ix.entries, crc32c(body), true);
}

function withInnerCrc(layout: ShardLayout, core: Uint8Array): Uint8Array {
  if (!layout.innerCrc) return core;
  const out = new Uint8Array(core.length + 4);
  out.set(core);
  new DataView(out.buffer).setUint32(core.length, crc32c(core), true);
  return out;
}

/**
 * The shard with inner chunk `entry` stored as `payload` (placed after the data), its index entry and checksum updated.
 */
function replaceChunk(bytes: Uint8Array, layout: ShardLayout, entry: number, payload: Uint8Array): Uint8Array {
  const ix = indexView(layout, bytes.length)!;
  let out: Uint8Array;
  let offset: number;
  if (layout.indexLocation === "start") {
    out = concatBytes([bytes, payload]);
    offset = bytes.length;
  } else {
    offset = ix.at;
    out = concatBytes([bytes.subarray(0, ix.at), payload, bytes.subarray(ix.at)]);
  }
  const moved = indexView(layout, out.length)!;
  writeEntry(out, moved, entry, 0, BigInt(offset));
  writeEntry(out, moved, entry, 1, BigInt(payload.length));
  forgeIndexCrc(out, moved, layout);
  return out;
}

/** The stored payload of inner chunk `entry` (without its crc32c), or undefined when empty or out of range. */
function chunkCore(bytes: Uint8Array, layout: ShardLayout, ix: IndexView, entry: number): Uint8Array | undefined {
  const offset = readEntry(bytes, ix, entry, 0);
  const nbytes = readEntry(bytes, ix, entry, 1);
  if (offset === EMPTY || offset + nbytes > BigInt(bytes.length)) return undefined;
  const payload = bytes.slice(Number(offset), Number(offset + nbytes));
  return layout.innerCrc ? payload.subarray(0, Math.max(0, payload.length - 4)) : payload;
}

export interface Mutated {
  bytes: Uint8Array;
  /** A different value would break the contract: every byte changed is covered by a checksum (or unread). */
  strict: boolean;
}

export async function mutateShard(
  original: Uint8Array,
  layout: ShardLayout,
  mutations: readonly Mutation[],
): Promise<Mutated> {
  let bytes: Uint8Array = original.slice();
  let strict = true;
  let lengthChanged = false;
  let truncated = false;
  const ix0 = indexView(layout, original.length);
  const region = (pos: number): boolean => {
    if (lengthChanged || !ix0) return false;
    if (pos >= ix0.at && pos < ix0.at + ix0.size) return layout.indexCrc;
    for (let e = 0; e < ix0.entries; e++) {
      const o = readEntry(original, ix0, e, 0);
      const n = readEntry(original, ix0, e, 1);
      if (o !== EMPTY && BigInt(pos) >= o && BigInt(pos) < o + n) return dataChecked(layout);
    }
    return true; // bytes no entry points at: the value must not change
  };
  for (const m of mutations) {
    const ix = indexView(layout, bytes.length);
    switch (m.op) {
      case "flip": {
        if (bytes.length === 0) break;
        const p = m.pos % bytes.length;
        bytes[p] = itemAt(bytes, p) ^ (1 << m.bit);
        strict &&= region(p);
        break;
      }
      case "overwrite": {
        if (bytes.length === 0) break;
        const p = m.pos % bytes.length;
        m.bytes.forEach((b, k) => {
          if (p + k < bytes.length) {
            bytes[p + k] = b;
            strict &&= region(p + k);
          }
        });
        break;
      }
      case "truncate": {
        if (bytes.length === 0) break;
        const keep = m.keep % bytes.length;
        bytes = bytes.slice(0, keep);
        strict &&= (layout.indexLocation === "start" && !lengthChanged && keep >= (ix0?.size ?? 0)) || layout.indexCrc;
        lengthChanged = true;
        truncated = true;
        break;
      }
      case "extend":
        bytes = concatBytes([bytes, Uint8Array.from(m.bytes), new Uint8Array(m.zeros)]);
        strict &&= (layout.indexLocation === "start" && !lengthChanged) || layout.indexCrc;
        // Bytes appended after a truncation stand where cut data was: only a checksum tells them apart.
        if (truncated) strict &&= dataChecked(layout);
        lengthChanged = true;
        break;
      case "entry":
      case "shift": {
        if (!ix) break;
        const e = m.entry % ix.entries;
        const value = m.op === "entry" ? m.value : readEntry(bytes, ix, e, m.field) + BigInt(m.delta);
        writeEntry(bytes, ix, e, m.field, value);
        if (m.forge) forgeIndexCrc(bytes, ix, layout);
        strict &&= layout.indexCrc && !m.forge;
        break;
      }
      case "swap": {
        if (!ix) break;
        const a = m.a % ix.entries;
        const b = m.b % ix.entries;
        for (const field of [0, 1] as const) {
          const va = readEntry(bytes, ix, a, field);
          writeEntry(bytes, ix, a, field, readEntry(bytes, ix, b, field));
          writeEntry(bytes, ix, b, field, va);
        }
        if (m.forge) forgeIndexCrc(bytes, ix, layout);
        strict &&= layout.indexCrc && !m.forge;
        break;
      }
      case "lie": {
        if (!ix || layout.nested) break;
        const e = m.entry % ix.entries;
        const core = chunkCore(bytes, layout, ix, e);
        if (!core || core.length < 16) break;
        const lied = core.slice();
        const view = new DataView(lied.buffer);
        if (layout.inner === "gzip")
          view.setUint32(lied.length - 4, 0xfffffff0, true); // ISIZE
        else if (layout.inner === "blosc")
          view.setUint32(4, 0x7ffffff0, true); // nbytes
        else if (layout.inner === "zstd") {
          bytes = replaceChunk(bytes, layout, e, withInnerCrc(layout, zstdContentSizeLie()));
          strict = false;
          lengthChanged = true;
          break;
        } else break;
        bytes = replaceChunk(bytes, layout, e, withInnerCrc(layout, lied));
        strict = false;
        lengthChanged = true;
        break;
      }
      case "bomb": {
        if (!ix || layout.nested || (layout.inner !== "gzip" && layout.inner !== "zstd")) break;
        const e = m.entry % ix.entries;
        const bomb = layout.inner === "gzip" ? await gzipZerosBomb() : zstdZerosBomb();
        bytes = replaceChunk(bytes, layout, e, withInnerCrc(layout, bomb));
        strict = false;
        lengthChanged = true;
        break;
      }
    }
  }
  return { bytes, strict };
}

function describe(v: { data: ArrayLike<unknown> & ArrayBufferView; shape: number[] }): string {
  const head = new Uint8Array(v.data.buffer, v.data.byteOffset, Math.min(32, v.data.byteLength));
  return `shape [${v.shape}] bytes ${toHex(head)}…`;
}

export async function dumpStore(store: MemoryStore): Promise<StoreDump> {
  const files: StoreDump = new Map();
  for await (const key of store.list("")) files.set(key, (await store.get(key))!);
  return files;
}

/** Reads the array at "a" whole and by `selection`, through a ranged store and a get-only one. */
export async function readBack(
  store: Store,
  expected: Numeric,
  layout: { shape: number[] },
  selection: readonly SelDim[],
  strict: boolean,
): Promise<Outcome> {
  const getOnly: Store = { get: (key) => store.get(key) };
  const whole = { data: expected, shape: layout.shape };
  const part = select(expected, layout.shape, selection);
  const outcomes: Outcome[] = [];
  for (const [name, view] of [
    ["ranged", store],
    ["get-only", getOnly],
  ] as const) {
    for (const [what, sel, want] of [
      ["whole read", null, whole],
      ["selection read", toSelection(selection), part],
    ] as const) {
      outcomes.push(
        await classify(
          `${what} (${name} store)`,
          async () => (await openArray(view, "a", { workers: false })).get(sel),
          (v) =>
            v.shape.length === want.shape.length &&
            v.shape.every((n, i) => n === want.shape[i]) &&
            sameBytes(v.data as Numeric, want.data),
          !strict,
          (v) => describe(v as never),
        ),
      );
    }
  }
  return combine(outcomes);
}

export const shardTarget: FuzzTarget<ShardCase> = {
  name: "shard",
  description:
    "sharded arrays (index start/end, with/without crc32c, raw/gzip/zstd/blosc, nested) with one shard's bytes mutated",
  arbitrary: shardCaseArb,
  async setup() {
    await initCrc32c();
    await gzipZerosBomb();
  },
  async run(c, dump) {
    const { store, data } = await buildArray(c.layout);
    const shards: string[] = [];
    for await (const key of store.list("a/c")) shards.push(key);
    shards.sort();
    let strict = true;
    const picked = cyclicAt(shards, c.shardPick);
    if (picked !== undefined) {
      const mutated = await mutateShard((await store.get(picked))!, c.layout, c.mutations);
      await store.set(picked, mutated.bytes);
      strict = mutated.strict;
    }
    if (dump) dump(await dumpStore(store));
    return { outcome: await readBack(store, data, c.layout, c.selection, strict) };
  },
};
