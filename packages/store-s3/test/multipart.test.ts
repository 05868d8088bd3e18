import { StoreError } from "@zarrkit/registry";
import { describe, expect, it } from "vitest";
import { parseXml, xmlChildren, xmlChildText } from "@zarrkit/http";
import { count, recordingFetch } from "./recording-fetch.js";
import { adminClient, rgw, rgwStore } from "./rgw.js";

const MiB = 2 ** 20;

function pattern(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 31 + seed + (i >> 12)) & 0xff;
  return out;
}

function equalBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && a.byteLength === b.byteLength && a.every((x, i) => x === b[i]);
}

/** The multipart uploads still open under `prefix` (aborted and completed ones are gone). */
async function openUploads(prefix: string): Promise<string[]> {
  const response = await adminClient().fetch(
    `${rgw!.endpoint}/${rgw!.bucket}?uploads&prefix=${encodeURIComponent(prefix)}`,
  );
  const xml = await response.text();
  expect(xml, "ListMultipartUploads").toContain("<ListMultipartUploadsResult");
  return xmlChildren(parseXml(xml, "ListMultipartUploads"), "Upload").map(
    (upload) => xmlChildText(upload, "UploadId")!,
  );
}

describe.skipIf(!rgw)("multipart uploads on radosgw", () => {
  it("uploads a value above the threshold in parts and reads it back whole and in ranges", async () => {
    const { fetch, requests } = recordingFetch();
    const store = rgwStore({ fetch, multipartThreshold: 8 * MiB, partSize: 5 * MiB });
    const value = pattern(12 * MiB + 123, 7);
    await store.set("c/0", value);
    expect(count(requests, "POST", "uploads"), "CreateMultipartUpload").toBe(1);
    expect(count(requests, "PUT", "partNumber"), "UploadPart").toBe(3);
    expect(count(requests, "POST", "uploadId"), "CompleteMultipartUpload").toBe(1);
    expect(requests.length).toBe(5);

    expect(equalBytes(await store.get("c/0"), value)).toBe(true);
    expect(await store.size("c/0")).toBe(value.byteLength);
    // Across the boundary between parts 1 and 2.
    const across = await store.getRange("c/0", { offset: 5 * MiB - 10, length: 20 });
    expect(equalBytes(across, value.subarray(5 * MiB - 10, 5 * MiB + 10))).toBe(true);
    expect(equalBytes(await store.getRange("c/0", { suffixLength: 100 }), value.subarray(-100))).toBe(true);
    expect(await openUploads(store.prefix)).toEqual([]);
  });

  it("keeps values at or below the threshold to one PUT", async () => {
    const { fetch, requests } = recordingFetch();
    const store = rgwStore({ fetch, multipartThreshold: 6 * MiB, partSize: 5 * MiB });
    await store.set("k", pattern(6 * MiB, 1));
    expect(requests.map((r) => r.method)).toEqual(["PUT"]);
    expect([...requests[0]!.url.searchParams.keys()]).toEqual([]);
  });

  it("sends conditional writes as one PUT whatever their size, and they still detect conflicts", async () => {
    const { fetch, requests } = recordingFetch();
    const store = rgwStore({ fetch, multipartThreshold: 5 * MiB, partSize: 5 * MiB });
    const first = pattern(11 * MiB, 2);
    await store.set("shard", first);
    const { version } = (await store.getVersioned("shard"))!;
    requests.length = 0;
    await store.set("shard", pattern(11 * MiB, 3), { ifMatch: version });
    expect(count(requests, "POST"), "no multipart upload").toBe(0);
    await expect(store.set("shard", pattern(11 * MiB, 4), { ifMatch: version })).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
    });
    expect(equalBytes(await store.get("shard"), pattern(11 * MiB, 3))).toBe(true);
  });

  it("aborts the upload when a part fails, leaving the old value and no parts behind", async () => {
    // The second part upload fails with a 400 that is not retried.
    const { fetch, requests } = recordingFetch((request) => {
      const url = new URL(request.url);
      if (request.method === "PUT" && url.searchParams.get("partNumber") === "2") {
        return new Response("<Error><Code>InvalidPart</Code><Message>injected</Message></Error>", { status: 400 });
      }
      return undefined;
    });
    const store = rgwStore({ fetch, multipartThreshold: 5 * MiB, partSize: 5 * MiB, partConcurrency: 1 });
    const old = pattern(1000, 9);
    await store.set("c/1", old);
    const error = await store.set("c/1", pattern(11 * MiB, 5)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).key).toBe("c/1");
    expect((error as Error).message).toMatch(/400 InvalidPart/);
    expect(count(requests, "PUT", "partNumber"), "no part started after the failure").toBe(2);
    expect(count(requests, "DELETE", "uploadId"), "AbortMultipartUpload").toBe(1);
    expect(equalBytes(await store.get("c/1"), old)).toBe(true);
    expect(await openUploads(store.prefix)).toEqual([]);
  });

  it("can see an open upload (so the checks above are not vacuous)", async () => {
    const store = rgwStore();
    const created = await adminClient().fetch(`${rgw!.endpoint}/${rgw!.bucket}/${store.prefix}open?uploads`, {
      method: "POST",
    });
    expect(created.ok).toBe(true);
    expect(await openUploads(store.prefix)).toHaveLength(1);
  });

  it("rejects a part size below S3's 5 MiB minimum", () => {
    expect(() => rgwStore({ partSize: MiB })).toThrow(/partSize must be at least/);
  });
});
