import { InvalidOptionError, openStore, StoreError } from "@zarrkit/registry";
import { describe, expect, it } from "vitest";
import { S3Store } from "../src/index.js";
import { recordingFetch } from "./recording-fetch.js";
import { rgw, rgwStore } from "./rgw.js";

const sequence = (length: number) => Uint8Array.from({ length }, (_, i) => i & 0xff);

describe("requests", () => {
  // No server: the fetch answers 404 and the test looks at where requests went.
  const offline = (options: Partial<ConstructorParameters<typeof S3Store>[0]>) => {
    const { fetch, requests } = recordingFetch(
      () => new Response("<Error><Code>NoSuchKey</Code></Error>", { status: 404 }),
    );
    const store = new S3Store({
      bucket: "bkt",
      credentials: { accessKeyId: "AK", secretAccessKey: "SK" },
      fetch,
      ...options,
    });
    return { store, requests };
  };

  it("addresses AWS virtual-hosted by default and custom endpoints path-style", async () => {
    const aws = offline({ region: "eu-central-1", prefix: "data/a.zarr" });
    await aws.store.get("c/0");
    expect(aws.requests[0]?.url.href).toBe("https://bkt.s3.eu-central-1.amazonaws.com/data/a.zarr/c/0");
    expect(aws.requests[0]?.headers.get("authorization")).toMatch(
      /Credential=AK\/\d{8}\/eu-central-1\/s3\/aws4_request/,
    );

    const custom = offline({ endpoint: "http://127.0.0.1:9/base/" });
    await custom.store.get("c/0");
    expect(custom.requests[0]?.url.href).toBe("http://127.0.0.1:9/base/bkt/c/0");

    const virtual = offline({ endpoint: "http://127.0.0.1.nip.invalid:9", pathStyle: false });
    await virtual.store.get("c/0");
    expect(virtual.requests[0]?.url.href).toBe("http://bkt.127.0.0.1.nip.invalid:9/c/0");
  });

  it("percent-encodes keys segment by segment", async () => {
    const { store, requests } = offline({ endpoint: "http://127.0.0.1:9" });
    await store.get("s/a b+c%41/ü/(x)!*'");
    expect(requests[0]?.url.pathname).toBe("/bkt/s/a%20b%2Bc%2541/%C3%BC/%28x%29%21%2A%27");
  });

  it("offers a coalesceGapBytes hint: 4 MiB by default, the option when given, validated", async () => {
    expect(new S3Store({ bucket: "bkt" }).coalesceGapBytes).toBe(4 * 2 ** 20);
    expect(new S3Store({ bucket: "bkt", coalesceGapBytes: 0 }).coalesceGapBytes).toBe(0);
    const url = "s3://bkt/data?endpoint=http://127.0.0.1:9";
    expect((await openStore(url, { coalesceGapBytes: 2 ** 16 })).coalesceGapBytes).toBe(2 ** 16);
    for (const bad of [-1, 0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new S3Store({ bucket: "bkt", coalesceGapBytes: bad })).toThrow(InvalidOptionError);
      expect(() => new S3Store({ bucket: "bkt", coalesceGapBytes: bad })).toThrow(
        /S3 option coalesceGapBytes must be a non-negative integer, got /,
      );
    }
  });

  it(
    "rejects keys and prefixes that are not strings or hold a lone surrogate with a StoreError, " + "sending nothing",
    async () => {
      const { store, requests } = offline({ endpoint: "http://127.0.0.1:9" });
      for (const key of ["a\uD800b", "\uDC00", 5, undefined]) {
        await expect(store.get(key as string), String(key)).rejects.toBeInstanceOf(StoreError);
        await expect(store.getRange(key as string, { offset: 0, length: 1 })).rejects.toBeInstanceOf(StoreError);
        await expect(store.set(key as string, new Uint8Array(1))).rejects.toBeInstanceOf(StoreError);
        await expect(store.listDir(key as string)).rejects.toBeInstanceOf(StoreError);
      }
      expect(requests).toHaveLength(0);
      await expect(store.getRange("k", null as never)).rejects.toBeInstanceOf(StoreError);
    },
  );

  it("rejects prefixes that would climb out of the bucket", () => {
    expect(() => new S3Store({ bucket: "bkt", prefix: "a/../../other" })).toThrow(StoreError);
  });

  it("retries 5xx answers and network errors, then reports them with the key", async () => {
    let failures = 2;
    const flaky = recordingFetch(() =>
      failures-- > 0 ? new Response("", { status: 503 }) : new Response(sequence(4)),
    );
    const store = new S3Store({ bucket: "bkt", endpoint: "http://127.0.0.1:9", anonymous: true, fetch: flaky.fetch });
    expect(await store.get("k")).toEqual(sequence(4));
    expect(flaky.requests).toHaveLength(3);

    const down: typeof fetch = async () => {
      throw new TypeError("fetch failed");
    };
    const unreachable = new S3Store({
      bucket: "bkt",
      endpoint: "http://127.0.0.1:9",
      anonymous: true,
      fetch: down,
      retries: 1,
    });
    const error = await unreachable.get("a/k").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({
      key: "a/k",
      message: expect.stringMatching(/GET s3:\/\/bkt\/a\/k failed: fetch failed/),
    });

    const busy = recordingFetch(() => new Response("<Error><Code>SlowDown</Code></Error>", { status: 503 }));
    const overloaded = new S3Store({
      bucket: "bkt",
      endpoint: "http://127.0.0.1:9",
      anonymous: true,
      fetch: busy.fetch,
      retries: 2,
    });
    await expect(overloaded.get("k")).rejects.toThrow(/503 SlowDown/);
    expect(busy.requests).toHaveLength(3);
  });

  it("honours an AbortSignal", async () => {
    const { store } = offline({});
    const controller = new AbortController();
    controller.abort();
    await expect(store.get("k", { signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" });
  });

  it("rejects a 206 whose Content-Range is not the range asked for", async () => {
    const { fetch } = recordingFetch(
      () => new Response(sequence(4), { status: 206, headers: { "Content-Range": "bytes 0-3/100" } }),
    );
    const store = new S3Store({ bucket: "bkt", endpoint: "http://127.0.0.1:9", anonymous: true, fetch });
    await expect(store.getRange("k", { offset: 10, length: 4 })).rejects.toThrow(/Content-Range "bytes 0-3\/100"/);
    await expect(store.getRange("k", { suffixLength: 4 })).rejects.toThrow(StoreError);
    // Shorter than asked without reaching the end of the value: bytes would silently be missing.
    await expect(store.getRange("k", { offset: 0, length: 8 })).rejects.toThrow(
      /Content-Range "bytes 0-3\/100" and 4 bytes, which does not match/,
    );
  });
});

describe.skipIf(!rgw)("requests to radosgw", () => {
  it("reads ranges from a server that ignores Range by slicing the whole value", async () => {
    // Range is not signed, so it can be dropped on the way without breaking the signature.
    const { fetch, requests } = recordingFetch((request) => {
      if (!request.headers.has("range")) return undefined;
      const headers = new Headers(request.headers);
      headers.delete("range");
      return globalThis.fetch(new Request(request, { headers }));
    });
    const store = rgwStore({ fetch });
    await store.set("k", sequence(100));
    expect(await store.getRange("k", { offset: 10, length: 5 })).toEqual(sequence(100).slice(10, 15));
    expect(await store.getRange("k", { suffixLength: 3 })).toEqual(sequence(100).slice(97));
    expect(requests.filter((r) => r.headers.has("range"))).toHaveLength(2);
  });

  it("is what openStore returns for s3:// URLs, with credentials in the options", async () => {
    const writer = rgwStore();
    await writer.set("zarr.json", new TextEncoder().encode("{}"));
    const url = `s3://${rgw!.bucket}/${writer.prefix}?endpoint=${encodeURIComponent(rgw!.endpoint)}&region=us-east-1`;
    const store = await openStore(url, {
      credentials: { accessKeyId: rgw!.accessKey, secretAccessKey: rgw!.secretKey },
    });
    expect(store).toBeInstanceOf(S3Store);
    expect(await store.get("zarr.json")).toEqual(new TextEncoder().encode("{}"));
    await expect(openStore(`${url}&anonymous=yes`)).rejects.toThrow(/anonymous=yes/);
  });
});
