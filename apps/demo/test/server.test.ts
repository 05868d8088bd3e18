import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePort } from "../server/args.js";
import { parseRange } from "../server/range.js";
import { halve } from "../server/samples.js";
import { type ServedRequest, serve, serverUrl } from "../server/serve.js";

describe("parseRange", () => {
  it("reads the forms the stores send", () => {
    expect(parseRange("bytes=0-9", 100)).toEqual([0, 9]);
    expect(parseRange("bytes=90-", 100)).toEqual([90, 99]);
    expect(parseRange("bytes=-16", 100)).toEqual([84, 99]);
    expect(parseRange("bytes=-500", 100)).toEqual([0, 99]);
    expect(parseRange("bytes=95-200", 100)).toEqual([95, 99]);
    expect(parseRange("bytes=100-", 100)).toBe("unsatisfiable");
    expect(parseRange("bytes=-0", 100)).toBe("unsatisfiable");
    expect(parseRange("bytes=0-1,5-6", 100)).toBeUndefined();
    expect(parseRange("items=0-1", 100)).toBeUndefined();
  });
});

describe("parsePort", () => {
  it("takes --port, then PORT, then 4173", () => {
    expect(parsePort([], undefined)).toBe(4173);
    expect(parsePort([], "5000")).toBe(5000);
    expect(parsePort(["--port", "6000"], "5000")).toBe(6000);
    expect(parsePort(["--port=0"], undefined)).toBe(0);
    expect(() => parsePort(["--port", "x"], undefined)).toThrow(/Invalid port "x"/);
    expect(() => parsePort(["--verbose"], undefined)).toThrow(/Unknown argument "--verbose"/);
  });
});

describe("the demo server", () => {
  let dir: string;
  let server: Server;
  let base: string;
  const log: ServedRequest[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "demo-serve-"));
    await mkdir(join(dir, "app"));
    await mkdir(join(dir, "data", "a.zarr"), { recursive: true });
    await writeFile(join(dir, "app", "index.html"), "<!doctype html><p>app</p>");
    await writeFile(
      join(dir, "data", "a.zarr", "blob"),
      Uint8Array.from({ length: 100 }, (_, i) => i),
    );
    await writeFile(join(dir, "secret.txt"), "outside");
    server = await serve({
      appDir: join(dir, "app"),
      dataDir: join(dir, "data"),
      port: 0,
      onRequest: (r) => log.push(r),
    });
    base = serverUrl(server);
  });
  afterAll(async () => {
    await new Promise((done) => server.close(done));
    await rm(dir, { recursive: true, force: true });
  });

  it("serves the app at / and data under /data/, with CORS and a strong ETag", async () => {
    const page = await fetch(`${base}/`);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(await page.text()).toContain("app");
    const blob = await fetch(`${base}/data/a.zarr/blob`);
    expect(blob.status).toBe(200);
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(Uint8Array.from({ length: 100 }, (_, i) => i));
    expect(blob.headers.get("access-control-allow-origin")).toBe("*");
    expect(blob.headers.get("access-control-expose-headers")).toMatch(/Content-Range.*Content-Length.*ETag/);
    expect(blob.headers.get("etag")).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
  });

  it("answers Range requests with 206 and Content-Range, suffix ranges included", async () => {
    const part = await fetch(`${base}/data/a.zarr/blob`, { headers: { Range: "bytes=10-19" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 10-19/100");
    expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    const suffix = await fetch(`${base}/data/a.zarr/blob`, { headers: { Range: "bytes=-3" } });
    expect([...new Uint8Array(await suffix.arrayBuffer())]).toEqual([97, 98, 99]);
    const past = await fetch(`${base}/data/a.zarr/blob`, { headers: { Range: "bytes=200-" } });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe("bytes */100");
  });

  it("honours If-Match (412 on another version) and answers CORS preflights", async () => {
    const etag = (await fetch(`${base}/data/a.zarr/blob`)).headers.get("etag")!;
    const same = await fetch(`${base}/data/a.zarr/blob`, { headers: { Range: "bytes=0-0", "If-Match": etag } });
    expect(same.status).toBe(206);
    await same.arrayBuffer();
    const other = await fetch(`${base}/data/a.zarr/blob`, { headers: { Range: "bytes=0-0", "If-Match": '"other"' } });
    expect(other.status).toBe(412);
    const preflight = await fetch(`${base}/data/a.zarr/blob`, { method: "OPTIONS" });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/Range/);
  });

  it("gives 404 for missing keys and never serves files outside its folders", async () => {
    expect((await fetch(`${base}/data/a.zarr/zarr.json`)).status).toBe(404);
    expect((await fetch(`${base}/data/..%2Fsecret.txt`)).status).toBe(404);
    expect((await fetch(`${base}/..%2Fsecret.txt`)).status).toBe(404);
  });

  it("reports every request it answered", () => {
    const ranged = log.find((r) => r.range === "bytes=10-19");
    expect(ranged).toEqual({ method: "GET", path: "/data/a.zarr/blob", range: "bytes=10-19", status: 206, bytes: 10 });
  });
});

describe("the pyramid sample", () => {
  it("halves with the mean of each 2x2x2 block, rounded to nearest", () => {
    const volume = Uint16Array.from({ length: 16 }, (_, i) => i); // (2, 2, 4)
    // Block 0: 0 1 4 5 8 9 12 13 -> 6.5 -> 7; block 1: 2 3 6 7 10 11 14 15 -> 8.5 -> 9.
    expect(halve(volume, [2, 2, 4])).toEqual({ data: Uint16Array.from([7, 9]), shape: [1, 1, 2] });
  });
});
