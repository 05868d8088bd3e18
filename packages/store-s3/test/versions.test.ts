import { createArray, openArray, slice } from "@zarrkit/core";
import { PreconditionFailedError, StoreError } from "@zarrkit/registry";
import { describe, expect, it } from "vitest";
import "@zarrkit/crc32c";
import "@zarrkit/sharding";
import { S3Store } from "../src/index.js";
import { recordingFetch } from "./recording-fetch.js";
import { rgw, rgwStore } from "./rgw.js";

const sequence = (n: number, from = 0) => Uint8Array.from({ length: n }, (_, i) => (from + i) & 0xff);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => expect.unreachable(`should have rejected, resolved with ${String(value)}`),
    (error: unknown) => error,
  );
}

describe.skipIf(!rgw)("versions of ranged reads on radosgw", () => {
  it("reports the ETag as the version of ranged reads and empty ones, the same token getVersioned gives", async () => {
    const store = rgwStore();
    await store.set("k", sequence(100));
    const { version } = (await store.getVersioned("k"))!;
    expect(version).toMatch(/^"[0-9a-f]+"$/);
    expect(await store.getRangeWithSize("k", { suffixLength: 10 })).toEqual({
      value: sequence(10, 90),
      size: 100,
      version,
    });
    expect(await store.getRangeWithSize("k", { offset: 5, length: 0 })).toEqual({
      value: new Uint8Array(0),
      size: 100,
      version,
    });
  });

  it("sends ifMatch as If-Match and reads while the object has that version", async () => {
    const { fetch, requests } = recordingFetch();
    const store = rgwStore({ fetch });
    await store.set("k", sequence(100));
    const { version } = (await store.getRangeWithSize("k", { suffixLength: 4 }))!;
    requests.length = 0;
    expect(await store.getRangeWithSize("k", { offset: 10, length: 5 }, { ifMatch: version! })).toEqual({
      value: sequence(5, 10),
      size: 100,
      version,
    });
    expect(await store.getRange("k", { offset: 10, length: 0 }, { ifMatch: version! })).toEqual(new Uint8Array(0));
    expect(requests.map((r) => [r.method, r.headers.get("range"), r.headers.get("if-match")])).toEqual([
      ["GET", "bytes=10-14", version],
      ["HEAD", null, version],
    ]);
  });

  it("an object replaced between two ranged reads is a PreconditionFailedError naming the key", async () => {
    const { fetch, requests } = recordingFetch();
    const reader = rgwStore({ fetch });
    // Another process: a store sharing nothing but the bucket.
    const writer = rgwStore({ prefix: reader.prefix });
    await writer.set("shard", sequence(100));
    const { version } = (await reader.getRangeWithSize("shard", { suffixLength: 16 }))!;
    await writer.set("shard", sequence(100, 7));
    // Without the version the read returns the new object's bytes at the old offsets.
    expect(await reader.getRange("shard", { offset: 40, length: 4 })).toEqual(sequence(4, 47));
    requests.length = 0;
    for (const read of [
      () => reader.getRange("shard", { offset: 40, length: 4 }, { ifMatch: version! }),
      () => reader.getRangeWithSize("shard", { suffixLength: 16 }, { ifMatch: version! }),
      () => reader.getRangeWithSize("shard", { offset: 0, length: 0 }, { ifMatch: version! }),
    ]) {
      const error = await rejection(read());
      expect(error).toBeInstanceOf(PreconditionFailedError);
      expect(error).toMatchObject({ key: "shard", code: "PRECONDITION_FAILED" });
    }
    expect(
      ((await rejection(reader.getRange("shard", { offset: 40, length: 4 }, { ifMatch: version! }))) as Error).message,
    ).toMatch(/S3 GET s3:\/\/.*\/shard failed: 412 PreconditionFailed/);
    expect(requests.every((r) => r.headers.get("if-match") === version)).toBe(true);
  });

  it(
    "reads past the end with ifMatch: radosgw's 416 has no ETag, so a HEAD with If-Match confirms " + "the version",
    async () => {
      const { fetch, requests } = recordingFetch();
      const store = rgwStore({ fetch });
      await store.set("k", sequence(10));
      const { version } = (await store.getRangeWithSize("k", { offset: 0, length: 1 }))!;
      requests.length = 0;
      expect(await store.getRangeWithSize("k", { offset: 50, length: 5 }, { ifMatch: version! })).toEqual({
        value: new Uint8Array(0),
        size: 10,
        version,
      });
      expect(requests.map((r) => [r.method, r.headers.get("if-match")])).toEqual([
        ["GET", version],
        ["HEAD", version],
      ]);
      await rgwStore({ prefix: store.prefix }).set("k", sequence(12));
      await expect(store.getRange("k", { offset: 50, length: 5 }, { ifMatch: version! })).rejects.toBeInstanceOf(
        PreconditionFailedError,
      );
    },
  );

  it("a deleted object is a PreconditionFailedError for a read with ifMatch, and missing without", async () => {
    const store = rgwStore();
    await store.set("k", sequence(10));
    const { version } = (await store.getRangeWithSize("k", { offset: 0, length: 1 }))!;
    await store.delete("k");
    expect(await store.getRange("k", { offset: 0, length: 1 })).toBe(undefined);
    await expect(store.getRange("k", { offset: 0, length: 1 }, { ifMatch: version! })).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      key: "k",
    });
  });

  it("a sharded array read from a cached index never returns a replaced shard's bytes at old offsets", async () => {
    // 64 int32 in one shard of 8 inner chunks (8 values each), uncompressed: inner chunks sit 32 bytes apart.
    const writer = rgwStore();
    const layout = { shape: [64], dataType: "int32", chunkShape: [8], shardShape: [64], fillValue: 0 };
    const array = await createArray(writer, "a", layout);
    await array.set(
      null,
      Int32Array.from({ length: 64 }, (_, i) => i + 1),
    );

    const { fetch, requests } = recordingFetch();
    const reader = await openArray(rgwStore({ prefix: writer.prefix, fetch }), "a");
    expect((await reader.get([slice(40, 48)])).data).toEqual(Int32Array.from({ length: 8 }, (_, i) => 41 + i));

    // Another writer rewrites the shard with the first inner chunks all fill values (not stored): every other chunk
    // moves.
    const rewritten = Int32Array.from({ length: 64 }, (_, i) => (i < 24 ? 0 : 1000 + i));
    await (await openArray(rgwStore({ prefix: writer.prefix }), "a")).set(null, rewritten);

    requests.length = 0;
    const again = await reader.get([slice(40, 48)]);
    expect(again.data).toEqual(rewritten.subarray(40, 48));
    const gets = requests.filter((r) => r.method === "GET");
    // The read planned from the cached index was refused (412), then the index was read again.
    expect(gets[0]!.headers.get("if-match")).toMatch(/^"[0-9a-f]+"$/);
    expect(gets.some((r) => r.headers.get("range")?.startsWith("bytes=-"))).toBe(true);
  });
});

