// What a third party writes after `npm install zarrkit zarrkit-example-xor-codec zarrkit-example-map-store`.
import * as zk from "zarrkit";
import "zarrkit-example-xor-codec";
import { MapStore } from "zarrkit-example-map-store";

// offloadAlone: the one shard's inner chunks make a single batch, which the calling thread would otherwise keep.
zk.configureCodecWorkers({ enabled: true, size: 1, offloadAlone: true });
await zk.startCodecWorkers();
const store = await zk.openStore("example-map://consumer");
// 256 x 256 float32 inner chunks (256 KiB): above the workers' threshold.
const arr = await zk.createArray(store, "x", {
  shape: [512, 512], dataType: "float32", chunkShape: [256, 256], shardShape: [512, 512],
  codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "example.xor", configuration: { key: 90 } }],
});
const values = Float32Array.from({ length: 512 * 512 }, (_, i) => i * 0.25);
await arr.set([null, null], { data: values, shape: [512, 512] });
const { data } = await (await zk.openArray(store, "x")).get([null, null]);
const same = data.length === values.length && data.every((v, i) => v === values[i]);
const report = { same, mapStore: store instanceof MapStore, fileSystemStore: typeof zk.FileSystemStore };
console.log(JSON.stringify({ ...report, ...zk.codecWorkerStats() }));
