import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Chunk, registerCodec, registerCodecWorkerModule } from "@zarrkit/registry";
import {
  ChecksumError,
  type CodecMetadata,
  CorruptDataError,
  closeCodecWorkers,
  codecWorkerStats,
  configureCodecWorkers,
  countRequests,
  createArray,
  dataType,
  InvalidMetadataError,
  InvalidOptionError,
  MemoryStore,
  openArray,
  slice,
  startCodecWorkers,
  ZarrkitError,
} from "../src/index.js";
import { CodecPipeline, arrayPipelineContext } from "../src/internal.js";
import * as browserPlatform from "../src/workers/platform-browser.js";
import * as nodePlatform from "../src/workers/platform-node.js";
import { codecPool } from "../src/workers/pool.js";
import { fromWire, toWire } from "../src/workers/wire-error.js";
import "./fixtures/worker-codecs.js";

const BYTES: CodecMetadata = { name: "bytes", configuration: { endian: "little" } };
const XOR: CodecMetadata = { name: "test.xor", configuration: { key: 0x5a } };
const TRANSPOSE: CodecMetadata = { name: "transpose", configuration: { order: [1, 0] } };
/** Chunks above and below the threshold the tests set. */
const THRESHOLD = 16 * 1024;
const BIG = [64, 64];
const SMALL = [16, 16];
const CHUNK = 64 * 64;
const ARRAY = [128, 128];
const ELEMENTS = 128 * 128;

function iota(n: number): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => i * 1.5 - 1000);
}

function pipeline(codecs: CodecMetadata[], shape = BIG): Promise<CodecPipeline> {
  return CodecPipeline.create(codecs, { shape, dataType: dataType("float64"), fillValue: 0 });
}

/** Counters moved by `run`. */
async function counted(run: () => Promise<unknown>): Promise<{ dispatched: number; ranHere: number }> {
  const before = codecWorkerStats();
  await run();
  const after = codecWorkerStats();
  return { dispatched: after.dispatched - before.dispatched, ranHere: after.ranHere - before.ranHere };
}

beforeAll(async () => {
  registerCodecWorkerModule(new URL("./fixtures/worker-codecs.ts", import.meta.url).href);
  // Lone chunks go to the worker too, so each test sees its work move (the default keeps them here; tested below).
  configureCodecWorkers({ enabled: true, size: 1, threshold: THRESHOLD, offloadAlone: true });
  // Until the worker is up the calling thread takes the work; from now on a lone chunk goes to the worker.
  await startCodecWorkers();
});

afterAll(() => closeCodecWorkers());

