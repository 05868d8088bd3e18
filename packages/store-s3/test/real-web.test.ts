// S3 servers misbehaving exactly as issue 22 found them: listings that leave
// the prefix, loop or do not parse; a 206 for a whole object; trickling and
// endless bodies; Retry-After; a redirect to another origin.
import type { IncomingMessage, ServerResponse } from "node:http";
import { StoreError } from "@zarrkit/registry";
import { afterEach, describe, expect, it } from "vitest";
import { S3Store, StoreTimeoutError } from "../src/index.js";
import { endless, type HostileServer, hostileServer } from "./hostile-server.js";

const servers: HostileServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<HostileServer> {
  const server = await hostileServer(handler);
  servers.push(server);
  return server;
}

const credentials = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
const storeAt = (endpoint: string, options: Partial<ConstructorParameters<typeof S3Store>[0]> = {}) =>
  new S3Store({ bucket: "bkt", prefix: "p", endpoint, credentials, retries: 0, ...options });
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const key of iterable) out.push(key);
  return out;
}

/** A listing page: `<Contents>` for each key (raw XML allowed), and a continuation token when truncated. */
function page(contents: string[], token?: string, extra = ""): string {
  const entries = contents.map((key) => `<Contents><Key>${key}</Key><Size>1</Size></Contents>`).join("");
  const truncated =
    token === undefined
      ? "<IsTruncated>false</IsTruncated>"
      : `<IsTruncated>true</IsTruncated><NextContinuationToken>${token}</NextContinuationToken>`;
  return `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>bkt</Name><Prefix>p/</Prefix>${truncated}${entries}${extra}</ListBucketResult>`;
}

const xml = (res: ServerResponse, body: string) => {
  res.writeHead(200, { "Content-Type": "application/xml" });
  res.end(body);
};

