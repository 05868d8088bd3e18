import { MemoryStore } from "@zarrkit/core";
import { FetchStore } from "@zarrkit/store-fetch";
import { FileSystemStore } from "@zarrkit/store-fs";
import { describeStoreConformance, unsafeKeys } from "@zarrkit/test-utils";
import { fileServer, startServer } from "../../store-fetch/test/http-server.js";
import { ZipStore, zipChunks } from "../src/index.js";
import { tempDir } from "./helpers.js";

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

// The same over the stores an archive usually lives in: a file (versions from the file's identity) and an HTTP
// server with ranges and strong ETags (the archive replaced behind the store's back).
describeStoreConformance(
  "ZipStore over a file",
  async () => {
    const dir = await tempDir();
    const files = new FileSystemStore(dir.path);
    const values = new Map<string, Uint8Array>();
    await files.set("archive.zip", await archive(values));
    return {
      store: await ZipStore.open(files, "archive.zip"),
      seed: async (key, value) => {
        values.set(key, value.slice());
        await files.set("archive.zip", await archive(values));
      },
      cleanup: dir.remove,
    };
  },
  { invalidKeys: unsafeKeys },
);

describeStoreConformance(
  "ZipStore over HTTP",
  async () => {
    const files = fileServer();
    const server = await startServer(files.handler);
    const values = new Map<string, Uint8Array>();
    files.put("archive.zip", await archive(values));
    return {
      store: await ZipStore.open(new FetchStore(server.url, { retry: { retries: 0 } }), "archive.zip"),
      seed: async (key, value) => {
        values.set(key, value.slice());
        files.put("archive.zip", await archive(values));
      },
      cleanup: server.close,
    };
  },
  { invalidKeys: unsafeKeys },
);
