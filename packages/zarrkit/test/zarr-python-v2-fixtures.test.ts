import { readFileSync } from "node:fs";
import { fixturePath } from "@zarrkit/test-utils/fixtures";
import { describe, expect, it } from "vitest";
import { isCodecRegistered } from "@zarrkit/registry";
import * as zk from "../src/node.js";
import { asExpected, normalize } from "./expected-values.js";

const root = fixturePath("zarr-python-v2.zarr");
const expectedPath = fixturePath("zarr-python-v2.expected.json");

type Expected = { shape: number[]; dtype: string; data: unknown[] };

/** The numcodecs codecs an array's .zarray names, as v3 codec names. */
function codecNames(metadata: zk.ArrayMetadataV2): string[] {
  return [...(metadata.filters ?? []), ...(metadata.compressor ? [metadata.compressor] : [])].map(
    (c) => `numcodecs.${c.id}`,
  );
}

describe.skipIf(!root || !expectedPath)("zarr-python v2 fixtures", () => {
  const expected = expectedPath
    ? (JSON.parse(readFileSync(expectedPath, "utf8")).arrays as Record<string, Expected>)
    : {};
  const docs = new Map(
    Object.keys(expected).map((path) => [
      path,
      root ? (JSON.parse(readFileSync(`${root}/${path}/.zarray`, "utf8")) as zk.ArrayMetadataV2) : undefined,
    ]),
  );

  const pending = (path: string) => codecNames(docs.get(path)!).filter((name) => !isCodecRegistered(name));

  for (const [path, want] of Object.entries(expected)) {
    const missing = pending(path);
    if (missing.length > 0) {
      // Provided by @zarrkit/codecs (numcodecs.<id> codecs, added separately): pending until registered.
      it.skip(`reads ${path} (pending: ${missing.join(", ")} not registered)`, () => {});
      console.warn(`[zarrkit] pending: ${path} needs ${missing.join(", ")}, not registered yet`);
      continue;
    }
    it(`reads ${path}`, async () => {
      const store = await zk.openStore(`file://${root}`);
      const arr = await zk.openArray(store, path);
      expect(arr.format).toBe(2);
      expect(arr.shape).toEqual(want.shape);
      expect(arr.metadata).toEqual(docs.get(path));
      const got = await arr.get();
      expect(got.shape).toEqual(want.shape);
      expect(asExpected(got.data, arr.dataType)).toEqual(want.data.map(normalize));
    });
  }

  it("opens the root and the group whose name has spaces, with attributes", async () => {
    const store = await zk.openStore(`file://${root}`);
    const group = await zk.openGroup(store, "", { consolidated: false });
    expect(group.format).toBe(2);
    expect(group.attributes).toEqual({ answer: 42 });
    const names = await group.childNames();
    expect(names).toEqual([...Object.keys(expected), "my group with spaces"].sort());
    const spaced = await zk.openGroup(store, "my group with spaces");
    expect(spaced.format).toBe(2);
    expect(spaced.attributes).toEqual({ description: "A group with spaces in the name" });
    expect(await spaced.childNames()).toEqual([]);
  });

  it("opens the whole tree from .zmetadata with one metadata request", async () => {
    const fsStore = await zk.openStore(`file://${root}`);
    const keys: string[] = [];
    const store = zk.withRequestLog({ get: (key: string) => fsStore.get(key) }, (r) => keys.push(r.key));
    const group = await zk.openGroup(store, "", { format: 2 });
    expect(group.consolidated?.format).toBe(2);
    const names = await group.childNames();
    expect(names).toEqual([...Object.keys(expected), "my group with spaces"].sort());
    for (const name of names) {
      if (docs.has(name) && pending(name).length > 0) continue;
      const child = await group.open(name);
      if (child instanceof zk.ZarrGroup) {
        expect(child.attributes).toEqual({ description: "A group with spaces in the name" });
        expect(await child.childNames()).toEqual([]);
      } else {
        expect(asExpected((await child.get()).data, child.dataType)).toEqual(expected[name]!.data.map(normalize));
      }
    }
    // One metadata request for the whole tree; the chunks read are the only other requests.
    expect(keys.filter((k) => /(^|\/)(\.z\w+|zarr\.json)$/.test(k))).toEqual([".zmetadata"]);
  });
});
