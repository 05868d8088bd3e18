import { AuthError, StoreError } from "@zarrkit/registry";
import { describe, expect, it, vi } from "vitest";
import { S3ResponseError, S3Store } from "../src/index.js";
import { adminClient, freshPrefix, rgw, rgwStore } from "./rgw.js";

/** Every way an error could carry text out: message, stack, cause chain, enumerable fields. */
function everythingSaid(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error; e = e.cause)
    parts.push(e.message, e.stack ?? "", JSON.stringify(e), String(e));
  return parts.join("\n");
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("should have rejected"),
    (error: unknown) => error,
  );
}

describe.skipIf(!rgw)("credentials on radosgw", () => {
  const wrongSecret = "WRONG-secret-0123456789abcdefghijklmnopq";

  it("a wrong secret gives an AuthError that names the key, never the secret, for every request", async () => {
    const store = rgwStore({ credentials: { accessKeyId: rgw!.accessKey, secretAccessKey: wrongSecret } });
    // Functions, so each request starts only when its rejection is awaited.
    const attempts: [string, () => Promise<unknown>][] = [
      ["get", () => store.get("a/zarr.json")],
      ["getRange", () => store.getRange("a/zarr.json", { suffixLength: 8 })],
      ["getVersioned", () => store.getVersioned("a/zarr.json")],
      ["size", () => store.size("a/zarr.json")],
      ["set", () => store.set("a/zarr.json", new Uint8Array([1]))],
      ["delete", () => store.delete("a/zarr.json")],
      ["listDir", () => store.listDir("a/")],
      [
        "list",
        async () => {
          for await (const _ of store.list("")) break;
        },
      ],
    ];
    for (const [method, attempt] of attempts) {
      const error = await rejection(attempt());
      expect(error, method).toBeInstanceOf(AuthError);
      expect((error as AuthError).code).toBe("AUTH_FAILED");
      if (method !== "list" && method !== "listDir") expect((error as AuthError).key, method).toBe("a/zarr.json");
      const said = everythingSaid(error);
      expect(said, method).not.toContain(wrongSecret);
      expect(said, method).not.toContain(rgw!.secretKey);
    }
    const error = (await rejection(store.get("k"))) as AuthError;
    expect(error.message).toMatch(/403 SignatureDoesNotMatch/);
    expect(error.cause).toBeInstanceOf(S3ResponseError);
    expect((error.cause as S3ResponseError).status).toBe(403);
  });

  it("an unknown access key gives an AuthError", async () => {
    const store = rgwStore({ credentials: { accessKeyId: "NO-SUCH-KEY", secretAccessKey: wrongSecret } });
    const error = await rejection(store.get("k"));
    expect(error).toBeInstanceOf(AuthError);
    expect((error as Error).message).toMatch(/InvalidAccessKeyId/);
    expect(everythingSaid(error)).not.toContain(wrongSecret);
  });

  it("reads credentials and region from AWS_* environment variables", async () => {
    const writer = rgwStore();
    await writer.set("k", new Uint8Array([42]));
    vi.stubEnv("AWS_ACCESS_KEY_ID", rgw!.accessKey);
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", rgw!.secretKey);
    vi.stubEnv("AWS_REGION", "eu-west-3");
    try {
      const store = new S3Store({ bucket: rgw!.bucket, prefix: writer.prefix, endpoint: rgw!.endpoint });
      expect(await store.get("k")).toEqual(new Uint8Array([42]));
      vi.stubEnv("AWS_SECRET_ACCESS_KEY", wrongSecret);
      const fromWrongEnv = new S3Store({ bucket: rgw!.bucket, prefix: writer.prefix, endpoint: rgw!.endpoint });
      await expect(fromWrongEnv.get("k")).rejects.toBeInstanceOf(AuthError);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("sends unsigned requests when anonymous: public objects read, private ones give an AuthError", async () => {
    const prefix = freshPrefix("public");
    const put = await adminClient().fetch(`${rgw!.endpoint}/${rgw!.bucket}/${prefix}/open`, {
      method: "PUT",
      body: new Uint8Array([1, 2, 3]),
      headers: { "x-amz-acl": "public-read" },
    });
    expect(put.ok).toBe(true);
    const owner = rgwStore({ prefix });
    await owner.set("closed", new Uint8Array([4]));

    vi.stubEnv("AWS_ACCESS_KEY_ID", rgw!.accessKey);
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", rgw!.secretKey);
    try {
      const store = new S3Store({ bucket: rgw!.bucket, prefix, endpoint: rgw!.endpoint, anonymous: true });
      expect(await store.get("open")).toEqual(new Uint8Array([1, 2, 3]));
      expect(await store.getRange("open", { offset: 1, length: 1 })).toEqual(new Uint8Array([2]));
      const error = await rejection(store.get("closed"));
      expect(error).toBeInstanceOf(AuthError);
      expect((error as Error).message).toMatch(/403 AccessDenied/);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("a missing bucket is a StoreError with the status and S3 code, not a missing key", async () => {
    const store = new S3Store({
      bucket: "no-such-bucket-here",
      endpoint: rgw!.endpoint,
      credentials: { accessKeyId: rgw!.accessKey, secretAccessKey: rgw!.secretKey },
    });
    const attempts = [
      () => store.get("k"),
      () => store.getRange("k", { offset: 0, length: 4 }),
      () => store.delete("k"),
      () => store.listDir(""),
    ];
    for (const attempt of attempts) {
      const error = await rejection(attempt());
      expect(error).toBeInstanceOf(StoreError);
      expect((error as Error).message).toMatch(/404 NoSuchBucket/);
      expect(((error as Error).cause as S3ResponseError).s3Code).toBe("NoSuchBucket");
    }
  });
});