describe("codec workers", () => {
  it("decode and encode on a worker exactly as on this thread, leaving the caller's chunk intact", async () => {
    for (const codecs of [
      [BYTES, XOR],
      [TRANSPOSE, BYTES, XOR],
      [TRANSPOSE, BYTES],
    ]) {
      const p = await pipeline(codecs);
      const chunk: Chunk = { data: iota(CHUNK), shape: BIG };
      const ctx = { key: "a/c/0/0" };
      const inline = await p.chain.encode(chunk, ctx);
      let encoded!: Uint8Array;
      expect((await counted(async () => (encoded = await p.encode(chunk, ctx)))).dispatched).toBe(1);
      expect(encoded).toEqual(inline);
      expect(chunk.data.length).toBe(CHUNK);
      let decoded!: Chunk;
      expect((await counted(async () => (decoded = await p.decode(encoded, ctx)))).dispatched).toBe(1);
      expect(decoded).toEqual(await p.chain.decode(inline, ctx));
      expect(decoded.data).toBeInstanceOf(Float64Array);
      expect(encoded.length).toBe(inline.length);
    }
  });

  it("carry arrays' writes and reads through workers match an array without them", async () => {
    const store = new MemoryStore();
    const data = iota(ELEMENTS);
    const on = await createArray(store, "a", {
      shape: ARRAY,
      dataType: "float64",
      chunkShape: BIG,
      codecs: [TRANSPOSE, BYTES, XOR],
    });
    expect((await counted(() => on.set(null, data))).dispatched).toBeGreaterThan(0);
    const off = await openArray(store, "a", { workers: false });
    expect((await off.get()).data).toEqual(data);
    await off.set([null, null], iota(ELEMENTS).reverse());
    const reads = await counted(async () => expect((await on.get()).data).toEqual(iota(ELEMENTS).reverse()));
    expect(reads.dispatched).toBeGreaterThan(0);
    // A partial write reads, modifies and writes the chunk: both ways through a worker when it is idle.
    expect((await counted(() => on.set([0, 0], 42))).dispatched).toBe(2);
    expect((await off.get([0, 0])).data).toEqual(Float64Array.of(42));
  });

  it("keep small chunks, bare bytes and arrays that opt out on this thread", async () => {
    const store = new MemoryStore();
    await createArray(store, "off", { shape: ARRAY, dataType: "float64", chunkShape: BIG, codecs: [BYTES, XOR] });
    const cases = [
      await createArray(store, "small", {
        shape: [64, 64],
        dataType: "float64",
        chunkShape: SMALL,
        codecs: [BYTES, XOR],
      }),
      await createArray(store, "bytes", { shape: ARRAY, dataType: "float64", chunkShape: BIG, codecs: [BYTES] }),
      await openArray(store, "off", { workers: false }),
    ];
    for (const array of cases) {
      const moved = await counted(async () => {
        await array.set(null, iota(array.shape[0]! * array.shape[1]!));
        await array.get();
      });
      expect(moved, array.path).toEqual({ dispatched: 0, ranHere: 0 });
    }
  });

  it("follow an array's own threshold and the process setting", async () => {
    const store = new MemoryStore();
    await createArray(store, "a", { shape: [64, 64], dataType: "float64", chunkShape: SMALL, codecs: [BYTES, XOR] });
    const eager = await openArray(store, "a", { workers: { threshold: 0 } });
    expect(
      (await counted(() => eager.get([0, 0]))).dispatched + (await counted(() => eager.set(null, 1))).dispatched,
    ).toBeGreaterThan(0);
    configureCodecWorkers({ enabled: false });
    try {
      const big = await pipeline([BYTES, XOR]);
      expect(await counted(() => big.encode({ data: iota(CHUNK), shape: BIG }, { key: "k" }))).toEqual({
        dispatched: 0,
        ranHere: 0,
      });
      // An array that asks for workers has them even when the process default is off.
      const forced = await openArray(store, "a", { workers: { threshold: 0 } });
      expect((await counted(() => forced.get([0, 0]))).dispatched).toBe(1);
    } finally {
      configureCodecWorkers({ enabled: true });
    }
  });

  it("bring errors back with their class, code and key", async () => {
    const checksum = await pipeline([BYTES, { name: "test.fail" }]);
    const error = await checksum.decode(new Uint8Array(64), { key: "a/c/1/2" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChecksumError);
    expect(error).toMatchObject({ code: "CHECKSUM_MISMATCH", key: "a/c/1/2", name: "ChecksumError" });
    expect((error as Error).message).toContain("(worker)");

    const plain = await pipeline([BYTES, { name: "test.fail", configuration: { with: "type" } }]);
    await expect(plain.encode({ data: iota(CHUNK), shape: BIG }, { key: "k" })).rejects.toThrow(TypeError);

    // The bytes codec finds too few bytes after the worker's XOR: CorruptDataError naming the chunk.
    const short = await pipeline([TRANSPOSE, BYTES, XOR]);
    const corrupt = await short.decode(new Uint8Array(100), { key: "a/c/3" }).catch((e: unknown) => e);
    expect(corrupt).toBeInstanceOf(CorruptDataError);
    expect(corrupt).toMatchObject({ key: "a/c/3" });
  });

  it("hand bytes->bytes decoders on a worker the same cap on decoded bytes as on this thread", async () => {
    const p = await pipeline([BYTES, { name: "test.cap" }]);
    // A [64, 64] float64 chunk: exactly 32768 bytes.
    await expect(p.decode(new Uint8Array(8), { key: "w/c/0" })).rejects.toThrow("cap 32768 on the worker");
    await expect(p.chain.decode(new Uint8Array(8), { key: "w/c/0" })).rejects.toThrow("cap 32768 on the main thread");
    // A bound for sizes that are not fixed (maxDecodedChunkBytes) reaches the worker too.
    const options = arrayPipelineContext({ maxDecodedChunkBytes: 12345 });
    const custom = await CodecPipeline.create(
      [{ name: "test.opaque" }, { name: "test.cap" }],
      { shape: BIG, dataType: dataType("float64"), fillValue: 0 },
      options,
    );
    await expect(custom.decode(new Uint8Array(8), { key: "w/c/1" })).rejects.toThrow("cap 12345 on the worker");
  });

  it("rebuild errors of every class by code, and unknown codes as ZarrkitError", () => {
    const original = new InvalidMetadataError("bad", { field: "codecs[1]", key: "x/zarr.json" });
    const back = fromWire(toWire(original));
    expect(back).toBeInstanceOf(InvalidMetadataError);
    expect(back).toMatchObject({ message: "bad", field: "codecs[1]", key: "x/zarr.json", code: "INVALID_METADATA" });
    class Custom extends ZarrkitError {
      override readonly code = "CUSTOM";
    }
    const custom = fromWire(toWire(new Custom("odd", { key: "k" })));
    expect(custom).toBeInstanceOf(ZarrkitError);
    expect(custom).toMatchObject({ code: "CUSTOM", name: "Custom", key: "k" });
    expect(fromWire(toWire(new RangeError("r")))).toBeInstanceOf(RangeError);
  });

  it("run pipelines a worker cannot rebuild on this thread", async () => {
    registerCodec("test.here-only", () => () => ({
      kind: "bytes_to_bytes",
      name: "test.here-only",
      encode: (bytes: Uint8Array) => bytes.slice().reverse(),
      decode: (bytes: Uint8Array) => bytes.slice().reverse(),
      toJSON: () => ({ name: "test.here-only" }),
    }));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const p = await pipeline([BYTES, { name: "test.here-only" }]);
    const chunk: Chunk = { data: iota(CHUNK), shape: BIG };
    const first = await counted(async () =>
      expect(await p.decode(await p.encode(chunk, { key: "k" }), { key: "k" })).toEqual(chunk),
    );
    expect(first.dispatched).toBe(1);
    expect(codecWorkerStats().refused).toContain("test.here-only");
    expect(await counted(() => p.encode(chunk, { key: "k" }))).toEqual({ dispatched: 0, ranHere: 0 });
    // The fallback is announced once, naming the codec and how a plugin reaches the workers.
    const again = await pipeline([BYTES, { name: "test.here-only" }], [64, 65]);
    await again.decode(await again.encode({ data: iota(64 * 65), shape: [64, 65] }, { key: "k" }), { key: "k" });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/test\.here-only.*workerModule: import\.meta\.url/);
    warn.mockRestore();
  });

  it("keep a lone chunk on the calling thread unless told otherwise, and share chunks that come together", async () => {
    configureCodecWorkers({ offloadAlone: false });
    try {
      const p = await pipeline([BYTES, XOR]);
      const encoded = await p.chain.encode({ data: iota(CHUNK), shape: BIG }, { key: "k" });
      expect(await counted(() => p.decode(encoded, { key: "k" }))).toEqual({ dispatched: 0, ranHere: 1 });
      const together = await counted(() => Promise.all([1, 2, 3, 4].map(() => p.decode(encoded, { key: "k" }))));
      expect(together.dispatched).toBeGreaterThan(0);
      expect(together.dispatched + together.ranHere).toBe(4);
      const store = new MemoryStore();
      await createArray(store, "a", { shape: BIG, dataType: "float64", chunkShape: BIG, codecs: [BYTES, XOR] });
      const eager = await openArray(store, "a", { workers: { offloadAlone: true } });
      expect((await counted(() => eager.set(null, 1))).dispatched).toBe(1);
    } finally {
      configureCodecWorkers({ offloadAlone: true });
    }
  });

  it(
    "have the same platform API in browsers, on there only where Web Workers exist, leaving the page's " +
      "thread alone",
    () => {
      // Both answer the "#worker-platform" import.
      const same: typeof nodePlatform = browserPlatform;
      expect(Object.keys(same).sort()).toEqual(Object.keys(nodePlatform).sort());
      // Node 20 has no Web Worker global (worker_threads instead), so the browser platform would not start any here.
      expect(browserPlatform.workersByDefault).toBe(false);
      expect(browserPlatform.callerTurn).toBeUndefined();
      expect(browserPlatform.defaultPoolSize()).toBeGreaterThanOrEqual(1);
    },
  );

  it(
    "in browsers, report a worker the page may not construct (a SecurityError) as one that could " + "not start",
    async () => {
      const blocked = new Error("Failed to construct 'Worker': blocked by the page's policy");
      browserPlatform.useWorkerFactory(() => {
        throw blocked;
      });
      const worker = browserPlatform.spawnWorker();
      expect(() => worker.post({ type: "modules", modules: [] }, [])).not.toThrow();
      const failure = await new Promise<Error>((resolve) => worker.onFailure(resolve));
      expect(failure).toBe(blocked);
    },
  );

  it("reject invalid settings", async () => {
    expect(() => configureCodecWorkers({ size: 0 })).toThrow(InvalidOptionError);
    expect(() => configureCodecWorkers({ threshold: -1 })).toThrow(InvalidOptionError);
    expect(() => configureCodecWorkers({ offloadAlone: "yes" as unknown as boolean })).toThrow(/offloadAlone/);
    expect(() => configureCodecWorkers({ createWorker: "worker.js" as unknown as () => Worker })).toThrow(
      /createWorker must be a function/,
    );
    const store = new MemoryStore();
    await createArray(store, "a", { shape: [4], dataType: "uint8", chunkShape: [2] });
    await expect(openArray(store, "a", { workers: { size: 1.5 } })).rejects.toThrow(/workers.size/);
  });

  it("let the process exit with the pool idle, and keep it alive while a worker holds work", async () => {
    const child = fileURLToPath(new URL("./fixtures/exit-child.ts", import.meta.url));
    for (const mode of ["work", "idle"]) {
      // A worker keeping the process alive fails this by timeout; one let go too early, by exit code 13.
      const { stdout } = await promisify(execFile)(process.execPath, [...process.execArgv, child, mode], {
        timeout: 20_000,
      });
      const result = JSON.parse(stdout.trim().split("\n").pop()!);
      expect(result, mode).toMatchObject({ ok: true, workers: 1, dispatched: mode === "idle" ? 0 : 1 });
    }
  });
});

