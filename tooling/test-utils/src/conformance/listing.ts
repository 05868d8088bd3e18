import type { Store } from "@zarrkit/registry";
import { expect } from "vitest";
import { expectBytes, text } from "./bytes.js";
import type { ConformanceCheck } from "./types.js";

const tree = ["zarr.json", "a/zarr.json", "a/b/zarr.json", "a/b/c/0", "a/bc/zarr.json", "a/x", "b/c/0"];

async function putTree(put: (key: string, value: Uint8Array) => Promise<void>): Promise<void> {
  for (const key of tree) await put(key, text(key));
}

// Sorted, but duplicates kept: a key listed twice is a failure.
async function listed(store: Store, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list!(prefix)) keys.push(key);
  return keys.sort();
}

const sorted = (keys: string[]) => [...keys].sort();

export const listingChecks: ConformanceCheck[] = [
  {
    group: "list",
    name: 'lists every key exactly once under the "" prefix',
    needs: ["list", "write"],
    async run({ store, put }) {
      await putTree(put);
      expect(await listed(store, "")).toEqual(sorted(tree));
    },
  },
  {
    group: "list",
    name: "lists the keys under a directory prefix, at any depth",
    needs: ["list", "write"],
    async run({ store, put }) {
      await putTree(put);
      expect(await listed(store, "a/")).toEqual(
        sorted(["a/zarr.json", "a/b/zarr.json", "a/b/c/0", "a/bc/zarr.json", "a/x"]),
      );
      expect(await listed(store, "a/b/")).toEqual(sorted(["a/b/zarr.json", "a/b/c/0"]));
    },
  },
  {
    group: "list",
    name: "matches prefixes that end inside a key segment",
    needs: ["list", "write"],
    async run({ store, put }) {
      await putTree(put);
      expect(await listed(store, "a/b")).toEqual(sorted(["a/b/zarr.json", "a/b/c/0", "a/bc/zarr.json"]));
      expect(await listed(store, "zarr")).toEqual(["zarr.json"]);
    },
  },
  {
    group: "list",
    name: "lists nothing under a prefix no key starts with",
    needs: ["list", "write"],
    async run({ store, put }) {
      await putTree(put);
      expect(await listed(store, "missing/")).toEqual([]);
      expect(await listed(store, "a/b/c/0/")).toEqual([]);
    },
  },
  {
    group: "list",
    name: "does not list deleted keys",
    needs: ["list", "delete", "write"],
    async run({ store, put }) {
      await putTree(put);
      await store.delete!("a/b/c/0");
      await store.delete!("a/x");
      expect(await listed(store, "a/")).toEqual(sorted(["a/zarr.json", "a/b/zarr.json", "a/bc/zarr.json"]));
    },
  },
  {
    group: "listDir",
    name: "lists one level at the root: full keys, and child prefixes ending in '/'",
    needs: ["listDir", "write"],
    async run({ store, put }) {
      await putTree(put);
      const { keys, prefixes } = await store.listDir!("");
      expect({ keys: sorted(keys), prefixes: sorted(prefixes) }).toEqual({
        keys: ["zarr.json"],
        prefixes: ["a/", "b/"],
      });
    },
  },
  {
    group: "listDir",
    name: "lists one level under a prefix, naming keys and prefixes in full",
    needs: ["listDir", "write"],
    async run({ store, put }) {
      await putTree(put);
      const a = await store.listDir!("a/");
      expect({ keys: sorted(a.keys), prefixes: sorted(a.prefixes) }).toEqual({
        keys: ["a/x", "a/zarr.json"],
        prefixes: ["a/b/", "a/bc/"],
      });
      const b = await store.listDir!("a/b/");
      expect({ keys: sorted(b.keys), prefixes: sorted(b.prefixes) }).toEqual({
        keys: ["a/b/zarr.json"],
        prefixes: ["a/b/c/"],
      });
    },
  },
  {
    group: "listDir",
    name: "lists nothing under a missing prefix",
    needs: ["listDir", "write"],
    async run({ store, put }) {
      await putTree(put);
      expect(await store.listDir!("missing/")).toEqual({ keys: [], prefixes: [] });
      expect(await store.listDir!("a/x/")).toEqual({ keys: [], prefixes: [] });
    },
  },
  {
    group: "delete",
    name: "removes a key",
    needs: ["delete", "write"],
    async run({ store, put }) {
      await put("a/b/zarr.json", text("{}"));
      await store.delete!("a/b/zarr.json");
      expect(await store.get("a/b/zarr.json")).toBe(undefined);
      if (store.size) expect(await store.size("a/b/zarr.json")).toBe(undefined);
      if (store.getRange) expect(await store.getRange("a/b/zarr.json", { suffixLength: 1 })).toBe(undefined);
    },
  },
  {
    group: "delete",
    name: "deleting a missing key is not an error",
    needs: ["delete"],
    async run({ store }) {
      await expect(store.delete!("missing")).resolves.toBe(undefined);
      await expect(store.delete!("missing/nested/key")).resolves.toBe(undefined);
    },
  },
  {
    group: "delete",
    name: "leaves keys that share a prefix with the deleted key",
    needs: ["delete", "write"],
    async run({ store, put }) {
      for (const key of ["x/y", "x/yz", "x/y2/z", "x/z"]) await put(key, text(key));
      await store.delete!("x/y");
      expect(await store.get("x/y")).toBe(undefined);
      for (const key of ["x/yz", "x/y2/z", "x/z"]) expectBytes(await store.get(key), text(key), key);
    },
  },
  {
    group: "delete",
    name: "a key can be written again after its directory was emptied",
    needs: ["delete", "set"],
    async run({ store }) {
      await store.set!("d/e/f", text("first"));
      await store.delete!("d/e/f");
      await store.set!("d/e/g", text("second"));
      await store.set!("d/e/f", text("third"));
      expectBytes(await store.get("d/e/g"), text("second"), "d/e/g");
      expectBytes(await store.get("d/e/f"), text("third"), "d/e/f");
    },
  },
];
