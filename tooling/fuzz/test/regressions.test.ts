// One case per finding of FINDINGS.md, reduced by hand from the fuzzer's
// shrunk counterexample. `it.fails` while the owning package is not fixed:
// flip to `it` when the fix lands (and drop the finding from src/known.ts).
import { gzipSync } from "node:zlib";
import { MemoryStore, open } from "@zarrkit/core";
import "@zarrkit/codecs";
import "@zarrkit/crc32c";
import { openPrecomputedImage, parseShardingSpec, ShardReader, synthesizeShards } from "@zarrkit/neuroglancer";
import { ZarrkitError } from "@zarrkit/registry";
import "@zarrkit/sharding";
import { describe, expect, it } from "vitest";
import { fillVolume, type VolumeLayout, volumeFiles } from "../../../packages/neuroglancer/test/volume.js";

const text = (s: string) => new TextEncoder().encode(s);

/** The contract: the read ends as a value or a ZarrkitError, never another error. */
async function typedOrValue(read: () => Promise<unknown>): Promise<void> {
  const error = await read().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error !== undefined) expect(error, String(error)).toBeInstanceOf(ZarrkitError);
}

/** ArrayBuffer memory a read grows, at its peak (sampled) and after it. */
async function arrayBufferGrowth(read: () => Promise<unknown>): Promise<number> {
  const before = process.memoryUsage().arrayBuffers;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 5);
  const result = await read().catch((e: unknown) => e);
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().arrayBuffers);
  void result;
  return peak - before;
}

const ARRAY = {
  zarr_format: 3,
  node_type: "array",
  shape: [6, 5],
  data_type: "int32",
  chunk_grid: { name: "regular", configuration: { chunk_shape: [4, 3] } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
  fill_value: 0,
  codecs: [{ name: "bytes", configuration: { endian: "little" } }],
  attributes: {},
};

async function openText(zarrJson: string) {
  const store = new MemoryStore();
  await store.set("a/zarr.json", text(zarrJson));
  return typedOrValue(async () => {
    const node = await open(store, "a", { workers: false });
    if ("get" in node) await node.get();
  });
}

describe("core: zarr.json parsing (target metadata)", () => {
  it("F1: a null chunk_grid configuration is an InvalidMetadataError, not a TypeError", async () => {
    await openText(JSON.stringify({ ...ARRAY, chunk_grid: { name: "regular", configuration: null } }));
  });

  it(
    "F2: a null chunk_key_encoding configuration is an InvalidMetadataError (or the default), not a " + "TypeError",
    async () => {
      await openText(JSON.stringify({ ...ARRAY, chunk_key_encoding: { name: "default", configuration: null } }));
    },
  );

  it("F3: an integer above 2^53 as node_type is an InvalidMetadataError, not a BigInt TypeError", async () => {
    await openText('{"zarr_format":3,"node_type":9007199254740993,"attributes":{}}');
  });
});

/** A sharded (gzip) raw uint8 volume 2x2x1 of one chunk, written by synthesizeShards, its info overridden by `info`. */
function volume(info: Record<string, unknown>, scale: Record<string, unknown> = {}): MemoryStore {
  const sharding = parseShardingSpec({
    "@type": "neuroglancer_uint64_sharded_v1",
    hash: "identity",
    preshift_bits: 0,
    minishard_bits: 0,
    shard_bits: 0,
    minishard_index_encoding: "gzip",
    data_encoding: "gzip",
  });
  const layout: VolumeLayout = {
    dataType: "uint8",
    size: [2, 2, 1],
    offset: [0, 0, 0],
    chunk: [2, 2, 1],
    channels: 1,
    encoding: "raw",
    sharding,
  };
  const files = volumeFiles(
    layout,
    fillVolume(layout, (x, y) => x + 2 * y + 1),
    "vol/",
  );
  const doc = JSON.parse(new TextDecoder().decode(files.get("vol/info")));
  files.set("vol/info", text(JSON.stringify({ ...doc, ...info, scales: [{ ...doc.scales[0], ...scale }] })));
  const store = new MemoryStore();
  for (const [key, bytes] of files) void store.set(key, bytes);
  return store;
}

const readVoxel = (store: MemoryStore) => async () => {
  const image = await openPrecomputedImage(store, { prefix: "vol" });
  return image.read({ min: [0, 0, 0], max: [1, 1, 1] });
};

describe("neuroglancer: info validation (target neuroglancer)", () => {
  it("F4: num_channels 2^31 is an InvalidMetadataError, not a RangeError from new Uint8Array", async () => {
    await typedOrValue(readVoxel(volume({ num_channels: 2 ** 31 })));
  });

  it('F5: data_type "toString" is an InvalidMetadataError, not "Ctor is not a constructor"', async () => {
    await typedOrValue(readVoxel(volume({ data_type: "toString" }, { chunk_sizes: [[1, 1, 1]] })));
  });
});

describe("sharding: sharding_indexed configuration (target metadata)", () => {
  it(
    "F8: an inner chunk_shape above 2^53 is an InvalidMetadataError, not a BigInt TypeError from " + "its message",
    async () => {
      const inner = {
        name: "sharding_indexed",
        configuration: { chunk_shape: [4, 3], codecs: [ARRAY.codecs[0]], index_codecs: [ARRAY.codecs[0]] },
      };
      const outer = {
        name: "sharding_indexed",
        configuration: { chunk_shape: ["@@"], codecs: [inner], index_codecs: [ARRAY.codecs[0]] },
      };
      await openText(JSON.stringify({ ...ARRAY, codecs: [outer] }).replace('"@@"', "9007199254740992"));
    },
  );
});

describe("neuroglancer: gzip data_encoding (target neuroglancer)", () => {
  const spec = {
    "@type": "neuroglancer_uint64_sharded_v1",
    hash: "identity",
    preshift_bits: 0,
    minishard_bits: 0,
    shard_bits: 0,
    minishard_index_encoding: "raw",
  } as const;
  const data = Uint8Array.from({ length: 64 }, (_, i) => i);

  /** A shard holding chunk 0 stored as `member` (taken verbatim), read back with data_encoding gzip. */
  async function readChunk(member: Uint8Array): Promise<Uint8Array | undefined> {
    const files = synthesizeShards(parseShardingSpec({ ...spec, data_encoding: "raw" }), new Map([[0n, member]]));
    const store = new MemoryStore();
    for (const [name, bytes] of files) await store.set(name, bytes);
    return new ShardReader(store, parseShardingSpec({ ...spec, data_encoding: "gzip" })).get(0n);
  }

  it(
    "F6: a gzip member whose CRC-32 does not match its data is a ChecksumError/CorruptDataError, not " + "other data",
    async () => {
      const member = new Uint8Array(gzipSync(data, { level: 0 })); // a stored block: data bytes verbatim
      member[10 + 5 + 7]! ^= 0x01; // header 10 bytes, stored-block header 5 bytes: flips data[7]
      const result = await readChunk(member).catch((e: unknown) => e);
      if (result instanceof Error) expect(result).toBeInstanceOf(ZarrkitError);
      else expect(result).toEqual(data);
    },
  );

  it("F7: a gzip trailer claiming ISIZE 512 MiB is not allocated up front (256 MiB bound)", async () => {
    const member = new Uint8Array(gzipSync(data));
    new DataView(member.buffer).setUint32(member.length - 4, 512 * 2 ** 20, true);
    expect(await arrayBufferGrowth(() => readChunk(member))).toBeLessThan(256 * 2 ** 20);
  });
});
