import { StoreError } from "@zarrkit/registry";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ResponseTooLargeError, S3Store, StoreTimeoutError } from "../src/index.js";
import { endless, type HostileServer, hostileServer } from "./hostile-server.js";

const servers: HostileServer[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Parameters<typeof hostileServer>[0]): Promise<HostileServer> {
  const server = await hostileServer(handler);
  servers.push(server);
  return server;
}

const storeAt = (endpoint: string, options: Partial<ConstructorParameters<typeof S3Store>[0]> = {}) =>
  new S3Store({
    bucket: "bkt",
    endpoint,
    credentials: { accessKeyId: "AKID", secretAccessKey: "secret/key+0123456789" },
    retries: 0,
    ...options,
  });
/** Unsigned: signing awaits WebCrypto, which fake timers cannot step through. */
const anonymousAt = (endpoint: string, options: Partial<ConstructorParameters<typeof S3Store>[0]> = {}) =>
  new S3Store({ bucket: "bkt", endpoint, anonymous: true, retries: 0, ...options });

function track<T>(promise: Promise<T>) {
  const state: { settled: boolean; error?: unknown; done: Promise<void> } = { settled: false, done: Promise.resolve() };
  state.done = promise.then(
    () => void (state.settled = true),
    (error: unknown) => void Object.assign(state, { settled: true, error }),
  );
  return state;
}

describe("the idle timeout (fake timers)", () => {
  it("cancels a body that stops after idleTimeoutMs without a byte, the timer restarting at every chunk", async () => {
    vi.useFakeTimers();
    let feed!: ReadableStreamDefaultController<Uint8Array>;
    let cancelled = false;
    const fetch: typeof globalThis.fetch = async () => {
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => void (feed = controller),
        cancel: () => void (cancelled = true),
      });
      return new Response(body, { status: 200, headers: { ETag: '"e"' } });
    };
    // No minimum rate here: 5 bytes per 10 s would be too slow for the default.
    const store = anonymousAt("http://127.0.0.1:9", { fetch, idleTimeoutMs: 10_000, minBytesPerSecond: 0 });
    const read = track(store.get("a/k"));
    await vi.advanceTimersByTimeAsync(0);
    for (let chunk = 0; chunk < 3; chunk++) {
      feed.enqueue(new Uint8Array(5));
      await vi.advanceTimersByTimeAsync(9_999);
      expect(read.settled, `still reading after chunk ${chunk}`).toBe(false);
    }
    await vi.advanceTimersByTimeAsync(1);
    await read.done;
    expect(read.error).toBeInstanceOf(StoreTimeoutError);
    expect(read.error).toMatchObject({
      key: "a/k",
      code: "STORE_TIMEOUT",
      message: "S3 GET s3://bkt/a/k failed: no bytes for 10000 ms; gave up after 1 attempt(s).",
    });
    // (The Request's own signal follows the store's through a WeakRef in undici, so the body is what to look at.)
    expect(cancelled, "the body is cancelled").toBe(true);
  });

  it("covers the wait for the headers, with a fetch that ignores its signal, and retries it", async () => {
    vi.useFakeTimers();
    let calls = 0;
    const never: typeof globalThis.fetch = () => {
      calls++;
      return new Promise<Response>(() => {});
    };
    const read = track(
      anonymousAt("http://127.0.0.1:9", { fetch: never, retries: 2 }).getRange("k", { suffixLength: 4 }),
    );
    await vi.advanceTimersByTimeAsync(29_999);
    expect(read.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(3 * 30_000 + 1000);
    await read.done;
    expect(read.error).toMatchObject({
      code: "STORE_TIMEOUT",
      key: "k",
      message: expect.stringMatching(/gave up after 3 attempt\(s\)/),
    });
    expect(calls).toBe(3);
  });

  it("does not time an upload, whose progress fetch cannot see, but times the reply to it", async () => {
    vi.useFakeTimers();
    let releasePart!: () => void;
    let stalledReply = false;
    const fetch: typeof globalThis.fetch = async (input) => {
      const request = input as Request;
      const query = new URL(request.url).searchParams;
      if (request.method === "POST" && query.has("uploads"))
        return new Response("<InitiateMultipartUploadResult><UploadId>u1</UploadId></InitiateMultipartUploadResult>");
      if (request.method === "PUT") {
        await new Promise<void>((resolve) => (releasePart = resolve));
        return new Response(null, { headers: { ETag: '"p1"' } });
      }
      if (request.method === "POST") {
        stalledReply = true;
        const body = new ReadableStream<Uint8Array>({
          start: (c) => c.enqueue(new TextEncoder().encode("<CompleteMultipartUploadResult>")),
        });
        return new Response(body);
      }
      return new Response(null, { status: 204 }); // the abort of the upload
    };
    const store = anonymousAt("http://127.0.0.1:9", { fetch, multipartThreshold: 0, idleTimeoutMs: 1000 });
    const write = track(store.set("k", new Uint8Array(10)));
    await vi.advanceTimersByTimeAsync(120_000);
    expect(write.settled, "a two-minute upload is not idle").toBe(false);
    releasePart();
    await vi.advanceTimersByTimeAsync(999);
    expect(stalledReply).toBe(true);
    expect(write.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await write.done;
    expect(write.error).toMatchObject({
      code: "STORE_TIMEOUT",
      key: "k",
      message: expect.stringMatching(/^S3 POST s3:\/\/bkt\/k failed: no bytes for 1000 ms/),
    });
  });

  it("is off with idleTimeoutMs: 0 (and requestTimeoutMs: 0)", async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const never: typeof globalThis.fetch = () => new Promise<Response>(() => {});
    const read = track(
      anonymousAt("http://127.0.0.1:9", { fetch: never, idleTimeoutMs: 0, requestTimeoutMs: 0 }).get("k", {
        signal: controller.signal,
      }),
    );
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(read.settled).toBe(false);
    controller.abort();
    await read.done;
    expect(read.error).toMatchObject({ name: "AbortError" });
  });
});