describe("listings are checked, not trusted", () => {
  it(
    "refuses a key outside the store's prefix, naming it, where it listed 'other/zarr.json' as " + "'her/zarr.json'",
    async () => {
      const server = await serve((_req, res) => xml(res, page(["p/zarr.json", "other/zarr.json"])));
      const store = storeAt(server.endpoint);
      for (const list of [() => collect(store.list("")), () => store.listDir("")]) {
        const error = await rejection(list());
        expect(error).toBeInstanceOf(StoreError);
        expect(error).toMatchObject({
          key: "other/zarr.json",
          message: expect.stringMatching(/listed the key "other\/zarr.json", which is outside the prefix "p\/"/),
        });
      }
    },
  );

  it("refuses a common prefix that is not a level below the prefix", async () => {
    const server = await serve((_req, res) =>
      xml(res, page([], undefined, "<CommonPrefixes><Prefix>q/</Prefix></CommonPrefixes>")),
    );
    await expect(storeAt(server.endpoint).listDir("")).rejects.toThrow(
      /common prefix "q\/", which is not a level below "p\/"/,
    );
  });

  it(
    "stops a listing whose server repeats its continuation token, at the second page, where it " + "looped forever",
    async () => {
      const server = await serve((_req, res) => xml(res, page(["p/a"], "same-token")));
      const error = await rejection(collect(storeAt(server.endpoint).list("")));
      expect(error).toBeInstanceOf(StoreError);
      expect((error as Error).message).toMatch(
        /page 2 repeats the continuation token of an earlier page \(the listing would never end\)/,
      );
      expect(server.requests).toHaveLength(2);
    },
  );

  it("stops a listing past maxListPages, and one truncated without a token", async () => {
    let n = 0;
    const server = await serve((_req, res) => xml(res, page([`p/k${n}`], `token-${n++}`)));
    const error = await rejection(storeAt(server.endpoint, { maxListPages: 5 }).listDir(""));
    expect((error as Error).message).toMatch(/more than 5 pages \(the store's maxListPages\)/);
    expect(server.requests).toHaveLength(5);
    const noToken = await serve((_req, res) =>
      xml(res, page(["p/a"]).replace("<IsTruncated>false", "<IsTruncated>true")),
    );
    await expect(storeAt(noToken.endpoint).listDir("")).rejects.toThrow(
      /page 1 is truncated but gives no continuation token/,
    );
  });

  it("turns malformed entries into StoreErrors, not TypeError or RangeError", async () => {
    const bodies = [
      [page(["p/a"]).replace("<Key>p/a</Key>", ""), /<Contents> number 1 of page 1 has no <Key>/],
      [page(["p/a&#x110000;"]), /Malformed XML .* &#x110000; is not an XML character/],
      [page(["p/a&bogus;"]), /the entity &bogus; is not one of XML's five/],
      [`<ListBucketResult>${"<Contents><Key>p/k".repeat(40_000)}`, /Malformed XML .* nested more than 64 deep/],
      ["<Error><Code>Nope</Code></Error>", /the answer is a <Error> document, not <ListBucketResult>/],
      ["not xml at all", /Malformed XML/],
    ] as const;
    for (const [body, message] of bodies) {
      const server = await serve((_req, res) => xml(res, body));
      const started = performance.now();
      const error = await rejection(storeAt(server.endpoint).listDir(""));
      expect(error, String(message)).toBeInstanceOf(StoreError);
      expect((error as Error).message).toMatch(message);
      expect(performance.now() - started).toBeLessThan(10_000);
    }
  });

  it("still lists keys that need escaping, and pages with fresh tokens", async () => {
    const server = await serve((req, res) => {
      const token = new URL(req.url!, "http://x").searchParams.get("continuation-token");
      if (token === null) return xml(res, page(["p/a &amp; b", "p/&#x1F600;"], "t1"));
      xml(res, page(["p/c"]));
    });
    expect(await collect(storeAt(server.endpoint).list(""))).toEqual(["a & b", "😀", "c"]);
  });
});

describe("whole objects are complete or an error", () => {
  it("refuses a 206 with half the object for get and getVersioned", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(206, { ETag: '"e"', "Content-Range": "bytes 0-499/1000", "Content-Length": "500" });
      res.end(new Uint8Array(500));
    });
    const store = storeAt(server.endpoint);
    for (const read of [() => store.get("k"), () => store.getVersioned("k")]) {
      const error = await rejection(read());
      expect(error).toBeInstanceOf(StoreError);
      expect(error).toMatchObject({
        key: "k",
        message: expect.stringMatching(
          /S3 GET s3:\/\/bkt\/p\/k answered with a partial answer \(206, Content-Range "bytes 0-499\/1000", 500 bytes\)/,
        ),
      });
    }
  });
});

describe("bodies and waits", () => {
  it(
    "reads a 16-byte window answered with an endless 200 up to the window and a margin, not to the " + "2 GiB cap",
    async () => {
      const { handler, written } = endless(200, { ETag: '"e"' }, new Uint8Array(64 * 1024).fill(5));
      const server = await serve(handler);
      expect(await storeAt(server.endpoint).getRange("k", { offset: 0, length: 16 })).toEqual(
        new Uint8Array(16).fill(5),
      );
      expect(await written).toBeLessThan(32 * 2 ** 20);
    },
  );

  it("ends a body trickling a byte every 2 s with a StoreTimeoutError", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "Content-Length": "1000" });
      const timer = setInterval(() => res.write(new Uint8Array(1)), 2000);
      res.on("close", () => clearInterval(timer));
    });
    const error = await rejection(storeAt(server.endpoint, { retries: 3 }).get("k"));
    expect(error).toBeInstanceOf(StoreTimeoutError);
    expect((error as Error).message).toMatch(
      /^S3 GET s3:\/\/bkt\/p\/k failed: a body slower than minBytesPerSecond \(1024 bytes\/s\); gave up after 1 attempt\(s\)\.$/,
    );
  }, 30_000);

  it("waits as long as a 503 asks with Retry-After", async () => {
    const times: number[] = [];
    const server = await serve((_req, res) => {
      times.push(performance.now());
      if (times.length === 1) {
        res.writeHead(503, { "Retry-After": "1" });
        return void res.end("<Error><Code>SlowDown</Code></Error>");
      }
      res.writeHead(200, { ETag: '"e"', "Content-Length": "2" });
      res.end(new Uint8Array(2));
    });
    expect(await storeAt(server.endpoint, { retries: 2 }).get("k")).toEqual(new Uint8Array(2));
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(990);
  });

  it("sends no signature or session token to another origin it is redirected to", async () => {
    const target = await serve((_req, res) => {
      res.writeHead(200, { ETag: '"e"', "Content-Length": "1" });
      res.end(new Uint8Array(1));
    });
    const origin = await serve((req, res) => {
      res.writeHead(307, { Location: `${target.endpoint}${req.url}` });
      res.end();
    });
    await storeAt(origin.endpoint, { credentials: { ...credentials, sessionToken: "session-token-0123456789" } }).get(
      "k",
    );
    expect(origin.requests[0]!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256/);
    const forwarded = target.requests[0]!.headers;
    expect(Object.keys(forwarded).filter((name) => name === "authorization" || name.startsWith("x-amz-"))).toEqual([]);
  });
});
