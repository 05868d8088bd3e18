import { prng } from "@zarrkit/test-utils/noise";
// Target 3: neuroglancer precomputed. Volumes (raw or compressed_segmentation,
// sharded with neuroglancer_uint64_sharded_v1 through the package's own
// synthesizeShards, or unsharded) written to a MemoryStore; then a shard file,
// a chunk file or the `info` document is mutated and boxes are read back.
import { MemoryStore } from "@zarrkit/core";
import { openPrecomputedImage, type ShardingSpec, shardIndexSize, type Vec3 } from "@zarrkit/neuroglancer";
import fc from "fast-check";
import { classify, combine, cyclicAt, itemAt, type Outcome, sameBytes } from "../contract.js";
import type { FuzzTarget, StoreDump } from "../target.js";
// The neuroglancer package's own test volumes: one builder of precomputed volumes for its tests and for fuzzing.
import { extract, fillVolume, type VolumeLayout, volumeFiles } from "../../../../packages/neuroglancer/test/volume.js";
import { CONSTS, LITERALS, type MetaMutation, mutateDoc, PROTO_NAMES, serialize } from "./metadata.js";
import { dumpStore, EMPTY } from "./shard.js";

type Json = Parameters<typeof mutateDoc>[0];

export type NgByteMutation =
  | { op: "flip"; pos: number; bit: number }
  | { op: "overwrite"; pos: number; bytes: number[] }
  | { op: "truncate"; keep: number }
  | { op: "extend"; bytes: number[] }
  | { op: "entry"; entry: number; field: 0 | 1; value: bigint };

/** A field of the info document set to a hostile value. */
export type InfoMutation = MetaMutation | { op: "field"; field: InfoField; value: number };

export type InfoField =
  | "size"
  | "chunk_sizes"
  | "voxel_offset"
  | "num_channels"
  | "data_type"
  | "encoding"
  | "type"
  | "block_size"
  | "minishard_bits"
  | "shard_bits"
  | "preshift_bits"
  | "sharding"
  | "scales";

export interface NgCase {
  layout: VolumeLayout;
  valueSeed: number;
  /** What is mutated: the shard file (or a chunk file when unsharded) or the info document. */
  mutate: "data" | "info";
  filePick: number;
  bytes: NgByteMutation[];
  info: InfoMutation[];
  box: { start: Vec3; end: Vec3 };
}

const u64Arb = fc.oneof(
  fc.constantFrom(0n, EMPTY, 2n ** 53n + 1n, 2n ** 63n, 2n ** 32n),
  fc.bigInt({ min: 0n, max: 300n }),
  fc.bigInt({ min: 0n, max: EMPTY }),
);

const byteMutationArb: fc.Arbitrary<NgByteMutation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant("flip" as const), pos: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("overwrite" as const),
      pos: fc.nat(),
      bytes: fc.array(fc.nat({ max: 255 }), { minLength: 1, maxLength: 8 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("truncate" as const), keep: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("extend" as const),
      bytes: fc.array(fc.nat({ max: 255 }), { minLength: 1, maxLength: 32 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("entry" as const),
      entry: fc.nat({ max: 15 }),
      field: fc.constantFrom<0 | 1>(0, 1),
      value: u64Arb,
    }),
  },
);

export const HOSTILE_NUMBERS = [0, -1, 1.5, 2 ** 31, 2 ** 32, 2 ** 33, 2 ** 53, 2 ** 64, 65, 64, 1e308];

const infoMutationArb: fc.Arbitrary<InfoMutation> = fc.oneof(
  fc.record({ op: fc.constant("delete" as const), at: fc.nat() }),
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("set" as const),
      at: fc.nat(),
      value: fc.oneof(
        fc.record({ kind: fc.constant("const" as const), index: fc.nat({ max: CONSTS.length - 1 }) }),
        fc.record({ kind: fc.constant("literal" as const), text: fc.constantFrom(...LITERALS) }),
        fc.record({ kind: fc.constant("proto" as const), name: fc.constantFrom(...PROTO_NAMES) }),
      ),
    }),
  },
  fc.record({ op: fc.constant("protoKey" as const), at: fc.nat(), key: fc.constantFrom("__proto__", "constructor") }),
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("field" as const),
      field: fc.constantFrom<InfoField>(
        "size",
        "chunk_sizes",
        "voxel_offset",
        "num_channels",
        "data_type",
        "encoding",
        "type",
        "block_size",
        "minishard_bits",
        "shard_bits",
        "preshift_bits",
        "sharding",
        "scales",
      ),
      value: fc.nat({ max: HOSTILE_NUMBERS.length + PROTO_NAMES.length - 1 }),
    }),
  },
);

