import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fixturePath } from "@zarrkit/test-utils/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileServer, startServer, type TestServer } from "../../store-fetch/test/http-server.js";
import * as zk from "../src/node.js";

const METADATA = /(^|\/)(zarr\.json|\.zarray|\.zgroup|\.zattrs|\.zmetadata)$/;

const files = fileServer();
let server: TestServer;
beforeAll(async () => {
  server = await startServer(files.handler);
});
afterAll(() => server.close());

/** Build a hierarchy in memory, consolidate it and publish it under `prefix` on the server. */
async function publish(prefix: string, format: 2 | 3): Promise<void> {
  const store = new zk.MemoryStore();
  await zk.createGroup(store, "", { format, attributes: { title: `v${format}` } });
  const spec = (dataType: string) =>
    format === 2
      ? { format: 2 as const, shape: [6], chunkShape: [4], dataType, compressor: { id: "zlib", level: 1 } }
      : {
          shape: [6],
          chunkShape: [4],
          dataType,
          codecs: [
            { name: "bytes", configuration: { endian: "little" } },
            { name: "gzip", configuration: { level: 1 } },
          ],
        };
  await (await zk.createArray(store, "a", spec(format === 2 ? "<i4" : "int32"))).set(
    null,
    Int32Array.from([1, 2, 3, 4, 5, 6]),
  );
  await zk.createGroup(store, "g", { format, attributes: { g: true } });
  await (await zk.createArray(store, "g/b", spec(format === 2 ? ">f8" : "float64"))).set(null, 2.5);
  await zk.createGroup(store, "g/h", { format });
  await (await zk.createArray(store, "g/h/c", spec(format === 2 ? "|u1" : "uint8"))).set(null, 7);
  await zk.consolidateMetadata(store);
  for await (const key of store.list("")) files.put(`${prefix}/${key}`, (await store.get(key))!);
}

/** Open every node below `group` and read every array; returns "path=values" lines. */
async function walk(group: zk.ZarrGroup<zk.ZarrNode>, out: string[] = []): Promise<string[]> {
  for await (const child of group.children()) {
    if (child instanceof zk.ZarrGroup) {
      out.push(`${child.path}/ ${JSON.stringify(child.attributes)}`);
      await walk(child, out);
    } else {
      out.push(`${child.path}=${Array.from((await child.get()).data as ArrayLike<unknown>).join(",")}`);
    }
  }
  return out;
}

describe("consolidated metadata over HTTP", () => {
  it.each([2, 3] as const)(
    "v%i: opening and walking the whole tree makes exactly one metadata request",
    async (format) => {
      await publish(`v${format}`, format);
      const keys: string[] = [];
      const store = zk.withRequestLog(await zk.openStore(`${server.url}v${format}/`), (r) => keys.push(r.key));
      const before = server.requests.length;
      const root = await zk.openGroup(store, "", format === 2 ? { format: 2 } : {});
      expect(root.attributes).toEqual({ title: `v${format}` });
      expect(await walk(root)).toEqual([
        "a=1,2,3,4,5,6",
        'g/ {"g":true}',
        "g/b=2.5,2.5,2.5,2.5,2.5,2.5",
        "g/h/ {}",
        "g/h/c=7,7,7,7,7,7",
      ]);
      const metadataKeys = keys.filter((k) => METADATA.test(k));
      expect(metadataKeys).toEqual([format === 2 ? ".zmetadata" : "zarr.json"]);
      const sent = server.requests.slice(before).map((r) => decodeURIComponent(new URL(r.url, "http://x").pathname));
      expect(sent.filter((p) => METADATA.test(p))).toEqual([
        `/store/v${format}/${format === 2 ? ".zmetadata" : "zarr.json"}`,
      ]);
      // The chunks: 2 of a, 2 of g/b, 2 of g/h/c.
      expect(sent.length).toBe(7);
    },
  );

  const v2 = fixturePath("zarr-python-v2.zarr");
  it.skipIf(!v2)(
    "the zarr-python v2 fixture: .zmetadata is the only metadata request, spaces in names included",
    async () => {
      const root = v2!;
      const add = (dir: string) => {
        for (const name of readdirSync(dir)) {
          const path = join(dir, name);
          if (statSync(path).isDirectory()) add(path);
          else files.put(`fixture-v2/${relative(root, path)}`, new Uint8Array(readFileSync(path)));
        }
      };
      add(root);
      const keys: string[] = [];
      const store = zk.withRequestLog(await zk.openStore(`${server.url}fixture-v2/`), (r) => keys.push(r.key));
      const group = await zk.openGroup(store, "", { format: 2 });
      const names = await group.childNames();
      expect(names).toContain("my group with spaces");
      for (const name of names) await group.open(name).catch(() => undefined); // arrays whose codec is pending still open from .zmetadata or fail without a request
      const spaced = (await group.open("my group with spaces")) as zk.ZarrGroup<zk.ZarrNode>;
      expect(spaced.attributes).toEqual({ description: "A group with spaces in the name" });
      expect(keys.filter((k) => METADATA.test(k))).toEqual([".zmetadata"]);
    },
  );
});
