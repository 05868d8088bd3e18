import { MemoryStore } from "@zarrkit/core";
import { describeStoreConformance, unsafeKeys } from "@zarrkit/test-utils";
import { ZipStore, zipChunks } from "../src/index.js";

/** The archive of `values`, as the writer makes it. */
async function archive(values: Map<string, Uint8Array>): Promise<Uint8Array> {
  const source = new MemoryStore();
  for (const [key, value] of values) await source.set(key, value);
  const parts: Uint8Array[] = [];
  for await (const chunk of zipChunks(source, { ome: false })) parts.push(chunk);
  return new Uint8Array(await new Blob(parts as BlobPart[]).arrayBuffer());
}

// Read-only: the suite's values reach the store by rebuilding the archive (a new version of it) behind its back.
describeStoreConformance(
  "ZipStore over a memory store",
  async () => {
    const outer = new MemoryStore();
    const values = new Map<string, Uint8Array>();
    await outer.set("archive.zip", await archive(values));
    return {
      store: await ZipStore.open(outer, "archive.zip"),
      seed: async (key, value) => {
        values.set(key, value.slice());
        await outer.set("archive.zip", await archive(values));
      },
    };
  },
  { invalidKeys: unsafeKeys },
);

describeStoreConformance(
  "ZipStore rooted inside the archive",
  async () => {
    const outer = new MemoryStore();
    const values = new Map<string, Uint8Array>([["outside/x", new Uint8Array([1])]]);
    await outer.set("archive.zip", await archive(values));
    return {
      store: await ZipStore.open(outer, "archive.zip", { root: "data/inside" }),
      seed: async (key, value) => {
        values.set(`data/inside/${key}`, value.slice());
        await outer.set("archive.zip", await archive(values));
      },
    };
  },
  { invalidKeys: unsafeKeys },
);