describe("a job whose message structured clone refuses", () => {
  it("fails alone, even when it waits for a worker to start, and the pool goes on serving", async () => {
    closeCodecWorkers(); // the next job waits for a new worker's start
    const reach = { size: 1, offloadAlone: true, callerHelps: false };
    const before = codecWorkerStats().dispatched;
    const refused = codecPool().run(
      {
        task: (id) => ({ message: { type: "copyOut", id, input: (() => 0) as never }, transfer: [] }),
        settle: () => "settled",
        here: async () => "here",
      },
      reach,
    );
    await expect(refused).rejects.toThrow(/could not be cloned/);
    expect(codecWorkerStats().dispatched).toBe(before);
    const copied = await codecPool().run(
      {
        task: (id) => ({ message: { type: "copyOut", id, input: Float64Array.of(1, 2) }, transfer: [] }),
        settle: (reply) => (reply.type === "done" ? [...(reply.output as Float64Array)] : []),
        here: async () => [],
      },
      reach,
    );
    expect(copied).toEqual([1, 2]);
    expect(codecWorkerStats().dispatched).toBe(before + 1);
  });
});

describe("codec workers and a result over shared memory", () => {
  /** Work counters moved by `run`, with the chunks written straight into a shared result. */
  async function moved(run: () => Promise<unknown>): Promise<{ dispatched: number; written: number }> {
    const before = codecWorkerStats();
    await run();
    const after = codecWorkerStats();
    return { dispatched: after.dispatched - before.dispatched, written: after.written - before.written };
  }

  const SHAPE = [120, 100];
  const BIG_SELECTIONS = [
    null,
    [slice(3, 117, 5), slice(1, 100, 3)],
    [slice(64, 120), slice(0, 64)],
    [7, null],
  ] as const;

  for (const [what, codecs] of [
    ["bytes + xor", [BYTES, XOR]],
    ["transpose + bytes + xor (F order)", [TRANSPOSE, BYTES, XOR]],
  ] as const) {
    it(
      `workers write ${what} chunks straight into shared memory, for whole, partial, edge and missing ` +
        `chunks alike`,
      async () => {
        const store = new MemoryStore();
        const array = await createArray(store, "a", {
          shape: SHAPE,
          dataType: "float64",
          chunkShape: BIG,
          codecs: [...codecs],
          fillValue: -3,
        });
        await array.set(null, iota(120 * 100));
        await store.delete("a/c/0/1");
        const reference = await openArray(store, "a", { workers: false });
        for (const selection of BIG_SELECTIONS) {
          const expected = await reference.get(selection as never);
          let got!: Chunk;
          const counts = await moved(async () => (got = await array.get(selection as never, { shared: true })));
          expect(got.data, JSON.stringify(selection)).toEqual(expected.data);
          expect(got.shape).toEqual(expected.shape);
          expect((got.data as Float64Array).buffer).toBeInstanceOf(SharedArrayBuffer);
          expect(counts.dispatched, JSON.stringify(selection)).toBeGreaterThan(0);
          expect(counts.written).toBe(counts.dispatched);
        }
        // Node's default is the shared result.
        expect(((await array.get()).data as Float64Array).buffer).toBeInstanceOf(SharedArrayBuffer);
        // shared: false, an ordinary result: the workers still write into shared memory, copied into the result
        // at the end, so no chunk comes back as a buffer of its own.
        for (const selection of BIG_SELECTIONS) {
          let plain!: Chunk;
          const counts = await moved(async () => (plain = await array.get(selection as never, { shared: false })));
          expect(counts.dispatched).toBeGreaterThan(0);
          expect(counts.written).toBe(counts.dispatched);
          expect((plain.data as Float64Array).buffer).toBeInstanceOf(ArrayBuffer);
          expect(plain.data, JSON.stringify(selection)).toEqual((await reference.get(selection as never)).data);
        }
      },
    );
  }

  it("a large ordinary result is copied out of shared memory by a worker, which moves the copy here", async () => {
    const store = new MemoryStore();
    // 1024 x 640 float64: 5 MiB, past the 4 MiB from which a worker copies.
    const array = await createArray(store, "a", {
      shape: [1024, 640],
      dataType: "float64",
      chunkShape: [256, 640],
      codecs: [BYTES, XOR],
    });
    const data = iota(1024 * 640);
    await array.set(null, data);
    let plain!: Chunk;
    const counts = await moved(async () => (plain = await array.get(null, { shared: false })));
    expect(plain.data).toEqual(data);
    expect((plain.data as Float64Array).buffer).toBeInstanceOf(ArrayBuffer);
    // The chunks' tasks wrote into shared memory; one more, the copy, came back with the result.
    expect(counts.dispatched).toBe(counts.written + 1);
    // A smaller result is copied here: every task wrote.
    const quarter = await moved(() => array.get([slice(0, 256), null], { shared: false }));
    expect(quarter.dispatched).toBeGreaterThan(0);
    expect(quarter.dispatched).toBe(quarter.written);
  });

  /** Each type's chunks decoded on workers (shared memory, with and without a shared result) read as on this thread. */
  async function sharedReadsUnchanged(types: readonly string[]): Promise<void> {
    for (const type of types) {
      const store = new MemoryStore();
      const array = await createArray(store, "t", {
        shape: [200, 130],
        dataType: type,
        chunkShape: [128, 128],
        codecs: [BYTES, XOR],
      });
      const reference = await openArray(store, "t", { workers: false });
      const whole = await reference.get();
      const data = whole.data as unknown as { length: number; [i: number]: number | bigint };
      for (let i = 0; i < data.length; i++) {
        if (typeof data[i] === "bigint") data[i] = BigInt(i * 3 - 500);
        else if (type === "bool") data[i] = i % 3 === 0 ? 1 : 0;
        else data[i] = type === "int4" ? (i % 16) - 8 : (i % 251) - 100; // int4 holds -8..7 only
      }
      await reference.set(null, whole.data);
      const expected = (await reference.get()).data;
      for (const shared of [false, true]) {
        const counts = await moved(async () =>
          expect((await array.get(null, { shared })).data, `${type}, shared: ${shared}`).toEqual(expected),
        );
        expect(counts.written, `${type}, shared: ${shared}`).toBeGreaterThan(0);
      }
    }
  }

  it("every fixed-size data type goes through shared memory unchanged, with and without a shared result", async () => {
    await sharedReadsUnchanged(["int8", "uint16", "int64", "float32", "float16", "complex64", "bool"]);
  });

  it("the narrow data types (stored narrower than held) go through shared memory unchanged too", async () => {
    await sharedReadsUnchanged(["bfloat16", "float8_e4m3fn", "int4"]);
  });

  it("a chunk that fails to decode on a worker rejects the read with a typed error naming it", async () => {
    const store = new MemoryStore();
    const array = await createArray(store, "a", {
      shape: SHAPE,
      dataType: "float64",
      chunkShape: BIG,
      codecs: [TRANSPOSE, BYTES, XOR],
    });
    await array.set(null, iota(120 * 100));
    await store.set("a/c/1/1", new Uint8Array(100));
    const error = await array.get(null, { shared: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptDataError);
    expect(error).toMatchObject({ key: "a/c/1/1" });
    expect((error as Error).stack).toContain("worker");
  });

  it("refuses a shared option that is not a boolean, naming it, before reading anything", async () => {
    const store = countRequests(new MemoryStore());
    const array = await createArray(store, "b", { shape: [4], dataType: "uint8", chunkShape: [2], codecs: [BYTES] });
    store.reset();
    const error = await array.get(null, { shared: "yes" as unknown as boolean }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect((error as InvalidOptionError).field).toBe("options.shared");
    expect(store.reads()).toBe(0);
  });

  it("strings ignore the option: their result is an ordinary array", async () => {
    const array = await createArray(new MemoryStore(), "s", {
      shape: [4],
      dataType: "fixed_length_utf32:8",
      chunkShape: [2],
      codecs: [BYTES],
    });
    await array.set(null, ["a", "b", "c", "d"]);
    expect((await array.get(null, { shared: true })).data).toEqual(["a", "b", "c", "d"]);
  });
});
