import { countRequests, InvalidMetadataError, MemoryStore, openArray, openStore, slice } from "@zarrkit/core";
import { namedMemoryStore } from "@zarrkit/core/internal";
import { describe, expect, it, vi } from "vitest";
import { GenEntry } from "../src/gen.js";
import { registerStore } from "@zarrkit/registry";
import { openReferenceStore } from "../src/index.js";

const text = (s: string) => new TextEncoder().encode(s);
const decode = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));

/** References to consecutive 8-byte windows of `data.bin`, one per key. */
function refsOf(keys: string[]): Record<string, [string, number, number]> {
  return Object.fromEntries(keys.map((key, i) => [key, ["data.bin", 8 * i, 8]]));
}

/** A memory store holding `refs.json` and the target `data.bin` (bytes 0..255 four times). */
async function withReferences(document: unknown, options = {}) {
  const home = new MemoryStore();
  await home.set("refs.json", text(JSON.stringify(document)));
  await home.set(
    "data.bin",
    Uint8Array.from({ length: 1024 }, (_, i) => i % 256),
  );
  return openReferenceStore(home, "refs.json", options);
}

describe("kerchunk JSON version 1", () => {
  it("reads raw strings, base64 bytes, JSON objects, whole targets and windows; templates in URLs", async () => {
    const store = await withReferences({
      version: 1,
      templates: { u: "data", ext: "bin" },
      refs: {
        ".zgroup": '{"zarr_format": 2}',
        "a/.zattrs": { title: "x" },
        "a/b64": "base64:AAH/",
        "a/window": ["{{u}}.{{ext}}", 300, 4],
        "a/whole": ["data.bin"],
      },
    });
    expect(decode(await store.get(".zgroup"))).toBe('{"zarr_format": 2}');
    expect(JSON.parse(decode(await store.get("a/.zattrs"))!)).toEqual({ title: "x" });
    expect(await store.get("a/b64")).toEqual(Uint8Array.of(0, 1, 255));
    expect(await store.get("a/window")).toEqual(Uint8Array.of(44, 45, 46, 47));
    expect((await store.get("a/whole"))?.length).toBe(1024);
    expect(await store.getRange("a/window", { offset: 1, length: 2 })).toEqual(Uint8Array.of(45, 46));
    expect(await store.getRange("a/window", { suffixLength: 1 })).toEqual(Uint8Array.of(47));
    expect(await store.size("a/window")).toBe(4);
    expect(await store.get("a")).toBeUndefined();
    expect(await store.get("missing")).toBeUndefined();
  });

  it("expands gen entries lazily: a gen of 10^9 keys answers lookups and lists without allocating them", async () => {
    const store = await withReferences({
      version: 1,
      templates: { u: "data.bin" },
      gen: [
        {
          key: "big/{{i}}.{{j}}",
          url: "{{u}}",
          offset: "{{(i * 1000 + j) % 256}}",
          length: "2",
          dimensions: { i: { stop: 1_000_000 }, j: { start: 0, stop: 1000, step: 1 } },
        },
        {
          key: "named/{{c}}",
          url: "data.bin",
          offset: "{{ 10 }}",
          length: "{{n}}",
          dimensions: { c: ["x", "y"], n: [3] },
        },
      ],
      // "named/x" is also generated: as in fsspec, the generated reference wins.
      refs: { "big/.zarray": "{}", "named/x": "base64:AA==" },
    });
    // (999999 * 1000 + 998) % 256 = 254
    expect(await store.get("big/999999.998")).toEqual(Uint8Array.of(254, 255));
    expect(await store.get("big/1000000.0")).toBeUndefined();
    expect(await store.get("big/07.1")).toBeUndefined();
    expect(await store.get("named/y")).toEqual(Uint8Array.of(10, 11, 12));
    expect(await store.get("named/x")).toEqual(Uint8Array.of(10, 11, 12));
    expect(await store.get("named/z")).toBeUndefined();
    const first: string[] = [];
    for await (const key of store.list("big/")) {
      first.push(key);
      if (first.length === 3) break;
    }
    expect(first).toEqual(["big/0.0", "big/0.1", "big/0.2"]);
    expect((await store.listDir("named/")).keys.sort()).toEqual(["named/x", "named/y"]);
    const named: string[] = [];
    for await (const key of store.list("named/")) named.push(key);
    expect(named.sort()).toEqual(["named/x", "named/y"]);
    // One level of listing from the key templates' fixed heads: no key is generated (walking them would throw).
    const walk = vi.spyOn(GenEntry.prototype, "keys").mockImplementation(() => {
      throw new Error("listDir walked the keys of a gen entry");
    });
    try {
      expect(await store.listDir("")).toEqual({ keys: [], prefixes: ["big/", "named/"] });
    } finally {
      walk.mockRestore();
    }
  });

  it("reads a Zarr v2 array whose chunks are windows of a target", async () => {
    const values = Int16Array.from({ length: 6 }, (_, i) => i * 1000 - 2500);
    const home = new MemoryStore();
    await home.set("blob", new Uint8Array(values.buffer));
    await home.set(
      "refs.json",
      text(
        JSON.stringify({
          version: 1,
          refs: {
            "x/.zarray": JSON.stringify({
              zarr_format: 2,
              shape: [6],
              chunks: [4],
              dtype: "<i2",
              fill_value: 0,
              order: "C",
              compressor: null,
              filters: null,
            }),
            "x/0": ["blob", 0, 8],
            "x/1": ["blob", 8, 8],
          },
        }),
      ),
    );
    // The second chunk runs past the blob (a full chunk of 4 where the blob holds 2 more values): a typed error.
    const arr = await openArray(await openReferenceStore(home, "refs.json"), "x");
    expect(Array.from((await arr.get([slice(0, 4)])).data as Int16Array)).toEqual(Array.from(values.subarray(0, 4)));
    await expect(arr.get([5])).rejects.toMatchObject({ code: "CORRUPT_DATA", key: "x/1", field: 'refs["x/1"]' });
  });
});

