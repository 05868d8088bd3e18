import { countRequests } from "@zarrkit/core";
import { storedValue } from "@zarrkit/core/internal";
import { InvalidOptionError, openStore, PreconditionFailedError, StoreError } from "@zarrkit/registry";
import { afterEach, describe, expect, it } from "vitest";
import { FetchStore } from "../src/index.js";
import { fileServer, send, startServer, type TestServer } from "./http-server.js";

const text = (s: string) => new TextEncoder().encode(s);
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

describe("requests", () => {
  it("sends the configured headers with every request", async () => {
    const server = await serve((_req, res) => send(res, 200, text("x")));
    const store = new FetchStore(server.url, { headers: { Authorization: "Bearer abc", "X-Client": "zarrkit" } });
    await store.get("a");
    await store.getRange("b", { suffixLength: 1 });
    for (const request of server.requests)
      expect(request.headers).toMatchObject({ authorization: "Bearer abc", "x-client": "zarrkit" });
  });

  it("passes init options and uses the fetch it is given", async () => {
    const seen: RequestInit[] = [];
    const server = await serve((_req, res) => send(res, 200, text("x")));
    const recording: typeof fetch = (input, init) => {
      seen.push(init!);
      return fetch(input, init);
    };
    await new FetchStore(server.url, { fetch: recording, init: { cache: "no-store", credentials: "include" } }).get(
      "k",
    );
    expect(seen[0]).toMatchObject({ method: "GET", cache: "no-store", credentials: "include" });
  });

  it("percent-encodes each key segment below the base path", async () => {
    const server = await serve((_req, res) => send(res, 404));
    const store = new FetchStore(`${server.origin}/data/a.zarr`); // no trailing slash: still a directory
    await store.get("g/a b/ü%/x?y#z");
    expect(server.requests[0]?.url).toBe("/data/a.zarr/g/a%20b/%C3%BC%25/x%3Fy%23z");
  });

  it("keeps the query of the base URL on every key", async () => {
    const server = await serve((_req, res) => send(res, 404));
    await new FetchStore(`${server.url}?token=abc&v=1`).get("c/0");
    expect(server.requests[0]?.url).toBe("/store/c/0?token=abc&v=1");
  });

  it("sends credentials in the URL as Basic authorization, not in the URL", async () => {
    const server = await serve((_req, res) => send(res, 200, text("x")));
    const store = new FetchStore(server.url.replace("http://", "http://user%40example:p%C3%A4ss@"));
    await store.get("k");
    expect(server.requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from("user@example:päss").toString("base64")}`,
    );
    expect(store.url).toBe(server.url);
  });

  it("never puts credentials or secret query values in error messages", async () => {
    const server = await serve((_req, res) => send(res, 500));
    const url = `${server.url.replace("http://", "http://alice:hunter2@")}?X-Amz-Signature=s1gn&X-Amz-Credential=AKIA1&token=t0k&sig=s2&v=7`;
    const error = await new FetchStore(url, { retry: { retries: 0 } }).get("k").catch((e: unknown) => e);
    const message = (error as StoreError).message;
    expect(message).toMatch(/^HTTP 500 .* for GET http:\/\/127\.0\.0\.1:\d+\/store\/k\?/);
    expect(message).toContain("v=7");
    for (const secret of ["alice", "hunter2", "s1gn", "AKIA1", "t0k", "s2"]) expect(message).not.toContain(secret);
  });

  it("rejects ranges with negative or fractional numbers before sending anything", async () => {
    const server = await serve((_req, res) => send(res, 200));
    const store = new FetchStore(server.url);
    await expect(store.getRange("k", { offset: -1, length: 2 })).rejects.toBeInstanceOf(StoreError);
    await expect(store.getRange("k", { offset: 0, length: 1.5 })).rejects.toBeInstanceOf(StoreError);
    await expect(store.getRange("k", { suffixLength: -3 })).rejects.toBeInstanceOf(StoreError);
    expect(server.requests).toHaveLength(0);
  });

  it("rejects keys that are not strings or hold a lone surrogate with a StoreError, sending nothing", async () => {
    const server = await serve((_req, res) => send(res, 200));
    const store = new FetchStore(server.url);
    for (const key of ["a\uD800b", "\uDC00", 5, undefined]) {
      await expect(store.get(key as string), String(key)).rejects.toBeInstanceOf(StoreError);
      await expect(store.getRange(key as string, { offset: 0, length: 1 })).rejects.toBeInstanceOf(StoreError);
    }
    expect(await store.get("emoji-\u{1F600}")).toEqual(new Uint8Array(0));
    expect(server.requests.map((r) => r.url)).toEqual(["/store/emoji-%F0%9F%98%80"]);
  });

  it("rejects a base that is not an absolute URL", () => {
    expect(() => new FetchStore("data/a.zarr")).toThrow(StoreError);
  });
});

describe("versions and writes", () => {
  it("is read-only unless writable is set", () => {
    const store = new FetchStore("http://127.0.0.1:9/store/");
    expect(store.set).toBe(undefined);
    expect(store.delete).toBe(undefined);
    expect(typeof new FetchStore("http://127.0.0.1:9/store/", { writable: true }).set).toBe("function");
  });

  it("uses the ETag as the version and sends it back as If-Match", async () => {
    const files = fileServer({ writable: true });
    const server = await serve(files.handler);
    const store = new FetchStore(server.url, { writable: true });
    await store.set!("k", text("v1"), { ifNoneMatch: "*" });
    const { version } = (await store.getVersioned("k"))!;
    await store.set!("k", text("v2"), { ifMatch: version });
    await expect(store.set!("k", text("v3"), { ifMatch: version })).rejects.toBeInstanceOf(PreconditionFailedError);
    const puts = server.requests.filter((r) => r.method === "PUT");
    expect(puts.map((r) => [r.headers["if-none-match"], r.headers["if-match"], r.headers["content-type"]])).toEqual([
      ["*", undefined, "application/octet-stream"],
      [undefined, version, "application/octet-stream"],
      [undefined, version, "application/octet-stream"],
    ]);
  });

  it("reports a server without ETags instead of inventing versions", async () => {
    const files = fileServer({ etags: false });
    files.put("k", text("x"));
    const server = await serve(files.handler);
    await expect(new FetchStore(server.url).getVersioned("k")).rejects.toThrow(
      /sent no ETag and no Last-Modified for "k"/,
    );
  });

  it("treats a 404 on DELETE as done, and a failed PUT as an error", async () => {
    const server = await serve((req, res) => send(res, req.method === "DELETE" ? 404 : 507));
    const store = new FetchStore(server.url, { writable: true, retry: { retries: 0 } });
    await expect(store.delete!("k")).resolves.toBe(undefined);
    await expect(store.set!("k", text("x"))).rejects.toThrow(/HTTP 507 .* for PUT/);
  });
});

describe("the coalesceGapBytes hint", () => {
  it("is 4 MiB by default and reaches readers through stored values and request logs", () => {
    const store = new FetchStore("http://127.0.0.1:9/store/");
    expect(store.coalesceGapBytes).toBe(4 * 2 ** 20);
    expect(storedValue(countRequests(store), "c/0/0").coalesceGapBytes).toBe(4 * 2 ** 20);
  });

  it("is the coalesceGapBytes option when given, also through openStore", async () => {
    expect(new FetchStore("http://127.0.0.1:9/store/", { coalesceGapBytes: 0 }).coalesceGapBytes).toBe(0);
    expect((await openStore("https://example.com/a.zarr", { coalesceGapBytes: 2 ** 16 })).coalesceGapBytes).toBe(
      2 ** 16,
    );
  });

  it("rejects an option that is not a non-negative integer, naming it", () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "4MiB"]) {
      const make = () => new FetchStore("http://127.0.0.1:9/store/", { coalesceGapBytes: bad as number });
      expect(make).toThrow(InvalidOptionError);
      expect(make).toThrow(/FetchStore option coalesceGapBytes must be a non-negative integer, got /);
    }
  });
});

describe("registration", () => {
  it("opens http:// and https:// URLs, passing the options on", async () => {
    const server = await serve((_req, res) => send(res, 200, text("x")));
    const store = await openStore(server.url, { headers: { "X-Opened": "yes" } });
    expect(store).toBeInstanceOf(FetchStore);
    await store.get("k");
    expect(server.requests[0]?.headers["x-opened"]).toBe("yes");
    expect(await openStore("https://example.com/a.zarr")).toBeInstanceOf(FetchStore);
  });
});

describe("odd servers", () => {
  it("reports a 416 to a request without Range as an error, not as an empty value", async () => {
    const server = await serve((_req, res) => send(res, 416));
    await expect(new FetchStore(server.url).get("k")).rejects.toThrow(/HTTP 416/);
  });
});
