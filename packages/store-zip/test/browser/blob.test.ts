// In Chromium: an archive dropped or picked as a File, read lazily through a
// BlobStore (Blob.slice per read): one written by fflate's zipSync (DEFLATE
// and STORED entries), and an .ozx of a sharded array built by zipBlob.
import { createArray, MemoryStore, openArray, slice } from "@zarrkit/core";
import "@zarrkit/sharding";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { BlobStore, ZipStore, zipBlob } from "../../src/index.js";

describe("archives as browser Files", () => {
  it("reads a zip written by fflate (DEFLATE and STORED entries) from a File", async () => {
    const text = new TextEncoder().encode("deflated ".repeat(1000));
    const raw = Uint8Array.from({ length: 5000 }, (_, i) => (i * 31) & 0xff);
    const bytes = zipSync({ "a/text": [text, { level: 9 }], "a/raw": [raw, { level: 0 }] });
    const file = new File([bytes as BlobPart], "dropped.zip");
    const store = await ZipStore.open(new BlobStore(file), file.name);
    expect(await store.get("a/text")).toEqual(text);
    expect(await store.getRange("a/raw", { offset: 4000, length: 10 })).toEqual(raw.slice(4000, 4010));
    expect((await store.listDir("a/")).keys.sort()).toEqual(["a/raw", "a/text"]);
  });

  it("reads a sharded array from an .ozx that zipBlob built, by Blob slices", async () => {
    const source = new MemoryStore();
    const group = '{"zarr_format":3,"node_type":"group","attributes":{"ome":{"version":"0.5"}}}';
    await source.set("zarr.json", new TextEncoder().encode(group));
    const shape = [512, 256];
    const layout = { chunkShape: [32, 32], shardShape: [128, 128] };
    const array = await createArray(source, "0", { shape, dataType: "uint16", ...layout });
    // Noise, so that the archive stays larger than the first suffix read.
    let state = 12345;
    const values = Uint16Array.from({ length: 512 * 256 }, () => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return state & 0xffff;
    });
    await array.set([null, null], { data: values, shape });
    const file = new File([await zipBlob(source)], "image.ozx");
    expect(file.size).toBeGreaterThan(2 * 128 * 1024);
    const reads: number[] = [];
    const blobStore = new BlobStore(file);
    const counted = Object.assign(Object.create(blobStore), {
      getRangeWithSize: async (key: string, range: never, options: never) => {
        const read = await blobStore.getRangeWithSize(key, range, options);
        reads.push(read?.value.length ?? 0);
        return read;
      },
    });
    const store = await ZipStore.open(counted, "image.ozx");
    expect(await store.ome()).toMatchObject({ version: "0.5" });
    const got = await (await openArray(store, "0")).get([slice(300, 302), slice(200, 203)]);
    const want = [300, 301].flatMap((i) => [200, 201, 202].map((j) => values[i * 256 + j]));
    expect(Array.from(got.data as Uint16Array)).toEqual(want);
    expect(reads.length, "reads of the Blob: tail, zarr.json, shard header and index, chunk").toBeLessThanOrEqual(5);
    // A shard of 32 KiB is read with its local header at once; nothing larger is read after the tail.
    expect(Math.max(...reads.slice(1)), "after the tail, slices no larger than a shard").toBeLessThan(34 * 1024);
  });
});