describe("hostile servers", () => {
  it("gives up on a server that sends part of a body and then nothing, closing the connection", async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const server = await serve((_req, res) => {
      res.writeHead(200, { "Content-Length": "100" });
      res.write(new Uint8Array(10));
      res.on("close", closed);
    });
    // Room for signing and connecting on a loaded machine: the timer runs from the start of the attempt.
    const error = await storeAt(server.endpoint, { idleTimeoutMs: 500 })
      .get("k")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreTimeoutError);
    await connectionClosed;
  });

  it("refuses a 206 announcing 1.5 GiB for a 68-byte range before reading it", async () => {
    const { handler, written } = endless(206, {
      "Content-Range": "bytes 0-67/2000000000",
      "Content-Length": String(1.5 * 2 ** 30),
    });
    const server = await serve(handler);
    const error = await storeAt(server.endpoint)
      .getRange("c/0", { offset: 0, length: 68 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({
      key: "c/0",
      code: "RESPONSE_TOO_LARGE",
      message: expect.stringMatching(
        /^S3 GET s3:\/\/bkt\/c\/0 failed: the reply announces 1610612736 bytes \(Content-Length\), more than the 68 bytes the range asked for/,
      ),
    });
    expect(await written).toBeLessThan(64 * 2 ** 20);
  });

  it("stops reading an endless 206 without Content-Length once it passes the suffix length", async () => {
    const { handler, written } = endless(206, { "Content-Range": "bytes */*" });
    const server = await serve(handler);
    const error = await storeAt(server.endpoint)
      .getRange("c/0", { suffixLength: 68 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(await written).toBeLessThan(64 * 2 ** 20);
  });

  it("caps whole objects, and suffixes answered with everything, at maxBodyBytes", async () => {
    const { handler, written } = endless(200, { ETag: '"e"' });
    const server = await serve(handler);
    const store = storeAt(server.endpoint, { maxBodyBytes: 100_000 });
    for (const read of [
      () => store.get("k"),
      () => store.getVersioned("k"),
      () => store.getRange("k", { suffixLength: 10 }),
    ]) {
      const error = await read().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect((error as Error).message).toMatch(
        /more than the 100000 bytes maxBodyBytes allows; the connection was closed/,
      );
    }
    expect(await written).toBeLessThan(64 * 2 ** 20);
  });

  it("reads only the first 64 KiB of an endless error document, and still reports its code", async () => {
    const head = new TextEncoder().encode("<Error><Code>InternalError</Code><Message>");
    const chunk = new Uint8Array(64 * 1024).fill(0x78);
    chunk.set(head);
    const { handler, written } = endless(500, { "Content-Type": "application/xml" }, chunk);
    const server = await serve(handler);
    const error = await storeAt(server.endpoint)
      .get("k")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(/^S3 GET s3:\/\/bkt\/k failed: 500 InternalError\./);
    expect(await written).toBeLessThan(64 * 2 ** 20);
  });

  it("refuses a listing page larger than 16 MiB", async () => {
    const { handler } = endless(200, { "Content-Type": "application/xml" });
    const server = await serve(handler);
    await expect(storeAt(server.endpoint).listDir("")).rejects.toMatchObject({
      code: "RESPONSE_TOO_LARGE",
      message: expect.stringMatching(/a listing page may have/),
    });
  });

  it("reports a body cut short of its Content-Length as a failure, never as a short value", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "Content-Length": "68" });
      res.write(new Uint8Array(10));
      res.destroy();
    });
    const error = await storeAt(server.endpoint)
      .get("k")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ key: "k", message: expect.stringMatching(/^S3 GET s3:\/\/bkt\/k failed: /) });
  });
});

describe("options", () => {
  it.each(["idleTimeoutMs", "maxBodyBytes"])("rejects a %s that is not a non-negative integer, naming it", (name) => {
    for (const bad of [-1, 1.5, Number.NaN, "30s"]) {
      const make = () => new S3Store({ bucket: "bkt", [name]: bad as number });
      expect(make).toThrow(expect.objectContaining({ name: "InvalidOptionError", field: name }));
      expect(make).toThrow(new RegExp(`S3 option ${name} must be a non-negative integer, got `));
    }
  });
});
