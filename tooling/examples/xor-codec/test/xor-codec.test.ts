// The plugin as an application meets it: import it, and example.xor works on
// this thread and on zarrkit's codec workers with nothing else to do.
import * as zk from "zarrkit";
import { afterAll, describe, expect, it } from "vitest";
import "../src/index.js";

afterAll(() => zk.closeCodecWorkers());

describe("example.xor", () => {
  it("round-trips large chunks on the codec workers, which import the plugin themselves", async () => {
    zk.configureCodecWorkers({ enabled: true, size: 1 });
    await zk.startCodecWorkers();
    const store = new zk.MemoryStore();
    // 256 x 256 float32 chunks: 256 KiB each, above the 128 KiB workers threshold.
    const arr = await zk.createArray(store, "x", {
      shape: [512, 512],
      dataType: "float32",
      chunkShape: [256, 256],
      codecs: [
        { name: "bytes", configuration: { endian: "little" } },
        { name: "example.xor", configuration: { key: 0x5a } },
      ],
    });
    const values = Float32Array.from({ length: 512 * 512 }, (_, i) => i * 0.5);
    await arr.set([null, null], { data: values, shape: [512, 512] });
    const raw = (await store.get("x/c/0/0"))!;
    expect(new Float32Array(raw.map((b) => b ^ 0x5a).buffer)[3]).toBe(1.5);
    const before = zk.codecWorkerStats().dispatched;
    const { data } = await (await zk.openArray(store, "x")).get([null, null]);
    expect(data).toEqual(values);
    const stats = zk.codecWorkerStats();
    expect(stats.dispatched).toBeGreaterThan(before);
    expect(stats.refused).toBeUndefined();
  });

  it("rejects a key outside 0-255 with a typed error naming the field", async () => {
    await expect(
      zk.createArray(new zk.MemoryStore(), "bad", {
        shape: [4],
        dataType: "uint8",
        chunkShape: [4],
        codecs: [{ name: "bytes" }, { name: "example.xor", configuration: { key: 300 } }],
      }),
    ).rejects.toMatchObject({ code: "INVALID_METADATA", field: "configuration.key" });
  });
});
