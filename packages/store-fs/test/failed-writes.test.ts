import * as fs from "node:fs/promises";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { StoreError } from "@zarrkit/registry";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { FileSystemStore } from "../src/index.js";
import { tempDir } from "./temp-dir.js";

// Wrap the functions an atomic write uses, so single calls can be made to fail.
vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  return { ...actual, rename: vi.fn(actual.rename), open: vi.fn(actual.open) };
});

const text = (s: string) => new TextEncoder().encode(s);
const ioError = () => Object.assign(new Error("EIO: i/o error"), { code: "EIO" });

let dir: Awaited<ReturnType<typeof tempDir>>;
let store: FileSystemStore;
beforeEach(async () => {
  dir = await tempDir();
  store = new FileSystemStore(dir.path);
  await store.set("a/k", text("old value"));
});
afterEach(async () => {
  vi.mocked(fs.rename).mockReset();
  await dir.remove();
});

async function namesIn(path: string): Promise<string[]> {
  return (await readdir(path)).sort();
}

it("a failed rename leaves the old value and no temporary file", async () => {
  vi.mocked(fs.rename).mockRejectedValueOnce(ioError());
  const error = await store.set("a/k", text("new value")).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StoreError);
  expect((error as StoreError).key).toBe("a/k");
  expect((error as StoreError).cause).toMatchObject({ code: "EIO" });
  expect(new TextDecoder().decode(await store.get("a/k"))).toBe("old value");
  expect(await namesIn(join(dir.path, "a"))).toEqual(["k"]);
});

it("a failed fsync (the data may be torn) leaves the old value and no temporary file", async () => {
  const actualOpen = (await vi.importActual<typeof import("node:fs/promises")>("node:fs/promises")).open;
  vi.mocked(fs.open).mockImplementationOnce(async (...args: Parameters<typeof actualOpen>) => {
    const file = await actualOpen(...args);
    file.sync = () => Promise.reject(ioError());
    return file;
  });
  await expect(store.set("a/k", text("a new value, longer than the old one"))).rejects.toBeInstanceOf(StoreError);
  expect(new TextDecoder().decode(await store.get("a/k"))).toBe("old value");
  expect(await namesIn(join(dir.path, "a"))).toEqual(["k"]);
});

it("a failed first write of a key leaves no value", async () => {
  vi.mocked(fs.rename).mockRejectedValueOnce(ioError());
  await expect(store.set("a/new", text("x"))).rejects.toBeInstanceOf(StoreError);
  expect(await store.get("a/new")).toBe(undefined);
  expect(await namesIn(join(dir.path, "a"))).toEqual(["k"]);
});