const vec = (min: number, max: number) =>
  fc.tuple(fc.integer({ min, max }), fc.integer({ min, max }), fc.integer({ min, max }));

const layoutArb: fc.Arbitrary<VolumeLayout> = fc
  .record({
    kind: fc.constantFrom("raw", "raw", "compressed_segmentation"),
    rawType: fc.constantFrom("uint8", "uint16", "uint32", "uint64", "float32", "int16"),
    segType: fc.constantFrom("uint32", "uint64"),
    size: vec(1, 12),
    chunk: vec(1, 6),
    offset: vec(-3, 3),
    channels: fc.integer({ min: 1, max: 2 }),
    blockSize: vec(1, 4),
    sharding: fc.option(
      fc.record({
        hash: fc.constantFrom("identity", "murmurhash3_x86_128"),
        preshift_bits: fc.integer({ min: 0, max: 2 }),
        minishard_bits: fc.integer({ min: 0, max: 3 }),
        shard_bits: fc.integer({ min: 0, max: 2 }),
        minishard_index_encoding: fc.constantFrom("raw", "gzip"),
        data_encoding: fc.constantFrom("raw", "gzip"),
      }),
      { freq: 5 },
    ),
  })
  .map(({ kind, rawType, segType, blockSize, sharding, ...rest }) => ({
    ...rest,
    dataType: (kind === "raw" ? rawType : segType) as VolumeLayout["dataType"],
    encoding: kind as VolumeLayout["encoding"],
    ...(kind === "compressed_segmentation" && { blockSize }),
    ...(sharding && { sharding: { "@type": "neuroglancer_uint64_sharded_v1", ...sharding } as ShardingSpec }),
  }));

export const ngCaseArb: fc.Arbitrary<NgCase> = layoutArb.chain((layout) =>
  fc.record({
    layout: fc.constant(layout),
    valueSeed: fc.integer(),
    mutate: fc.constantFrom<"data" | "info">("data", "data", "info"),
    filePick: fc.nat({ max: 15 }),
    bytes: fc.array(byteMutationArb, { minLength: 1, maxLength: 3 }),
    info: fc.array(infoMutationArb, { minLength: 1, maxLength: 2 }),
    box: fc
      .tuple(...layout.size.map((n) => fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 1, max: n }))))
      .map((dims) => ({
        start: dims.map(([s]) => s) as Vec3,
        end: dims.map(([s, e]) => Math.max(s + 1, e)) as Vec3,
      })),
  }),
);

function hostile(value: number): Json {
  return value < HOSTILE_NUMBERS.length
    ? itemAt(HOSTILE_NUMBERS, value)
    : itemAt(PROTO_NAMES, value - HOSTILE_NUMBERS.length);
}

export function mutateInfo(doc: Json, m: InfoMutation): Json {
  if (m.op !== "field") return mutateDoc(doc, m);
  const isObject = (v: unknown): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (!isObject(doc)) return doc;
  const info = doc;
  const first = Array.isArray(info.scales) ? info.scales[0] : undefined;
  const scale: Record<string, Json> = isObject(first) ? first : {};
  const sharding: Record<string, Json> = isObject(scale.sharding) ? scale.sharding : {};
  const v = hostile(m.value);
  const n = typeof v === "number" ? v : 1;
  switch (m.field) {
    case "size":
    case "voxel_offset":
      scale[m.field] = [n, 1, 1];
      break;
    case "chunk_sizes":
      scale.chunk_sizes = [[n, n, 1]];
      break;
    case "block_size":
      scale.compressed_segmentation_block_size = [n, 1, 1];
      break;
    case "num_channels":
    case "data_type":
    case "type":
      info[m.field] = v;
      break;
    case "encoding":
      scale.encoding = v;
      break;
    case "minishard_bits":
    case "shard_bits":
    case "preshift_bits":
      sharding[m.field] = v;
      break;
    case "sharding":
      scale.sharding = v;
      break;
    case "scales":
      info.scales =
        typeof v === "number"
          ? Array.from({ length: Math.min(1000, Math.abs(v) || 0) }, () => structuredClone(scale))
          : v;
      break;
  }
  return doc;
}

