// A whole shard's inner chunks are read into a pooled buffer. It is shared
// memory when codec workers decode the inner chunks into a shared result
// (they read it without a copy; bare `bytes` inner chunks too, which the
// workers copy), and ordinary memory, cheaper to allocate, when workers are off.
import "@zarrkit/codecs";
import { closeCodecWorkers, configureCodecWorkers } from "@zarrkit/core";
import { registerCodecWorkerModule } from "@zarrkit/registry";
import { afterAll, describe, expect, it } from "vitest";
import { BYTES, createArray, iota, MemoryStore } from "./helpers.js";

const ZSTD = { name: "zstd", configuration: { level: 1, checksum: false } };
afterAll(() => closeCodecWorkers());
registerCodecWorkerModule(new URL("../../codecs/src/index.ts", import.meta.url).href);

/** A memory store that records, for every buffer it is asked to fill, whether it is shared memory. */
function recording(): { store: MemoryStore; kinds: boolean[] } {
  const store = new MemoryStore();
  const kinds: boolean[] = [];
  const into = store.getRangeInto.bind(store);
  store.getRangeInto = (key, range, target, options) => {
    kinds.push(target.buffer instanceof SharedArrayBuffer);
    return into(key, range, target, options);
  };
  return { store, kinds };
}

describe("what a whole shard is read into", () => {
  for (const [what, codecs, shared] of [
    ["bare bytes inner chunks, workers on", [BYTES], true],
    ["zstd inner chunks, workers on", [BYTES, ZSTD], true],
    ["bare bytes inner chunks, workers off", [BYTES], false],
    ["zstd inner chunks, workers off", [BYTES, ZSTD], false],
  ] as const) {
    it(`${what}: ${shared ? "shared" : "ordinary"} memory`, async () => {
      configureCodecWorkers({ enabled: shared, threshold: 0, size: 1, offloadAlone: true });
      const { store, kinds } = recording();
      const array = await createArray(store, "a", {
        shape: [32, 32],
        chunkShape: [8, 8],
        shardShape: [32, 32],
        dataType: "int32",
        codecs: [...codecs],
      });
      await array.set(null, iota(32 * 32));
      kinds.length = 0;
      const got = await array.get();
      expect(Array.from(got.data as Int32Array)).toEqual(Array.from(iota(32 * 32)));
      expect(kinds.length).toBeGreaterThan(0);
      expect(new Set(kinds)).toEqual(new Set([shared]));
    });
  }
});
