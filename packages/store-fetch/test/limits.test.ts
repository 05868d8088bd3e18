import { createServer as createNetServer, type Server as NetServer, type Socket } from "node:net";
import { StoreError } from "@zarrkit/registry";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FetchStore, ResponseTooLargeError, StoreTimeoutError } from "../src/index.js";
import { send, startServer, type TestServer } from "./http-server.js";

const servers: TestServer[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

/** Settles into a value or an error without throwing, so a test can look at it before it is due. */
function track<T>(promise: Promise<T>): { settled: boolean; value?: T; error?: unknown; done: Promise<void> } {
  const state: { settled: boolean; value?: T; error?: unknown; done: Promise<void> } = {
    settled: false,
    done: Promise.resolve(),
  };
  state.done = promise.then(
    (value) => {
      Object.assign(state, { settled: true, value });
    },
    (error: unknown) => {
      Object.assign(state, { settled: true, error });
    },
  );
  return state;
}

/** A fetch answering with a body the test feeds by hand: what the store pulled and whether it cancelled. */
function handFedFetch(init: ResponseInit = { status: 200 }) {
  const state = {
    calls: 0,
    signals: [] as AbortSignal[],
    feed: undefined as ReadableStreamDefaultController<Uint8Array> | undefined,
    cancelled: false,
  };
  const fetch: typeof globalThis.fetch = async (_input, requestInit) => {
    state.calls++;
    state.signals.push(requestInit!.signal!);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        state.feed = controller;
      },
      cancel() {
        state.cancelled = true;
      },
    });
    return new Response(body, init);
  };
  return { fetch, state };
}

describe("the idle timeout (fake timers)", () => {
  it(
    "cancels a body that stops sending after idleTimeoutMs without a byte, restarting the timer at " + "every chunk",
    async () => {
      vi.useFakeTimers();
      const { fetch, state } = handFedFetch();
      // No minimum rate here: 10 bytes per 30 s would be too slow for the default.
      const store = new FetchStore("http://127.0.0.1:9/store/", { fetch, retry: { retries: 0 }, minBytesPerSecond: 0 });
      const read = track(store.get("c/0"));
      await vi.advanceTimersByTimeAsync(0);
      for (let chunk = 0; chunk < 3; chunk++) {
        state.feed!.enqueue(new Uint8Array(10));
        await vi.advanceTimersByTimeAsync(29_999);
        expect(read.settled, `still reading after chunk ${chunk}`).toBe(false);
      }
      await vi.advanceTimersByTimeAsync(1);
      await read.done;
      expect(read.error).toBeInstanceOf(StoreTimeoutError);
      expect(read.error).toBeInstanceOf(StoreError);
      expect(read.error).toMatchObject({
        key: "c/0",
        code: "STORE_TIMEOUT",
        message: 'No bytes for 30000 ms from GET http://127.0.0.1:9/store/c/0 (key "c/0"); gave up after 1 attempt(s).',
      });
      expect(state.signals[0]!.aborted, "the request is aborted").toBe(true);
      expect(state.cancelled, "the body is cancelled").toBe(true);
    },
  );

  it(
    "covers the wait for the headers too, even with a fetch that ignores its signal, and retries like a " +
      "network error",
    async () => {
      vi.useFakeTimers();
      let calls = 0;
      const never: typeof globalThis.fetch = () => {
        calls++;
        return new Promise<Response>(() => {});
      };
      const store = new FetchStore("http://127.0.0.1:9/store/", {
        fetch: never,
        idleTimeoutMs: 5000,
        retry: { retries: 2, baseDelayMs: 10, maxDelayMs: 10 },
      });
      const read = track(store.getRange("k", { suffixLength: 8 }));
      await vi.advanceTimersByTimeAsync(4999);
      expect(read.settled).toBe(false);
      await vi.advanceTimersByTimeAsync(3 * 5000 + 100);
      await read.done;
      expect(read.error).toBeInstanceOf(StoreTimeoutError);
      expect((read.error as Error).message).toMatch(/gave up after 3 attempt\(s\)/);
      expect(calls).toBe(3);
    },
  );

  it(
    "is off with idleTimeoutMs: 0 (and no deadline or minimum rate); the caller's signal still ends " + "the wait",
    async () => {
      vi.useFakeTimers();
      const { fetch, state } = handFedFetch();
      const controller = new AbortController();
      const store = new FetchStore("http://127.0.0.1:9/store/", {
        fetch,
        idleTimeoutMs: 0,
        requestTimeoutMs: 0,
        minBytesPerSecond: 0,
      });
      const read = track(store.get("k", { signal: controller.signal }));
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(read.settled).toBe(false);
      controller.abort();
      await read.done;
      expect(read.error).toMatchObject({ name: "AbortError" });
      expect(state.cancelled).toBe(true);
    },
  );

  it("starts the timer of a write at the reply: fetch cannot tell how an upload progresses", async () => {
    vi.useFakeTimers();
    let answer!: (response: Response) => void;
    const slowUpload: typeof globalThis.fetch = () => new Promise<Response>((resolve) => (answer = resolve));
    const store = new FetchStore("http://127.0.0.1:9/store/", {
      fetch: slowUpload,
      writable: true,
      idleTimeoutMs: 1000,
    });
    const write = track(store.set!("k", new Uint8Array(10)));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(write.settled).toBe(false);
    answer(new Response(null, { status: 204 }));
    await write.done;
    expect(write.error).toBe(undefined);
  });
});

