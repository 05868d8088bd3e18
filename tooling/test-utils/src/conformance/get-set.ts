import { expect } from "vitest";
import { bytes, expectBytes, noise, sequence, text } from "./bytes.js";
import type { ConformanceCheck } from "./types.js";

export const getSetChecks: ConformanceCheck[] = [
  {
    group: "get",
    name: "returns undefined for a missing key",
    needs: [],
    async run({ store }) {
      expect(await store.get("missing.json")).toBe(undefined);
      expect(await store.get("missing/nested/c/0")).toBe(undefined);
    },
  },
  {
    group: "get",
    name: "treats a prefix of stored keys as missing, not as a value",
    needs: ["write"],
    async run({ store, put }) {
      await put("group/array/zarr.json", text("{}"));
      expect(await store.get("group/array")).toBe(undefined);
      expect(await store.get("group")).toBe(undefined);
      expect(await store.get("group/array/zarr")).toBe(undefined);
    },
  },
  {
    group: "set",
    name: "round-trips a value",
    needs: ["write"],
    async run({ store, put }) {
      const value = text('{"zarr_format":3,"node_type":"group"}');
      await put("zarr.json", value);
      expectBytes(await store.get("zarr.json"), value);
    },
  },
  {
    group: "set",
    name: "round-trips an empty value (which is not a missing one)",
    needs: ["write"],
    async run({ store, put }) {
      await put("empty", new Uint8Array(0));
      expectBytes(await store.get("empty"), new Uint8Array(0));
    },
  },
  {
    group: "set",
    name: "round-trips binary data: every byte value and 300 KB of noise",
    needs: ["write"],
    async run({ store, put }) {
      const everyByte = sequence(512);
      const large = noise(300_000);
      await put("c/0/0", everyByte);
      await put("c/0/1", large);
      expectBytes(await store.get("c/0/0"), everyByte);
      expectBytes(await store.get("c/0/1"), large);
    },
  },
  {
    group: "set",
    name: "keeps keys at different depths apart",
    needs: ["write"],
    async run({ store, put }) {
      const keys = ["zarr.json", "a/zarr.json", "a/b/zarr.json", "a/b/c/zarr.json", "b/zarr.json"];
      for (const [i, key] of keys.entries()) await put(key, text(`value ${i}`));
      for (const [i, key] of keys.entries()) expectBytes(await store.get(key), text(`value ${i}`), key);
    },
  },
  {
    group: "set",
    name: "keeps keys apart that differ only in spaces, '+', '%' escapes or Unicode",
    needs: ["write"],
    async run({ store, put }) {
      // Pairs that collide when a store URL-decodes, form-decodes or normalises keys.
      const keys = ["s/a b", "s/a+b", "s/a%20b", "s/%41", "s/A", "s/100%", "s/ü-é-漢.bin", "s/x=1&y=2"];
      for (const [i, key] of keys.entries()) await put(key, text(`value ${i}`));
      for (const [i, key] of keys.entries()) expectBytes(await store.get(key), text(`value ${i}`), key);
    },
  },
  {
    group: "set",
    name: "stores only the bytes of a view into a larger buffer",
    needs: ["set"],
    async run({ store }) {
      const view = sequence(64).subarray(16, 24);
      await store.set!("view", view);
      expectBytes(await store.get("view"), sequence(8, 16));
    },
  },
  {
    group: "set",
    name: "overwrites with shorter and longer values",
    needs: ["set"],
    async run({ store }) {
      await store.set!("k", sequence(100));
      await store.set!("k", sequence(10, 200));
      expectBytes(await store.get("k"), sequence(10, 200), "after a shorter overwrite");
      await store.set!("k", sequence(50, 7));
      expectBytes(await store.get("k"), sequence(50, 7), "after a longer overwrite");
    },
  },
  {
    group: "set",
    name: "handles concurrent sets to different keys",
    needs: ["set"],
    async run({ store }) {
      const keys = Array.from({ length: 24 }, (_, i) => `c/${i % 3}/${i}`);
      await Promise.all(keys.map((key, i) => store.set!(key, sequence(100 + i, i))));
      for (const [i, key] of keys.entries()) expectBytes(await store.get(key), sequence(100 + i, i), key);
    },
  },
  {
    group: "set",
    name: "concurrent sets of one key leave exactly one of the values, never a mix",
    needs: ["set"],
    async run({ store }) {
      const values = Array.from({ length: 8 }, (_, i) => noise(1000 + 997 * i, i + 1));
      await Promise.all(values.map((value) => store.set!("contended", value)));
      const stored = await store.get("contended");
      const match = values.findIndex((v) => v.byteLength === stored?.byteLength && v.every((b, i) => stored[i] === b));
      expect(match, "the stored value should equal one of the values written").toBeGreaterThanOrEqual(0);
    },
  },
  {
    group: "set",
    name: "does not keep a reference to bytes passed to set, append or setRange",
    needs: [["set", "append", "setRange"]],
    async run({ store }) {
      if (store.set) {
        const input = sequence(16);
        await store.set("by-set", input);
        input.fill(0xee);
        expectBytes(await store.get("by-set"), sequence(16), "value written by set, after mutating the input");
      }
      if (store.append) {
        const first = sequence(8);
        await store.append("by-append", first);
        first.fill(0xee);
        expectBytes(await store.get("by-append"), sequence(8), "value written by append, after mutating the input");
      }
      if (store.setRange && (store.set || store.append)) {
        await (store.set ? store.set("by-set-range", sequence(8)) : store.append!("by-set-range", sequence(8)));
        const patch = bytes(1, 2);
        await store.setRange("by-set-range", 2, patch);
        patch.fill(0xee);
        expectBytes(
          await store.get("by-set-range"),
          bytes(0, 1, 1, 2, 4, 5, 6, 7),
          "value patched by setRange, after mutating the input",
        );
      }
    },
  },
  {
    group: "setParts",
    name: "stores the concatenation of its parts (2000 of them, some empty), not references to them",
    needs: ["setParts"],
    async run({ store }) {
      const parts = Array.from({ length: 2000 }, (_, i) => sequence(i % 5, i));
      const joined = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
      parts.reduce((at, part) => {
        joined.set(part, at);
        return at + part.length;
      }, 0);
      await store.setParts!("in-parts", parts);
      for (const part of parts) part.fill(0xee);
      expectBytes(await store.get("in-parts"), joined, "value written by setParts, after mutating its parts");
      const lone = sequence(16);
      await store.setParts!("in-parts", [lone]);
      lone.fill(0xee);
      expectBytes(await store.get("in-parts"), sequence(16), "value of one part, after mutating it");
      await store.setParts!("in-parts", []);
      expectBytes(await store.get("in-parts"), new Uint8Array(0), "value of no parts");
    },
  },
  {
    group: "get",
    name: "returns buffers that are not aliased to stored values",
    needs: ["write"],
    async run({ store, put }) {
      await put("k", sequence(32));
      const mutate = (value: Uint8Array | undefined) => value?.fill(0xee);
      mutate(await store.get("k"));
      if (store.getRange) {
        mutate(await store.getRange("k", { offset: 4, length: 8 }));
        mutate(await store.getRange("k", { suffixLength: 8 }));
      }
      if (store.getVersioned) mutate((await store.getVersioned("k"))?.value);
      expectBytes(await store.get("k"), sequence(32), "value after mutating returned buffers");
      if (store.getRange)
        expectBytes(
          await store.getRange("k", { offset: 4, length: 8 }),
          sequence(8, 4),
          "range after mutating returned buffers",
        );
    },
  },
];