describe("absolute targets", () => {
  it("open the store of the target's folder through openStore, once, unless allowTarget refuses", async () => {
    // memory://name/dir/ is the memory store named "name/dir/".
    await namedMemoryStore("reference-test-elsewhere/dir/").set("data.bin", Uint8Array.of(9, 8, 7, 6));
    const document = { version: 1, refs: { "a/0": ["memory://reference-test-elsewhere/dir/data.bin", 1, 2] } };
    expect(await (await withReferences(document)).get("a/0")).toEqual(Uint8Array.of(8, 7));
    // Target stores are kept in a bounded cache: with room for one, alternating between two targets reopens each time.
    const opened: string[] = [];
    const files = new Map([
      ["a/", Uint8Array.of(1, 2, 3)],
      ["b/", Uint8Array.of(4, 5, 6)],
    ]);
    registerStore("counted", (url) => {
      opened.push(url.href);
      const bytes = files.get(url.pathname.slice(1))!;
      return {
        get: async () => bytes.slice(),
        getRange: async (_key, range) => bytes.slice((range as { offset: number }).offset),
      };
    });
    const two = { version: 1, refs: { x: ["counted://h/a/f", 1, 2], y: ["counted://h/b/f", 0, 1] } };
    for (const [maxOpenTargets, opens] of [
      [64, 2],
      [1, 6],
    ] as const) {
      opened.length = 0;
      const store = await withReferences(two, { maxOpenTargets });
      for (let i = 0; i < 3; i++) {
        expect(await store.get("x")).toEqual(Uint8Array.of(2, 3));
        expect(await store.get("y")).toEqual(Uint8Array.of(4));
      }
      expect(opened, `maxOpenTargets ${maxOpenTargets}`).toHaveLength(opens);
    }
    const refused = await withReferences(document, { allowTarget: (url: string) => !url.startsWith("memory:") });
    await expect(refused.get("a/0")).rejects.toMatchObject({ code: "STORE_ERROR", key: "a/0", field: 'refs["a/0"]' });
  });
});