describe("versions against servers radosgw cannot imitate", () => {
  /** A store whose fetch answers every request with `reply()`, recording what was sent. */
  function answering(reply: (request: Request) => Response) {
    const { fetch, requests } = recordingFetch(reply);
    return {
      store: new S3Store({ bucket: "bkt", endpoint: "http://127.0.0.1:9", anonymous: true, fetch, retries: 0 }),
      requests,
    };
  }

  it("checks the ETag of a 206 from a server that ignores If-Match", async () => {
    const { store, requests } = answering(
      () => new Response(sequence(4), { status: 206, headers: { "Content-Range": "bytes 0-3/100", ETag: '"new"' } }),
    );
    const error = await rejection(store.getRange("k", { offset: 0, length: 4 }, { ifMatch: '"old"' }));
    expect(error).toBeInstanceOf(PreconditionFailedError);
    expect(error).toMatchObject({
      key: "k",
      message: expect.stringMatching(/answered with ETag "new", not the version "old" asked for with If-Match/),
    });
    expect(requests[0]!.headers.get("if-match")).toBe('"old"');
    // Quoting aside (radosgw and AWS differ), the same ETag is the same version.
    expect(await store.getRange("k", { offset: 0, length: 4 }, { ifMatch: "new" })).toEqual(sequence(4));
  });

  it("checks a 200 full-body answer to a ranged read with If-Match", async () => {
    let etag = '"v1"';
    const { store } = answering(() => new Response(sequence(100), { status: 200, headers: { ETag: etag } }));
    const first = (await store.getRangeWithSize("k", { offset: 10, length: 2 }))!;
    expect(first).toEqual({ value: sequence(2, 10), size: 100, version: '"v1"' });
    etag = '"v2"';
    await expect(store.getRange("k", { offset: 10, length: 2 }, { ifMatch: first.version! })).rejects.toBeInstanceOf(
      PreconditionFailedError,
    );
  });

  it("reports no version for an answer without an ETag or with a weak one, and getVersioned refuses them", async () => {
    for (const headers of [{}, { ETag: 'W/"weak"' }] as Record<string, string>[]) {
      const { store } = answering(
        () => new Response(sequence(10), { status: 206, headers: { ...headers, "Content-Range": "bytes 0-9/10" } }),
      );
      const ranged = await store.getRangeWithSize("k", { offset: 0, length: 10 });
      expect(ranged).toEqual({ value: sequence(10), size: 10 });
      await expect(store.getRange("k", { offset: 0, length: 10 }, { ifMatch: '"weak"' })).rejects.toThrow(
        /answered with no strong ETag/,
      );
      const plain = answering(() => new Response(sequence(10), { status: 200, headers }));
      await expect(plain.store.getVersioned("k")).rejects.toThrow(/answered (only a weak ETag|without an ETag)/);
    }
  });

  it("rejects an ifMatch that is no version before sending anything", async () => {
    const { store, requests } = answering(() => new Response(null, { status: 200 }));
    for (const bad of ["", "*", '"v1"\r\nX-Injected: 1', 5, null]) {
      const error = await rejection(store.getRange("k", { offset: 0, length: 1 }, { ifMatch: bad as string }));
      expect(error).toBeInstanceOf(StoreError);
      expect(error).toMatchObject({ key: "k", message: expect.stringMatching(/^ifMatch for "k" must be a version/) });
    }
    await expect(store.set("k", sequence(1), { ifMatch: "a\nb" })).rejects.toMatchObject({
      key: "k",
      code: "STORE_ERROR",
    });
    expect(requests).toHaveLength(0);
  });
});
