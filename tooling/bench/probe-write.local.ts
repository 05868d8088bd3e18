import { rmSync } from "node:fs";
import * as zk from "zarrkit";
const n = 256, dir = "/work/probe-write";
const data = new Uint16Array(n ** 3);
for (let z = 0; z < n; z++) for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) data[(z * n + y) * n + x] = (x * 7 + y * 3 + z) & 0xfff ^ ((x * y) >> 6);
const inner = Number(process.env.INNER ?? 32);
const codecs = process.env.RAW ? [{ name: "bytes", configuration: { endian: "little" } }] : [{ name: "bytes", configuration: { endian: "little" } }, { name: "zstd", configuration: { level: 0, checksum: false } }];
const runs = Number(process.env.RUNS ?? 9);
const times: number[] = [];
for (let r = 0; r < runs; r++) {
  rmSync(dir, { recursive: true, force: true });
  const store = new zk.FileSystemStore(dir);
  const t = performance.now();
  const a = await zk.createArray(store, "a", { shape: [n, n, n], dataType: "uint16", chunkShape: [inner, inner, inner], shardShape: [128, 128, 128], codecs });
  await a.set(null, { data, shape: [n, n, n] });
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log("write", inner, process.env.RAW ? "raw" : "zstd", "median", times[runs >> 1].toFixed(1), "min", times[0].toFixed(1));
await zk.closeCodecWorkers();
rmSync(dir, { recursive: true, force: true });
