// Write a small sharded array to ./quickstart-data/example.zarr, read parts of
// it back, and show what that cost in storage requests.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as zk from "zarrkit";

const folder = resolve(process.argv[2] ?? "quickstart-data/example.zarr");
const store = await zk.openStore(pathToFileURL(folder).href);

const arr = await zk.createArray(
  store,
  "temperature",
  {
    shape: [256, 256],
    dataType: "float32",
    chunkShape: [32, 32], // the unit of reading
    shardShape: [128, 128], // the unit of storage: 16 inner chunks per shard file
    codecs: [
      { name: "bytes", configuration: { endian: "little" } },
      { name: "zstd", configuration: { level: 3, checksum: false } },
    ],
    dimensionNames: ["y", "x"],
    attributes: { units: "degC" },
  },
  { overwrite: true },
);
const values = Float32Array.from(
  { length: 256 * 256 },
  (_, i) => 20 + Math.sin(i / 256 / 20) * 5 + ((i % 256) / 256) * 3,
);
await arr.set(null, values);
console.log(
  `wrote ${folder}/temperature: shape [${arr.shape}], ${arr.dataType}, shards [${arr.shardShape}] of inner chunks ` +
    `[${arr.chunkShape}]`,
);

const requests: zk.StoreRequest[] = [];
const counted = zk.withRequestLog(store, (r) => requests.push(r));
const reader = await zk.openArray(counted, "temperature");
requests.length = 0;

const block = await reader.get([zk.slice(40, 60), zk.slice(100, 110)]);
console.log(
  `read a [${block.shape}] block: ${requests.length} requests (shard index + inner ` +
    `chunk), ${requests.reduce((n, r) => n + r.bytes, 0)} bytes`,
);
requests.length = 0;
const again = await reader.get([zk.slice(40, 60), zk.slice(100, 110)]);
console.log(`read it again: ${requests.length} request (the shard index is cached)`);

const ok = again.data.every((v, k) => v === values[(40 + Math.floor(k / 10)) * 256 + 100 + (k % 10)]);
const shard = await zk.describeShard(reader, [0, 0]);
console.log(
  `shard ${shard.key}: ${shard.chunks.filter((c) => !("empty" in c)).length} of ${shard.chunks.length} inner chunks ` +
    `stored, index at the ${shard.indexLocation}`,
);
console.log(ok ? "values match what was written" : "MISMATCH between written and read values");
process.exitCode = ok ? 0 : 1;
