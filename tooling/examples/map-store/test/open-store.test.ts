import * as zk from "zarrkit";
import { expect, it } from "vitest";
import { MapStore } from "../src/index.js";

it("opens by URL and holds a sharded array, read with one ranged request per inner chunk after the index", async () => {
  const store = await zk.openStore("example-map://volume");
  expect(store).toBeInstanceOf(MapStore);
  const arr = await zk.createArray(store, "a", {
    shape: [64, 64],
    dataType: "uint16",
    chunkShape: [8, 8],
    shardShape: [32, 32],
  });
  await arr.set([null, null], 7);
  const counted = zk.countRequests(await zk.openStore("example-map://volume"));
  const { data } = await (await zk.openArray(counted, "a")).get([zk.slice(0, 8), zk.slice(0, 8)]);
  expect(Array.from(data as Uint16Array).every((v) => v === 7)).toBe(true);
  // zarr.json, the shard index, the inner chunk.
  expect(counted.reads()).toBe(3);
});