function mutateBytes(
  original: Uint8Array,
  ops: readonly NgByteMutation[],
  spec: ShardingSpec | undefined,
): { bytes: Uint8Array; strict: boolean } {
  let bytes = original.slice();
  const indexEnd = spec ? shardIndexSize(spec) : 0;
  // Changes inside gzip members are caught by their CRC-32; the fixed-size shard index has no checksum.
  const checked = spec !== undefined && spec.data_encoding === "gzip" && spec.minishard_index_encoding === "gzip";
  let strict = true;
  let lengthChanged = false;
  for (const m of ops) {
    switch (m.op) {
      case "flip":
      case "overwrite": {
        if (bytes.length === 0) break;
        const p = m.pos % bytes.length;
        const values = m.op === "flip" ? [itemAt(bytes, p) ^ (1 << m.bit)] : m.bytes;
        values.forEach((b, k) => {
          if (p + k < bytes.length) bytes[p + k] = b;
        });
        strict &&= checked && !lengthChanged && p >= indexEnd;
        break;
      }
      case "truncate":
        if (bytes.length === 0) break;
        bytes = bytes.slice(0, m.keep % bytes.length);
        strict &&= checked && bytes.length >= indexEnd;
        lengthChanged = true;
        break;
      case "extend":
        bytes = Uint8Array.from([...bytes, ...m.bytes]);
        lengthChanged = true;
        break;
      case "entry": {
        if (!spec) {
          strict = false;
          break;
        }
        const entries = indexEnd / 16;
        const at = 16 * (m.entry % entries) + 8 * m.field;
        if (at + 8 > bytes.length) break;
        new DataView(bytes.buffer).setBigUint64(at, m.value, true);
        strict = false;
        break;
      }
    }
  }
  return { bytes, strict };
}

const value = (seed: number) => {
  const next = prng(seed);
  const table = Array.from({ length: 7 }, () => Math.floor(next() * 60000));
  return (x: number, y: number, z: number, c: number) =>
    itemAt(table, (((x * 3 + y * 5 + z * 7 + c) % 7) + 7) % 7) + ((((x + y + z) % 3) + 3) % 3);
};

export async function readVolume(
  store: MemoryStore,
  expected: ReturnType<typeof fillVolume>,
  layout: VolumeLayout,
  box: NgCase["box"],
  strict: boolean,
): Promise<Outcome> {
  const outcomes: Outcome[] = [];
  let image: Awaited<ReturnType<typeof openPrecomputedImage>> | undefined;
  outcomes.push(
    await classify(
      "open",
      async () => (image = await openPrecomputedImage(store, { prefix: "vol" })),
      () => true,
      true,
    ),
  );
  if (!image) return combine(outcomes);
  const img = image;
  const scale = img.info.scales[0];
  const boxes: [string, Vec3, Vec3][] = [["box read", box.start, box.end]];
  const voxels = scale ? scale.size.reduce((a, b) => a * b, 1) * img.info.num_channels : 0;
  if (voxels <= 2 ** 22) boxes.push(["whole read", [0, 0, 0], layout.size]);
  for (const [what, start, end] of boxes) {
    const want = extract(expected, layout.size, layout.channels, start, end);
    const [ox, oy, oz] = layout.offset;
    const min: Vec3 = [start[0] + ox, start[1] + oy, start[2] + oz];
    const max: Vec3 = [end[0] + ox, end[1] + oy, end[2] + oz];
    outcomes.push(
      await classify(
        what,
        () => img.read({ min, max }),
        (r) => sameBytes(r.data as ArrayBufferView, want),
        !strict,
      ),
    );
  }
  return combine(outcomes);
}

export const neuroglancerTarget: FuzzTarget<NgCase> = {
  name: "neuroglancer",
  description:
    "precomputed volumes (raw / compressed_segmentation, sharded via synthesizeShards or not) with a shard, chunk " +
    "or info mutated",
  arbitrary: ngCaseArb,
  async run(c, dump?: (files: StoreDump) => void) {
    const volume = fillVolume(c.layout, value(c.valueSeed));
    const store = new MemoryStore();
    const files = volumeFiles(c.layout, volume, "vol/");
    for (const [key, bytes] of files) await store.set(key, bytes);
    let strict = true;
    if (c.mutate === "info") {
      let doc = JSON.parse(new TextDecoder().decode(files.get("vol/info"))) as Json;
      for (const m of c.info) doc = mutateInfo(doc, m);
      await store.set("vol/info", new TextEncoder().encode(serialize(doc)));
      strict = false;
    } else {
      const key = cyclicAt([...files.keys()].filter((k) => k !== "vol/info").sort(), c.filePick);
      if (key !== undefined) {
        const mutated = mutateBytes(files.get(key)!, c.bytes, c.layout.sharding);
        await store.set(key, mutated.bytes);
        strict = mutated.strict;
      }
    }
    if (dump) dump(await dumpStore(store));
    return { outcome: await readVolume(store, volume, c.layout, c.box, strict) };
  },
};
