import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import FileSystemStore from "@zarrita/storage/fs";
import { afterAll, describe, expect, it } from "vitest";
import * as zarrita from "zarrita";
import * as zk from "../src/node.js";

const dir = mkdtempSync(join(tmpdir(), "zarrkit-adapters-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("zarrita.js stores and zarrkit stores work both ways", () => {
  it("a zarrita store as a zarrkit store: zarrkit writes and reads a sharded array through it", async () => {
    const store = zk.fromZarritaStore(new FileSystemStore(join(dir, "a")));
    const arr = await zk.createArray(store, "x", {
      shape: [6, 6],
      dataType: "int32",
      chunkShape: [2, 2],
      shardShape: [6, 6],
    });
    const values = Int32Array.from({ length: 36 }, (_, i) => i * 3);
    // zarrita's store has no delete: write only non-fill data.
    await arr.set(
      null,
      values.map((v) => v + 1),
    );
    expect(Array.from((await (await zk.openArray(store, "x")).get([1])).data as Int32Array)).toEqual([
      19, 22, 25, 28, 31, 34,
    ]);
  });

  it("a zarrkit store with zarrita: zarrita reads what zarrkit wrote", async () => {
    const store = new zk.MemoryStore();
    const arr = await zk.createArray(store, "y", {
      shape: [5, 4],
      dataType: "float64",
      chunkShape: [2, 2],
      shardShape: [4, 4],
    });
    await arr.set(
      null,
      Float64Array.from({ length: 20 }, (_, i) => i / 4),
    );
    const z = await zarrita.open(zarrita.root(zk.toZarritaStore(store)).resolve("y"), { kind: "array" });
    const got = await zarrita.get(z);
    expect(Array.from(got.data as Float64Array)).toEqual(Array.from({ length: 20 }, (_, i) => i / 4));
  });
});
