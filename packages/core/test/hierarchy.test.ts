import { describe, expect, it } from "vitest";
import {
  createArray,
  createGroup,
  InvalidMetadataError,
  MemoryStore,
  open,
  openArray,
  openGroup,
  openStore,
  StoreError,
  ZarrArray,
  ZarrGroup,
} from "../src/index.js";
import { encodeJson } from "../src/internal.js";

describe("groups and hierarchy", () => {
  it("creates parents, lists children and opens by node type", async () => {
    const store = new MemoryStore();
    await createGroup(store, "g", { attributes: { title: "t" } });
    await createArray(store, "g/a", {
      shape: [2],
      dataType: "uint8",
      chunkShape: [2],
      attributes: { unit: "m" },
      dimensionNames: ["x"],
    });
    await createArray(store, "g/sub/b", { shape: [2], dataType: "uint8", chunkShape: [2] });
    await store.set("g/stray/file.txt", new Uint8Array(1));
    const g = await openGroup(store, "/g/");
    expect(g.attributes).toEqual({ title: "t" });
    const names: string[] = [];
    for await (const child of g.children())
      names.push(`${child.path}:${child instanceof ZarrArray ? "array" : "group"}`);
    expect(names).toEqual(["g/a:array", "g/sub:group"]);
    const a = await open(store, "g/a");
    expect(a).toBeInstanceOf(ZarrArray);
    expect((a as ZarrArray).attributes).toEqual({ unit: "m" });
    expect((a as ZarrArray).dimensionNames).toEqual(["x"]);
    expect(await open(store, "")).toBeInstanceOf(ZarrGroup);
    await expect(openArray(store, "g")).rejects.toThrow(InvalidMetadataError);
    await expect(openGroup(store, "g/a")).rejects.toThrow(/not a group/);
  });

  it("uses consolidated metadata when the store cannot list", async () => {
    const inner = new MemoryStore();
    await inner.set(
      "zarr.json",
      encodeJson({
        zarr_format: 3,
        node_type: "group",
        attributes: {},
        consolidated_metadata: { kind: "inline", must_understand: false, metadata: { x: {}, "x/y": {} } },
      }),
    );
    await createGroup(inner, "x", {}, {});
    const readOnly = { get: (k: string) => inner.get(k) };
    const g = await openGroup(readOnly, "");
    expect(await g.childNames()).toEqual(["x"]);
    await expect(createGroup(readOnly, "z")).rejects.toThrow(StoreError);
  });

  it("overwrite replaces a node and deletes its chunks", async () => {
    const store = new MemoryStore();
    const a = await createArray(store, "a", { shape: [4], dataType: "uint8", chunkShape: [2] });
    await a.set(null, 7);
    const b = await createArray(store, "a", { shape: [4], dataType: "uint16", chunkShape: [4] }, { overwrite: true });
    expect(Array.from((await b.get()).data as Uint16Array)).toEqual([0, 0, 0, 0]);
    expect(await store.get("a/c/0")).toBeUndefined();
  });

  it("memory:// URLs name shared in-process stores; unknown schemes list the known ones", async () => {
    const s1 = await openStore("memory://shared");
    const s2 = await openStore("memory://shared");
    expect(s1).toBe(s2);
    await expect(openStore("nope://x")).rejects.toThrow(/memory:\/\//);
  });
});

it("createGroup refuses a format given twice with two values, naming the field", async () => {
  await expect(createGroup(new MemoryStore(), "g", { format: 3 }, { format: 2 })).rejects.toMatchObject({
    name: "InvalidMetadataError",
    field: "format",
  });
});
