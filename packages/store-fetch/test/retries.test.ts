import { AuthError, StoreError } from "@zarrkit/registry";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FetchStore } from "../src/index.js";
import { backoffMs } from "@zarrkit/http";
import { fileServer, send, startServer, type TestServer } from "./http-server.js";

const quick = { retries: 3, baseDelayMs: 1, maxDelayMs: 2 };
const servers: TestServer[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

/** `status` (503) for the first `failures` requests, then a file server holding k = [1, 2, 3]. */
async function flakyServer(failures: number, status = 503): Promise<TestServer> {
  const files = fileServer();
  files.put("k", Uint8Array.of(1, 2, 3));
  let seen = 0;
  return serve((req, res, body) => (++seen <= failures ? send(res, status) : files.handler(req, res, body)));
}

describe("retries", () => {
  it("retries 5xx answers: 503 twice, then the value", async () => {
    const server = await flakyServer(2);
    expect(await new FetchStore(server.url, { retry: quick }).get("k")).toEqual(Uint8Array.of(1, 2, 3));
    expect(server.requests).toHaveLength(3);
  });

  it("retries ranged reads too", async () => {
    const server = await flakyServer(2);
    expect(await new FetchStore(server.url, { retry: quick }).getRange("k", { suffixLength: 1 })).toEqual(
      Uint8Array.of(3),
    );
    expect(server.requests.map((r) => r.headers.range)).toEqual(["bytes=-1", "bytes=-1", "bytes=-1"]);
  });

  it("gives up after the configured retries with a StoreError naming the status, URL and key", async () => {
    const server = await serve((_req, res) => send(res, 500));
    const error = await new FetchStore(server.url, { retry: { ...quick, retries: 2 } })
      .get("c/0")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).key).toBe("c/0");
    expect((error as StoreError).message).toBe(
      `HTTP 500 Internal Server Error for GET ${server.url}c/0 (key "c/0") after 2 retries.`,
    );
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry when retries is 0", async () => {
    const server = await flakyServer(1);
    await expect(new FetchStore(server.url, { retry: { retries: 0 } }).get("k")).rejects.toThrow(/HTTP 503/);
    expect(server.requests).toHaveLength(1);
  });

  it.each([400, 401, 403, 404, 409])("never retries a %d", async (status) => {
    const server = await serve((_req, res) => send(res, status));
    await new FetchStore(server.url, { retry: quick }).get("k").catch(() => undefined);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a 429 (too many requests) like a 5xx: one retry policy with S3Store", async () => {
    const server = await flakyServer(1, 429);
    expect(await new FetchStore(server.url, { retry: quick }).get("k")).toEqual(Uint8Array.of(1, 2, 3));
    expect(server.requests).toHaveLength(2);
  });

  it("retries network errors, then reports them with the cause", async () => {
    const calls: string[] = [];
    const failing: typeof fetch = async (input) => {
      calls.push(String(input));
      throw new TypeError("fetch failed");
    };
    const error = await new FetchStore("http://127.0.0.1:9/store/", { fetch: failing, retry: quick })
      .get("k")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).message).toBe(
      'Network error for GET http://127.0.0.1:9/store/k (key "k") after 4 attempt(s).',
    );
    expect((error as StoreError).cause).toBeInstanceOf(TypeError);
    expect(calls).toHaveLength(4);
  });

  it("reports a refused connection as a StoreError", async () => {
    const server = await serve((_req, res) => send(res, 200));
    await server.close(); // nothing listens on the port any more
    await expect(new FetchStore(server.url, { retry: { ...quick, retries: 1 } }).get("k")).rejects.toBeInstanceOf(
      StoreError,
    );
  });

  it("does not retry a network error on a conditional write, which may have happened", async () => {
    let calls = 0;
    const failing: typeof fetch = async () => {
      calls++;
      throw new TypeError("fetch failed");
    };
    const store = new FetchStore("http://127.0.0.1:9/store/", { fetch: failing, retry: quick, writable: true });
    await expect(store.set!("k", Uint8Array.of(1), { ifNoneMatch: "*" })).rejects.toBeInstanceOf(StoreError);
    expect(calls).toBe(1);
    await expect(store.set!("k", Uint8Array.of(1))).rejects.toBeInstanceOf(StoreError);
    expect(calls).toBe(1 + 4);
  });

  it("backs off exponentially with full jitter, capped", () => {
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    const defaults = { retries: 3, baseDelayMs: 200, maxDelayMs: 5000 };
    expect([0, 1, 2, 3, 10].map((retry) => backoffMs(retry, defaults))).toEqual([100, 200, 400, 800, 2500]);
    vi.spyOn(Math, "random").mockReturnValue(0);
    expect(backoffMs(3, defaults)).toBe(0);
  });
});

describe("abort", () => {
  it("rejects with the abort reason, sending nothing, when the signal is already aborted", async () => {
    const server = await serve((_req, res) => send(res, 200));
    const store = new FetchStore(server.url);
    const signal = AbortSignal.abort();
    await expect(store.get("k", { signal })).rejects.toMatchObject({ name: "AbortError" });
    await expect(store.getRange("k", { offset: 0, length: 1 }, { signal })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(server.requests).toHaveLength(0);
  });

  it("aborts a request in flight", async () => {
    const controller = new AbortController();
    // Never answers; aborts the client once the request has arrived.
    const server = await serve(() => controller.abort());
    const error = await new FetchStore(server.url).get("k", { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "AbortError" });
    expect(server.requests).toHaveLength(1);
  });

  it("aborts while waiting to retry", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0.5); // a five-minute backoff, if the abort were ignored
    const controller = new AbortController();
    const server = await serve((_req, res) => send(res, 503));
    const abortAfterFirstAnswer: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      setTimeout(() => controller.abort(), 0);
      return response;
    };
    const store = new FetchStore(server.url, {
      fetch: abortAfterFirstAnswer,
      retry: { retries: 5, baseDelayMs: 600_000, maxDelayMs: 600_000 },
    });
    await expect(store.get("k", { signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" });
    expect(server.requests).toHaveLength(1);
  });

  it("passes a custom abort reason through", async () => {
    const server = await serve((_req, res) => send(res, 200));
    const reason = new Error("user navigated away");
    await expect(new FetchStore(server.url).get("k", { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });
});

describe("status codes", () => {
  it("reports 401 and 403 as AuthError", async () => {
    for (const status of [401, 403]) {
      const server = await serve((_req, res) => send(res, status));
      await expect(new FetchStore(server.url).get("k")).rejects.toBeInstanceOf(AuthError);
    }
  });

  it("treats 403 as missing when configured, on every read", async () => {
    const server = await serve((_req, res) => send(res, 403));
    const store = new FetchStore(server.url, { missingStatuses: [403, 404] });
    expect(await store.get("k")).toBe(undefined);
    expect(await store.getRange("k", { suffixLength: 4 })).toBe(undefined);
    expect(await store.getRange("k", { offset: 0, length: 0 })).toBe(undefined);
    expect(await store.size("k")).toBe(undefined);
    expect(await store.getVersioned("k")).toBe(undefined);
  });

  it("reports a 404 as an error when 404 is not a missing status", async () => {
    const server = await serve((_req, res) => send(res, 404));
    await expect(new FetchStore(server.url, { missingStatuses: [410] }).get("k")).rejects.toThrow(/HTTP 404/);
  });
});
