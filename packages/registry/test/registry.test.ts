import { inspect } from "node:util";
import { describe, expect, it, vi } from "vitest";
import {
  ChecksumError,
  checkStoreKey,
  codecWorkerModules,
  onCodecWorkerModule,
  registerCodecWorkerModule,
  registerPathStore,
  NotFoundError,
  openStore,
  registerCodec,
  registeredCodecs,
  registeredStoreSchemes,
  registerStore,
  resolveCodec,
  type Store,
  StoreError,
  storeKeyProblem,
  UnsupportedError,
  ZarrkitError,
} from "../src/index.js";

describe("codec worker modules", () => {
  it("registerCodec's workerModule and registerCodecWorkerModule list a module once and tell listeners", () => {
    const heard: string[] = [];
    onCodecWorkerModule((added) => heard.push(added));
    const url = "file:///plugins/example-xor.js";
    registerCodec("example.worker-listed", () => () => ({}) as never, { workerModule: url });
    registerCodecWorkerModule(url);
    registerCodecWorkerModule("file:///plugins/other.js");
    expect(codecWorkerModules().filter((m) => m.startsWith("file:///plugins/"))).toEqual([
      url,
      "file:///plugins/other.js",
    ]);
    expect(heard).toEqual([url, "file:///plugins/other.js"]);
  });

  it("an unknown codec's error says to import the plugin package", async () => {
    await expect(resolveCodec("example.nowhere")).rejects.toThrow(
      /install and import that package.*registerCodec\("example.nowhere"/,
    );
  });
});

describe("codec registration", () => {
  it("loads a codec on first use only, once", async () => {
    const factory = vi.fn();
    const loader = vi.fn(async () => factory);
    registerCodec("test.lazy", loader);
    expect(loader).not.toHaveBeenCalled();
    expect(registeredCodecs()).toContain("test.lazy");
    expect(await resolveCodec("test.lazy")).toBe(factory);
    expect(await resolveCodec("test.lazy")).toBe(factory);
    expect(loader).toHaveBeenCalledTimes(1);
  });

  it("names the package that provides a known codec that is not registered", async () => {
    const error = await resolveCodec("sharding_indexed", "codecs[0]").catch((e) => e);
    expect(error).toBeInstanceOf(UnsupportedError);
    expect(error.message).toMatch(/@zarrkit\/sharding/);
    expect(error.field).toBe("codecs[0]");
    await expect(resolveCodec("nobody-knows")).rejects.toThrow(/registerCodec\("nobody-knows"/);
  });

  it("shares registrations between copies of the package in one realm", async () => {
    const state = (globalThis as Record<symbol, { codecs: Map<string, unknown> }>)[Symbol.for("@zarrkit/registry@1")];
    expect(state?.codecs.has("test.lazy")).toBe(true);
  });
});

describe("store registration", () => {
  it("opens a registered scheme with the URL and options", async () => {
    const store: Store = { get: async () => undefined };
    const factory = vi.fn((_url: URL, _options: Readonly<Record<string, unknown>>) => store);
    registerStore("Test-Scheme:", factory);
    expect(registeredStoreSchemes()).toContain("test-scheme");
    expect(await openStore("test-scheme://bucket/path?x=1", { token: "t" })).toBe(store);
    expect(factory.mock.calls[0]?.[0].href).toBe("test-scheme://bucket/path?x=1");
    expect(factory.mock.calls[0]?.[1]).toEqual({ token: "t" });
  });

  it("lists the registered schemes for an unknown one, and refuses non-URLs", async () => {
    await expect(openStore("gopher://x")).rejects.toThrow(/test-scheme:\/\//);
    await expect(openStore("not a url")).rejects.toThrow(StoreError);
    // Plain paths need the filesystem store, which only Node registers (registerPathStore).
    await expect(openStore("./data.zarr")).rejects.toThrow(
      /"\.\/data\.zarr" is a plain path, which opens the filesystem store: that needs Node/,
    );
    await expect(openStore("file:data/x")).rejects.toThrow(/not a file URL: write file:\/\/\/data\/x/);
    // A URL that does not parse keeps no parser error as its cause (its `input` is the URL verbatim) and shows no
    // credentials.
    const leaked = await openStore("s3 ://AKIA:se/cr+et@host/bucket").catch((e: unknown) => e);
    expect(leaked).toBeInstanceOf(StoreError);
    expect(inspect(leaked, { depth: 8 })).not.toContain("se/cr+et");
  });

  it("hands plain paths to the registered path store", async () => {
    const store: Store = { get: async () => undefined };
    const paths: string[] = [];
    registerPathStore((path) => {
      paths.push(path);
      return store;
    });
    for (const path of ["./a.zarr", "/data/a.zarr", "a.zarr", "C:\\data\\a.zarr"])
      expect(await openStore(path)).toBe(store);
    expect(paths).toEqual(["./a.zarr", "/data/a.zarr", "a.zarr", "C:\\data\\a.zarr"]);
    await expect(openStore("s3 ://bucket/x")).rejects.toThrow(/Not a store URL/);
  });
});

describe("typed errors and keys", () => {
  it("carry a code, the key and the field", () => {
    const error = new ChecksumError("bad", { key: "a/c/0", field: "codecs[1]" });
    expect(error).toBeInstanceOf(ZarrkitError);
    expect(error.code).toBe("CHECKSUM_MISMATCH");
    expect(error.name).toBe("ChecksumError");
    expect([error.key, error.field]).toEqual(["a/c/0", "codecs[1]"]);
    expect(new NotFoundError("x").code).toBe("NOT_FOUND");
  });

  it("accept plain relative keys only", () => {
    expect(storeKeyProblem("a/b/zarr.json")).toBeUndefined();
    for (const key of ["", "/a", "a//b", "a/../b", "./a", "a\0b", "a\\b", "a/"]) {
      expect(storeKeyProblem(key), JSON.stringify(key)).toBeDefined();
      expect(() => checkStoreKey(key)).toThrow(StoreError);
    }
  });
});
