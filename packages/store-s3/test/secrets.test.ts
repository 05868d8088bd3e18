import { inspect } from "node:util";
import { AuthError, InvalidOptionError, StoreError } from "@zarrkit/registry";
import { describe, expect, it } from "vitest";
import { S3Store } from "../src/index.js";
import { recordingFetch } from "./recording-fetch.js";

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

// Shaped like AWS's documentation examples: secret keys hold "/" and "+".
const accessKeyId = "AKIAIOSFODNN7EXAMPLE";
const secretAccessKey = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const sessionToken = "FwoGZXIvYXdzEJr//////////wEaDNb+token/part==";
const credentials = { accessKeyId, secretAccessKey, sessionToken };

function expectNoSecret(error: unknown, extra: string[] = []): void {
  const said = everythingSaid(error);
  for (const secret of [
    secretAccessKey,
    "wJalrXUtnFEMI",
    "bPxRfiCYEXAMPLEKEY",
    sessionToken,
    "FwoGZXIvYXdzEJr",
    encodeURIComponent(sessionToken),
    ...extra,
  ]) {
    expect(said, `leaks ${secret}`).not.toContain(secret);
  }
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
  it("an endpoint that does not parse because the secret key in it holds a '/'", () => {
    for (const endpoint of [
      `http://${accessKeyId}:${secretAccessKey}@127.0.0.1:7480`,
      `ftp://${accessKeyId}:${encodeURIComponent(secretAccessKey)}@host`,
      `http://x:${secretAccessKey}`,
    ]) {
      const error = thrown(() => new S3Store({ bucket: "bkt", endpoint, credentials }));
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect((error as Error).message).toMatch(/^Invalid S3 endpoint /);
      expectNoSecret(error, [encodeURIComponent(secretAccessKey)]);
    }
  });

  it("credentials of the wrong shape are an InvalidOptionError that names no value", () => {
    const error = thrown(
      () =>
        new S3Store({
          bucket: "bkt",
          credentials: { accessKeyId, secretAccessKey: 42 as unknown as string, sessionToken },
        }),
    );
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect((error as Error).message).toMatch(/credentials needs accessKeyId and secretAccessKey/);
    expectNoSecret(error);
  });

  it("server text echoing the Authorization header, the secret key and the session token is redacted", async () => {
    let authorization = "";
    const { fetch } = recordingFetch((request) => {
      authorization = request.headers.get("authorization")!;
      const token = request.headers.get("x-amz-security-token")!;
      const xml =
        `<Error><Code>InvalidArgument ${secretAccessKey}</Code><Message>Proxy refused ` +
        `Authorization: ${authorization}; ` +
        `key ${secretAccessKey}, token ${token}, url ` +
        `/bkt/k?X-Amz-Credential=${accessKeyId}%2F20240101&amp;X-Amz-Signature=0badc0ffee</Message>` +
        `<RequestId>req-${sessionToken}</RequestId></Error>`;
      return new Response(xml, { status: 400 });
    });
    const store = new S3Store({ bucket: "bkt", endpoint: "http://127.0.0.1:9", credentials, fetch });
    for (const read of [
      () => store.get("k"),
      () => store.getRange("k", { suffixLength: 4 }),
      () => store.set("k", new Uint8Array(1)),
      () => store.listDir(""),
    ]) {
      const error = await read().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      expect((error as Error).message).toMatch(
        /failed: 400 InvalidArgument REDACTED: Proxy refused Authorization: REDACTED/,
      );
      const signature = /Signature=([0-9a-f]+)/.exec(authorization)![1]!;
      expectNoSecret(error, [signature, "0badc0ffee", authorization]);
    }
  });

  it("a network error whose cause carries the signed request is redacted through the chain", async () => {
    const leaky: typeof globalThis.fetch = async (input) => {
      const request = input as Request;
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        headers[name] = value;
      });
      const inner = Object.assign(new Error(`socket hang up, sent ${JSON.stringify(headers)}`), { headers });
      throw Object.assign(
        new TypeError(`fetch failed for ${request.url}?X-Amz-Security-Token=${encodeURIComponent(sessionToken)}`, {
          cause: inner,
        }),
        {
          input: request.url,
        },
      );
    };
    const store = new S3Store({ bucket: "bkt", endpoint: "http://127.0.0.1:9", credentials, fetch: leaky, retries: 0 });
    const error = await store.get("a/k").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(
      /^S3 GET s3:\/\/bkt\/a\/k failed: fetch failed for http:\/\/127\.0\.0\.1:9\/bkt\/a\/k\?X-Amz-Security-Token=REDACTED\.$/,
    );
    expectNoSecret(error);
    expect(everythingSaid(error)).not.toMatch(/Signature=[0-9a-f]{8}/);
  });

  it("an AuthError from the server says nothing secret either", async () => {
    const { fetch } = recordingFetch(
      (request) =>
        new Response(
          `<Error><Code>SignatureDoesNotMatch</Code><Message>Expected ${request.headers.get("authorization")}</Message></Error>`,
          { status: 403 },
        ),
    );
    const error = await new S3Store({ bucket: "bkt", endpoint: "http://127.0.0.1:9", credentials, fetch })
      .get("k")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expectNoSecret(error);
    expect(everythingSaid(error)).not.toMatch(/Signature=[0-9a-f]{8}/);
  });
});
