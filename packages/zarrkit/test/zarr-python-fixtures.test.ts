import { readFileSync } from "node:fs";
import { fixturePath } from "@zarrkit/test-utils/fixtures";
import { describe, expect, it } from "vitest";
import * as zk from "../src/node.js";
import { asExpected, normalize } from "./expected-values.js";

const root = fixturePath("zarr-python-v3.zarr");
const expectedPath = fixturePath("zarr-python-v3.expected.json");

type Expected = { shape: number[]; data_type: string; data: unknown[] };

describe.skipIf(!root || !expectedPath)("zarr-python v3 fixtures", () => {
  const expected = expectedPath
    ? (JSON.parse(readFileSync(expectedPath, "utf8")).arrays as Record<string, Expected>)
    : {};

  for (const [path, want] of Object.entries(expected)) {
    it(`reads ${path}`, async () => {
      const store = await zk.openStore(`file://${root}`);
      const arr = await zk.openArray(store, path);
      expect(arr.shape).toEqual(want.shape);
      expect(arr.dataType).toBe(want.data_type);
      const got = await arr.get();
      expect(got.shape).toEqual(want.shape);
      expect(asExpected(got.data, want.data_type)).toEqual(want.data.map(normalize));
    });
  }

  it("partial reads of sharded fixtures match the whole", async () => {
    const store = await zk.openStore(`file://${root}`);
    for (const path of Object.keys(expected).filter((p) => p.includes("sharded") && expected[p]!.shape.length > 1)) {
      const arr = await zk.openArray(store, path);
      const whole = await arr.get();
      const row = await arr.get([1]);
      const n = whole.data.length / arr.shape[0]!;
      expect(Array.from(row.data as ArrayLike<unknown>), path).toEqual(
        Array.from(whole.data as ArrayLike<unknown>).slice(n, 2 * n),
      );
    }
  });

  it("lists the hierarchy and opens groups", async () => {
    const store = await zk.openStore(`file://${root}`);
    const group = await zk.openGroup(store, "");
    const names = await group.childNames();
    expect(names).toContain("my group with spaces");
    expect(names).toContain("consolidated");
    expect(names.filter((n) => n in expected).sort()).toEqual(
      Object.keys(expected)
        .filter((p) => !p.includes("/"))
        .sort(),
    );
    const nested = await zk.openGroup(store, "consolidated/nested");
    const children: string[] = [];
    for await (const child of nested.children()) children.push(child.path);
    expect(children).toEqual(["consolidated/nested/1d.i2"]);
  });

  it("reads consolidated children over a store that cannot list", async () => {
    const fsStore = await zk.openStore(`file://${root}`);
    const readOnly = {
      get: (key: string) => fsStore.get(key),
      getRange: (key: string, range: zk.RangeQuery) => fsStore.getRange!(key, range),
    };
    const group = await zk.openGroup(readOnly, "consolidated");
    expect(await group.childNames()).toEqual(["1d.chunked.i2", "2d.contiguous.i2", "nested"]);
  });
});
