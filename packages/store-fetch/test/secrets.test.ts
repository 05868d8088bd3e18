import { inspect } from "node:util";
import { InvalidOptionError, StoreError, redactError, redactText, redactUnparsedUrl } from "@zarrkit/registry";
import { afterEach, describe, expect, it } from "vitest";
import { FetchStore } from "../src/index.js";
import { startServer, type TestServer } from "./http-server.js";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/**
 * Everything an error can show: util.inspect to depth 8, String(), and JSON of every field of every error in its cause
 * chain.
 */
export function everythingSaid(error: unknown): string {
  const parts = [inspect(error, { depth: 8 }), String(error)];
  for (
    let e: unknown = error, depth = 0;
    e !== undefined && depth < 10;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    if (typeof e !== "object" || e === null) {
      parts.push(String(e));
      continue;
    }
    parts.push(JSON.stringify(e));
    const fields = Object.fromEntries(
      Object.getOwnPropertyNames(e).map((name) => [name, (e as Record<string, unknown>)[name]]),
    );
    parts.push(
      JSON.stringify(fields, (_key, value) =>
        value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value,
      ),
    );
  }
  return parts.join("\n");
}

function thrown(make: () => unknown): unknown {
  try {
    make();
  } catch (error) {
    return error;
  }
  return expect.unreachable("should have thrown");
}

describe("secrets never reach an error", () => {
  it("a base URL that does not parse: no password in the message or anywhere in the cause chain", () => {
    for (const url of [
      "http://alice:hunter2-pw@exa mple.com/data",
      "https://alice:hunter2-pw/with/slash@example.com:99999/x",
    ]) {
      const error = thrown(() => new FetchStore(url));
      expect(error).toBeInstanceOf(StoreError);
      expect((error as Error).message).toMatch(/FetchStore needs an absolute URL/);
      const said = everythingSaid(error);
      expect(said).not.toContain("hunter2");
      expect(said).not.toContain("alice");
    }
  });

  it("credentials that are not valid percent-encoding are a StoreError without them", () => {
    const error = thrown(() => new FetchStore("http://alice:%E0hunter2@example.com/"));
    expect(error).toBeInstanceOf(StoreError);
    expect(everythingSaid(error)).not.toContain("hunter2");
  });

  it("a header option that is not valid HTTP is an InvalidOptionError that does not repeat it", () => {
    const error = thrown(
      () => new FetchStore("http://example.com/", { headers: { Authorization: "Bearer tok\nen-s3cr3t" } }),
    );
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(everythingSaid(error)).not.toContain("s3cr3t");
  });

  it(
    "a network error whose cause carries the URL, its signature and the Authorization header is redacted through " +
      "the chain",
    async () => {
      const base =
        "http://bob:pa55word-x@127.0.0.1:9/store/?X-Amz-Signature=abcdef0123456789&X-Amz-Credential=AKIDEXAMPLE%2F20240101&v=1";
      const leaky: typeof fetch = async (input, init) => {
        const auth = new Headers(init?.headers).get("authorization");
        const inner = Object.assign(new Error(`connect failed, request had Authorization: ${auth}`), {
          headers: { authorization: auth },
        });
        throw Object.assign(new TypeError(`Failed to fetch ${String(input)}`, { cause: inner }), {
          input: String(input),
          attempts: [String(input)],
        });
      };
      const store = new FetchStore(base, {
        fetch: leaky,
        retry: { retries: 0 },
        headers: { "X-Api-Key": "key-0123456789-secret" },
      });
      const error = await store.get("k").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      expect((error as Error).cause).toBeInstanceOf(TypeError);
      const said = everythingSaid(error);
      for (const secret of [
        "pa55word-x",
        "abcdef0123456789",
        "AKIDEXAMPLE",
        Buffer.from("bob:pa55word-x").toString("base64"),
        "key-0123456789-secret",
      ]) {
        expect(said).not.toContain(secret);
      }
      // What is not secret stays, so the error is still useful.
      expect(said).toContain("v=1");
      expect(said).toContain("Failed to fetch http://");
    },
  );

  it("a status text echoing the Authorization header is redacted", async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(500, `Bad Gateway for Authorization: Bearer tok-9f8e7d6c5b4a`);
      res.end();
    });
    servers.push(server);
    const store = new FetchStore(server.url, {
      retry: { retries: 0 },
      headers: { Authorization: "Bearer tok-9f8e7d6c5b4a" },
    });
    const error = await store.get("k").catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^HTTP 500 Bad Gateway for Authorization: REDACTED for GET/);
    expect(everythingSaid(error)).not.toContain("tok-9f8e7d6c5b4a");
  });
});

describe("redactText", () => {
  it.each([
    ["userinfo of a URL", "see https://user:pw-secret@host.example/x", "pw-secret"],
    [
      "a presigned signature",
      "GET /b/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=deadbeef99 failed",
      "deadbeef99",
    ],
    ["a presigned credential", "?X-Amz-Credential=AKIAEXAMPLE%2F20240101%2Fus-east-1", "AKIAEXAMPLE"],
    ["a SAS signature", "https://acct.blob.core.windows.net/c/b?sv=2020&sig=AbC%2Bd%3D", "AbC%2Bd"],
    [
      "an Authorization header line",
      "Authorization: AWS4-HMAC-SHA256 Credential=AKIAX/2024/us-east-1/s3/aws4_request, Signature=0a1b2c",
      "AKIAX",
    ],
    ["a SigV4 signature alone", "SignedHeaders=host, Signature=0a1b2c3d4e", "0a1b2c3d4e"],
    ["a bearer token", "upstream said Bearer eyJhbGciOi.eyJzdWIi.sig-part", "eyJhbGciOi"],
    ["a session token header", "x-amz-security-token: FQoGZXIvYXdzEJr//////////", "FQoGZXIvYXdzEJr"],
    ["a SigV2 header", "Authorization was AWS AKIDV2:c2lnbmF0dXJl", "c2lnbmF0dXJl"],
  ])("removes %s", (_, text, secret) => {
    const redacted = redactText(text);
    expect(redacted).not.toContain(secret);
    expect(redacted).toContain("REDACTED");
  });

  it("removes the secrets it is given, longest first, and leaves other text alone", () => {
    expect(redactText("The key abc/def+ghi was rejected (abc)", ["abc", "abc/def+ghi"])).toBe(
      "The key REDACTED was rejected (abc)",
    );
    expect(redactText('HTTP 404 for GET http://127.0.0.1:9/store/k?v=1 (key "k")')).toBe(
      'HTTP 404 for GET http://127.0.0.1:9/store/k?v=1 (key "k")',
    );
  });

  it("takes everything up to the last @ of a URL that does not parse for credentials", () => {
    expect(redactUnparsedUrl("http://AKID:se/cr+et@host:99999")).toBe("http://REDACTED@host:99999");
  });

  it("copies errors with their class, redacting fields, causes and AggregateError members", () => {
    const inner = new RangeError("token=t0p-secret");
    const error = new AggregateError([new Error("Bearer abc.def")], "outer https://u:p4ss@h/", { cause: inner });
    const copy = redactError(error) as AggregateError;
    expect(copy).toBeInstanceOf(AggregateError);
    expect(copy.cause).toBeInstanceOf(RangeError);
    const said = everythingSaid(copy) + inspect(copy.errors);
    for (const secret of ["t0p-secret", "abc.def", "p4ss"]) expect(said).not.toContain(secret);
  });
});