describe("the idle timeout against a real socket", () => {
  it(
    "gives up on a server that sends the headers and part of the body, then nothing, and closes the " + "connection",
    async () => {
      let closed!: () => void;
      const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
      const server = await serve((_req, res) => {
        res.writeHead(200, { "Content-Length": "1000" });
        res.write(new Uint8Array(10));
        res.on("close", closed);
      });
      // Room for signing and connecting on a loaded machine: the timer runs from the start of the attempt.
      const error = await new FetchStore(server.url, { idleTimeoutMs: 500, retry: { retries: 0 } })
        .get("k")
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreTimeoutError);
      expect((error as StoreTimeoutError).key).toBe("k");
      await connectionClosed;
    },
  );

  it("gives up on a server that never answers", async () => {
    const server = await serve(() => {});
    const error = await new FetchStore(server.url, { idleTimeoutMs: 500, retry: { retries: 1, baseDelayMs: 1 } })
      .getRange("k", { offset: 0, length: 4 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "STORE_TIMEOUT", key: "k" });
    // The server logs a request once its handler runs, which on a loaded machine can come after the client gave up.
    await vi.waitFor(() => expect(server.requests).toHaveLength(2));
  });
});

/** A server streaming zeros in 64 KiB chunks with backpressure until the client goes: how many bytes it wrote. */
async function endlessServer(
  status: number,
  headers: Record<string, string>,
): Promise<{ server: TestServer; written: Promise<number> }> {
  let report!: (bytes: number) => void;
  const written = new Promise<number>((resolve) => (report = resolve));
  const chunk = new Uint8Array(64 * 1024);
  const server = await serve((_req, res) => {
    let bytes = 0;
    let open = true;
    res.on("close", () => {
      open = false;
      report(bytes);
    });
    res.writeHead(status, headers);
    const pump = () => {
      while (open) {
        bytes += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
    };
    pump();
  });
  return { server, written };
}

describe("caps on bodies", () => {
  it("refuses a 206 announcing 1.5 GiB for a 68-byte range before reading it, and closes the connection", async () => {
    const { server, written } = await endlessServer(206, {
      "Content-Range": "bytes 0-67/2000000000",
      "Content-Length": String(1.5 * 2 ** 30),
    });
    const error = await new FetchStore(server.url).getRange("c/0", { offset: 0, length: 68 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({
      key: "c/0",
      code: "RESPONSE_TOO_LARGE",
      message: expect.stringMatching(
        /announces 1610612736 bytes \(Content-Length\), more than the 68 bytes the range asked for; the connection was closed/,
      ),
    });
    expect(await written).toBeLessThan(64 * 2 ** 20);
  });

  it("stops reading an endless 206 without Content-Length once it passes the range's length", async () => {
    const { server, written } = await endlessServer(206, { "Content-Range": "bytes */*" });
    const error = await new FetchStore(server.url).getRange("c/0", { suffixLength: 68 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toMatch(/sent more than 68 bytes, more than the 68 bytes the range asked for/);
    // Backpressure: the server could write only what the socket buffers hold before the client hung up.
    expect(await written).toBeLessThan(64 * 2 ** 20);
  });

  it("caps whole values and suffixes answered with everything at maxBodyBytes", async () => {
    const { server, written } = await endlessServer(200, {});
    const store = new FetchStore(server.url, { maxBodyBytes: 100_000 });
    const whole = await store.get("k").catch((e: unknown) => e);
    expect(whole).toBeInstanceOf(ResponseTooLargeError);
    expect((whole as Error).message).toMatch(
      /sent more than 100000 bytes, more than the 100000 bytes maxBodyBytes allows/,
    );
    await written;
    const ranged = await store.getRange("k", { suffixLength: 10 }).catch((e: unknown) => e);
    expect(ranged).toMatchObject({ code: "RESPONSE_TOO_LARGE", message: expect.stringMatching(/maxBodyBytes allows/) });
    const versioned = await store.getVersioned("k").catch((e: unknown) => e);
    expect(versioned).toBeInstanceOf(ResponseTooLargeError);
  });

  it("accepts a body of exactly the cap, and reads bodies with and without Content-Length whole", async () => {
    const value = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7) & 0xff);
    const server = await serve((req, res) => {
      if (req.url!.endsWith("/chunked")) {
        res.writeHead(200);
        for (let i = 0; i < value.length; i += 1000) res.write(value.subarray(i, i + 1000));
        res.end();
      } else send(res, 200, value);
    });
    const store = new FetchStore(server.url, { maxBodyBytes: value.length });
    // Buffer.equals: a deep equality over 300 000 elements would take seconds.
    expect(Buffer.from(value).equals((await store.get("sized"))!)).toBe(true);
    expect(Buffer.from(value).equals((await store.get("chunked"))!)).toBe(true);
    await expect(new FetchStore(server.url, { maxBodyBytes: value.length - 1 }).get("sized")).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
    await expect(new FetchStore(server.url, { maxBodyBytes: value.length - 1 }).get("chunked")).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
  });

  it("refuses a Content-Length above the default cap (2 GiB - 1) without allocating it", async () => {
    const { server } = await endlessServer(200, { "Content-Length": String(5 * 2 ** 30) });
    await expect(new FetchStore(server.url).get("k")).rejects.toThrow(
      /announces 5368709120 bytes \(Content-Length\), more than the 2147483647 bytes maxBodyBytes allows/,
    );
  });

  it(
    "does not believe a Content-Length smaller than the body: bytes past the range are refused all " + "the same",
    async () => {
      const pulled: number[] = [];
      let cancelled = false;
      const lying: typeof globalThis.fetch = async () => {
        let sent = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            sent += 1024;
            pulled.push(sent);
            controller.enqueue(new Uint8Array(1024));
          },
          cancel() {
            cancelled = true;
          },
        });
        return new Response(body, {
          status: 206,
          headers: { "Content-Length": "68", "Content-Range": "bytes 0-67/100" },
        });
      };
      const error = await new FetchStore("http://127.0.0.1:9/store/", { fetch: lying })
        .getRange("k", { offset: 0, length: 68 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(cancelled).toBe(true);
      expect(pulled.length).toBeLessThan(4);
    },
  );

  it("reports a body cut short of its Content-Length as a network error, not as a short value", async () => {
    const sockets: Socket[] = [];
    const raw: NetServer = createNetServer((socket) => {
      sockets.push(socket);
      socket.once("data", () => socket.end("HTTP/1.1 200 OK\r\nContent-Length: 68\r\n\r\n0123456789"));
    });
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    try {
      const port = (raw.address() as { port: number }).port;
      const error = await new FetchStore(`http://127.0.0.1:${port}/store/`, { retry: { retries: 0 } })
        .get("k")
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      expect(error).toMatchObject({ key: "k", message: expect.stringMatching(/^Network error for GET/) });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => raw.close(() => resolve()));
    }
  });
});

describe("options", () => {
  it.each(["idleTimeoutMs", "maxBodyBytes"])("rejects a %s that is not a non-negative integer, naming it", (name) => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "30s"]) {
      const make = () => new FetchStore("http://127.0.0.1:9/store/", { [name]: bad as number });
      expect(make).toThrow(expect.objectContaining({ name: "InvalidOptionError", field: name }));
      expect(make).toThrow(new RegExp(`FetchStore option ${name} must be a non-negative integer, got `));
    }
  });
});