describe("kerchunk JSON version 0", () => {
  it("takes the document as the refs", async () => {
    const store = await withReferences({
      ".zgroup": '{"zarr_format": 2}',
      "c/0": ["data.bin", 1, 2],
      "c/1": "base64:Kg==",
    });
    expect(await store.get("c/0")).toEqual(Uint8Array.of(1, 2));
    expect(await store.get("c/1")).toEqual(Uint8Array.of(42));
    const keys: string[] = [];
    for await (const key of store.list("")) keys.push(key);
    expect(keys.sort()).toEqual([".zgroup", "c/0", "c/1"]);
  });
});

describe("malformed reference files: typed errors naming the key and the field", () => {
  const cases: [string, unknown, string, { code: string; key: string; field?: string }][] = [
    [
      "an unknown version",
      { version: 2, refs: {} },
      ".zgroup",
      { code: "UNSUPPORTED", key: "refs.json", field: "version" },
    ],
    [
      "refs that are no object",
      { version: 1, refs: [] },
      ".zgroup",
      { code: "INVALID_METADATA", key: "refs.json", field: "refs" },
    ],
    [
      "a reference of two items",
      { version: 1, refs: { "a/0": ["data.bin", 1] } },
      "a/0",
      { code: "INVALID_METADATA", key: "a/0", field: 'refs["a/0"]' },
    ],
    [
      "a negative offset",
      { version: 1, refs: { "a/0": ["data.bin", -1, 2] } },
      "a/0",
      { code: "INVALID_METADATA", key: "a/0", field: 'refs["a/0"][1]' },
    ],
    [
      "a fractional length",
      { version: 1, refs: { "a/0": ["data.bin", 1, 2.5] } },
      "a/0",
      { code: "INVALID_METADATA", key: "a/0", field: 'refs["a/0"][2]' },
    ],
    [
      "bad base64",
      { version: 1, refs: { "a/0": "base64:***" } },
      "a/0",
      { code: "INVALID_METADATA", key: "a/0", field: 'refs["a/0"]' },
    ],
    [
      "a template that does not resolve",
      { version: 1, refs: { "a/0": ["{{nowhere}}", 0, 1] } },
      "a/0",
      { code: "INVALID_METADATA", key: "a/0", field: 'refs["a/0"][0]' },
    ],
    [
      "an unclosed template",
      { version: 1, templates: { u: "x" }, refs: { "a/0": ["{{u", 0, 1] } },
      "a/0",
      { code: "INVALID_METADATA", key: "a/0", field: 'refs["a/0"][0]' },
    ],
    [
      "a Jinja block",
      { version: 1, refs: { "a/0": ["{% if x %}y{% endif %}", 0, 1] } },
      "a/0",
      { code: "UNSUPPORTED", key: "a/0", field: 'refs["a/0"][0]' },
    ],
    [
      "a parameterised template",
      { version: 1, templates: { f: "{{c}}" }, refs: {} },
      ".zgroup",
      { code: "UNSUPPORTED", key: "refs.json", field: "templates.f" },
    ],
    [
      "a gen key not made of dimensions",
      { version: 1, gen: [{ key: "k/{{i+1}}", url: "u", dimensions: { i: { stop: 2 } } }] },
      ".zgroup",
      { code: "INVALID_METADATA", key: "refs.json", field: "gen[0].key" },
    ],
    [
      "a gen step of 0",
      { version: 1, gen: [{ key: "k/{{i}}", url: "u", dimensions: { i: { stop: 2, step: 0 } } }] },
      ".zgroup",
      { code: "INVALID_METADATA", key: "refs.json", field: "gen[0].dimensions.i.step" },
    ],
    [
      "a gen offset without length",
      { version: 1, gen: [{ key: "k/{{i}}", url: "u", offset: "1", dimensions: { i: [1] } }] },
      ".zgroup",
      { code: "INVALID_METADATA", key: "refs.json", field: "gen[0]" },
    ],
    [
      "a gen offset that renders negative",
      {
        version: 1,
        gen: [{ key: "k/{{i}}", url: "data.bin", offset: "{{i - 5}}", length: "1", dimensions: { i: [1] } }],
      },
      "k/1",
      { code: "INVALID_METADATA", key: "refs.json", field: "gen[0].offset" },
    ],
    [
      "a target outside the reference file's store",
      { version: 1, refs: { "a/0": ["../secret", 0, 1] } },
      "a/0",
      { code: "STORE_ERROR", key: "a/0", field: 'refs["a/0"]' },
    ],
    [
      "a missing target",
      { version: 1, refs: { "a/0": ["nothing.bin", 0, 1] } },
      "a/0",
      { code: "NOT_FOUND", key: "a/0", field: 'refs["a/0"]' },
    ],
    [
      "a window past the end of its target",
      { version: 1, refs: { "a/0": ["data.bin", 1020, 10] } },
      "a/0",
      { code: "CORRUPT_DATA", key: "a/0", field: 'refs["a/0"]' },
    ],
  ];
  for (const [name, document, key, expected] of cases) {
    it(name, async () => {
      const error = await withReferences(document)
        .then((store) => store.get(key))
        .catch((e: unknown) => e);
      expect(error).toMatchObject(expected);
    });
  }

  it("refuses a reference file that is not JSON, or larger than the cap, naming it", async () => {
    const home = new MemoryStore();
    await home.set("refs.json", text("{not json"));
    await expect(openReferenceStore(home, "refs.json")).rejects.toBeInstanceOf(InvalidMetadataError);
    await home.set("refs.json", text(JSON.stringify({ version: 1, refs: { a: "x".repeat(2000) } })));
    await expect(openReferenceStore(home, "refs.json", { maxFileBytes: 1000 })).rejects.toMatchObject({
      code: "RESPONSE_TOO_LARGE",
      key: "refs.json",
    });
    await expect(openReferenceStore(home, "absent.json")).rejects.toMatchObject({
      code: "NOT_FOUND",
      key: "absent.json",
    });
  });

  it("refuses bad options, naming them", async () => {
    await expect(openStore("memory://reference-options/refs.json|reference:", { reference: 3 })).rejects.toMatchObject({
      code: "INVALID_OPTION",
      field: "reference",
    });
    const home = new MemoryStore();
    await expect(openReferenceStore(home, "refs.json", { maxOpenTargets: 0 })).rejects.toMatchObject({
      code: "INVALID_OPTION",
      field: "maxOpenTargets",
    });
    await expect(openReferenceStore(home, "refs.json", { templates: "x" as never })).rejects.toMatchObject({
      code: "INVALID_OPTION",
      field: "templates",
    });
  });

  it("coalesces windows of one target up to maxRequestBytes (maxCoalescedBytes: its deprecated name)", async () => {
    const readsOfThreeWindows = async (options: Record<string, unknown>) => {
      const memory = new MemoryStore();
      await memory.set("refs.json", text(JSON.stringify({ version: 1, refs: refsOf(["a", "b", "c"]) })));
      await memory.set("data.bin", new Uint8Array(64));
      const home = countRequests(memory);
      const store = await openReferenceStore(home, "refs.json", options);
      home.reset();
      await Promise.all(["a", "b", "c"].map((key) => store.get(key)));
      return home.reads();
    };
    // Three adjacent 8-byte windows: one request when 24 bytes are allowed, one each when 8 are.
    expect(await readsOfThreeWindows({ maxRequestBytes: 24 })).toBe(1);
    expect(await readsOfThreeWindows({ maxRequestBytes: 8 })).toBe(3);
    expect(await readsOfThreeWindows({ maxCoalescedBytes: 8 })).toBe(3);
    await expect(readsOfThreeWindows({ maxRequestBytes: 8, maxCoalescedBytes: 8 })).rejects.toThrow(
      /maxRequestBytes and maxCoalescedBytes/,
    );
  });

  it("nested parentheses deeper than the parser allows are an error, not a stack overflow", async () => {
    const deep = `{{${"(".repeat(10_000)}1${")".repeat(10_000)}}}`;
    const store = await withReferences({ version: 1, refs: { "a/0": [deep, 0, 1] } });
    await expect(store.get("a/0")).rejects.toBeInstanceOf(InvalidMetadataError);
  });
});
