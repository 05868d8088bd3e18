// Codec workers with the real codecs: the node entry registers zarrkit itself
// as the workers' module, so every built-in codec runs there as it does here.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as zk from "../src/node.js";

const BYTES = { name: "bytes", configuration: { endian: "little" } };
const CRC = { name: "crc32c" };
const SHAPE = [64, 64, 32];
const ELEMENTS = 64 * 64 * 32;

/** Smooth float32 values: compressible, and any misplaced element shows. */
function volume(): Float32Array {
  return Float32Array.from({ length: ELEMENTS }, (_, i) => Math.sin(i / 97) * 1000 + (i % 64));
}

function sharding(codecs: unknown[], chunkShape: number[]) {
  return { name: "sharding_indexed", configuration: { chunk_shape: chunkShape, codecs, index_codecs: [BYTES, CRC] } };
}

/** Chains of compute codecs, each over 32 x 32 x 32 float32 chunks (128 KiB) or inner chunks of them. */
const CHAINS: Record<string, { codecs: unknown[]; chunkShape: number[] }> = {
  gzip: { codecs: [BYTES, { name: "gzip", configuration: { level: 1 } }], chunkShape: [32, 32, 32] },
  zstd: { codecs: [BYTES, { name: "zstd", configuration: { level: 0, checksum: false } }], chunkShape: [32, 32, 32] },
  blosc: {
    codecs: [
      BYTES,
      { name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 0 } },
    ],
    chunkShape: [32, 32, 32],
  },
  "transpose + zstd + crc32c": {
    codecs: [
      { name: "transpose", configuration: { order: [2, 1, 0] } },
      BYTES,
      { name: "zstd", configuration: { level: 3 } },
      CRC,
    ],
    chunkShape: [32, 32, 32],
  },
  sharded: {
    codecs: [sharding([BYTES, { name: "zstd", configuration: { level: 0 } }], [16, 16, 16])],
    chunkShape: [64, 64, 32],
  },
  "nested shards": {
    codecs: [
      sharding([sharding([BYTES, { name: "gzip", configuration: { level: 1 } }, CRC], [8, 8, 8])], [32, 32, 16]),
    ],
    chunkShape: [64, 64, 32],
  },
};

/** Every stored key with a digest of its bytes (vitest's deep equality is slow on large typed arrays). */
async function contents(store: zk.MemoryStore): Promise<Record<string, string>> {
  const digests: Record<string, string> = {};
  for await (const key of store.list("")) {
    if (!key.endsWith("zarr.json"))
      digests[key] = createHash("sha256")
        .update((await store.get(key))!)
        .digest("hex");
  }
  return digests;
}

/** Bytes of a typed array, for fast comparisons. */
function bytes(data: zk.ArrayData): Buffer {
  const view = data as Float32Array;
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

/** Jobs sent to workers while `run` ran. */
async function dispatched(run: () => Promise<unknown>): Promise<number> {
  const before = zk.codecWorkerStats().dispatched;
  await run();
  return zk.codecWorkerStats().dispatched - before;
}

beforeAll(async () => {
  // Every chunk of these tests goes to a worker when one is free; the rest run here.
  zk.configureCodecWorkers({ enabled: true, size: 1, threshold: 0, offloadAlone: true });
  await zk.startCodecWorkers();
});

afterAll(() => zk.closeCodecWorkers());

describe("codec workers with zarrkit's codecs", () => {
  for (const [name, { codecs, chunkShape }] of Object.entries(CHAINS)) {
    it(`${name}: writes and reads through workers store and return exactly what this thread does`, async () => {
      const data = volume();
      const definition = { shape: SHAPE, dataType: "float32", chunkShape, codecs, fillValue: 0 };
      const stores = { on: new zk.MemoryStore(), off: new zk.MemoryStore() };
      const on = await zk.createArray(stores.on, "a", definition as zk.CreateArrayOptions);
      const off = await zk.createArray(stores.off, "a", definition as zk.CreateArrayOptions, { workers: false });
      expect(await dispatched(() => on.set(null, data))).toBeGreaterThan(0);
      expect(await dispatched(() => off.set(null, data))).toBe(0);
      expect(await contents(stores.on)).toEqual(await contents(stores.off));

      const whole = await zk.openArray(stores.off, "a");
      let read!: zk.NdArray;
      expect(await dispatched(async () => (read = await whole.get()))).toBeGreaterThan(0);
      expect(bytes(read.data).equals(bytes(data))).toBe(true);
      const part = [zk.slice(3, 50), 17, zk.slice(0, 32, 3)];
      expect(bytes((await whole.get(part)).data).equals(bytes((await off.get(part)).data))).toBe(true);

      // A partial write: read-modify-write of the chunks (inner chunks) it touches.
      await on.set([zk.slice(10, 20), null, 5], 7);
      await off.set([zk.slice(10, 20), null, 5], 7);
      expect(await contents(stores.on)).toEqual(await contents(stores.off));
    });
  }

  it("reads from stores that return Node Buffers (whose slice shares memory) leave those buffers intact", async () => {
    for (const name of ["sharded", "gzip"]) {
      const { codecs, chunkShape } = CHAINS[name]!;
      const memory = new zk.MemoryStore();
      const definition = { shape: SHAPE, dataType: "float32", chunkShape, codecs } as zk.CreateArrayOptions;
      await (await zk.createArray(memory, "a", definition, { workers: false })).set(null, volume());
      // As zarrita's FileSystemStore does through fromZarritaStore: fs.readFile gives Buffers.
      const returned: Buffer[] = [];
      const give = (bytes: Uint8Array | undefined) => {
        if (!bytes) return undefined;
        const buffer = Buffer.from(bytes);
        returned.push(buffer);
        return buffer;
      };
      const store: zk.Store = {
        get: async (key) => give(await memory.get(key)),
        getRange: async (key, range) => give(await memory.getRange(key, range)),
      };
      const array = await zk.openArray(store, "a");
      let read!: zk.NdArray;
      expect(await dispatched(async () => (read = await array.get()))).toBeGreaterThan(0);
      expect(bytes(read.data).equals(bytes(volume())), name).toBe(true);
      expect(returned.every((b) => b.buffer.byteLength > 0)).toBe(true);
    }
  });

  it("corrupt chunks fail on a worker with the error this thread gives: class, code, key and message", async () => {
    for (const name of ["transpose + zstd + crc32c", "nested shards", "gzip"]) {
      const { codecs, chunkShape } = CHAINS[name]!;
      const store = new zk.MemoryStore();
      const definition = { shape: SHAPE, dataType: "float32", chunkShape, codecs } as zk.CreateArrayOptions;
      const array = await zk.createArray(store, "a", definition, { workers: false });
      await array.set(null, volume());
      const key = array.chunkKey([0, 0, 0]);
      const bytes = (await store.get(key))!;
      bytes[Math.floor(bytes.length / 3)]! ^= 0xff;
      await store.set(key, bytes);
      const failure = async (workers: boolean) =>
        (await zk.openArray(store, "a", { workers })).get().then(
          () => expect.unreachable(`${name}: the corrupt chunk was read`),
          (error: zk.ZarrkitError) => error,
        );
      const here = await failure(false);
      const there = await failure(true);
      expect(here, name).toBeInstanceOf(zk.ZarrkitError);
      expect(there.constructor, name).toBe(here.constructor);
      expect(there, name).toMatchObject({ code: here.code, key: here.key, message: here.message });
    }
  });
});
