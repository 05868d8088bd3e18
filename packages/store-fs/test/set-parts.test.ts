// setParts writes a value given in pieces with vectored writes: the file holds
// their concatenation, however the OS splits the writes, and it keeps set's
// atomicity and conditions.
import { open, readFile } from "node:fs/promises";
import { join } from "node:path";
import { StoreError } from "@zarrkit/registry";
import { concatBytes } from "@zarrkit/util";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { writePartsAt } from "../src/file-io.js";
import { FileSystemStore } from "../src/index.js";
import { tempDir } from "./temp-dir.js";

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await dir.remove();
});

/** `count` parts of varied sizes (some empty), each filled with its own byte. */
function parts(count: number): Uint8Array[] {
  return Array.from({ length: count }, (_, i) => new Uint8Array((i * 37) % 11).fill(i & 0xff));
}

describe("setParts", () => {
  it("stores the concatenation of its parts, more than one vectored write takes (1024)", async () => {
    const store = new FileSystemStore(dir.path);
    const pieces = parts(2500);
    await store.setParts("a/c/0", pieces);
    expect(new Uint8Array(await readFile(join(dir.path, "a", "c", "0")))).toEqual(concatBytes(pieces));
    await store.setParts("a/c/0", []);
    expect((await store.get("a/c/0"))?.length).toBe(0);
  });

  it("keeps set's conditions: a stale ifMatch leaves the value as it was", async () => {
    const store = new FileSystemStore(dir.path);
    await store.set("k", new Uint8Array([1, 2, 3]));
    const stale = (await store.getVersioned("k"))!.version;
    await store.setParts("k", [new Uint8Array([4]), new Uint8Array([5])], { ifMatch: stale });
    await expect(store.setParts("k", [new Uint8Array([6])], { ifMatch: stale })).rejects.toThrow(/k/);
    expect([...(await store.get("k"))!]).toEqual([4, 5]);
    await expect(store.setParts("k", [new Uint8Array([7])], { ifNoneMatch: "*" })).rejects.toThrow(/k/);
  });

  it("a part that is not bytes fails naming the key and leaves the old value", async () => {
    const store = new FileSystemStore(dir.path);
    await store.set("k", new Uint8Array([1]));
    const bad = [new Uint8Array([2]), "three" as unknown as Uint8Array];
    const error = await store.setParts("k", bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toContain("k");
    expect([...(await store.get("k"))!]).toEqual([1]);
  });
});

describe("writePartsAt", () => {
  it("goes on where the OS wrote only part of a call, at any byte of any part", async () => {
    const path = join(dir.path, "f");
    const file = await open(path, "w+");
    const writev = file.writev.bind(file);
    const calls: number[] = [];
    // An OS that writes at most 7 bytes per call (files may, pipes and signals do).
    vi.spyOn(file, "writev").mockImplementation(async (buffers, position) => {
      const all = concatBytes(buffers as Uint8Array[]);
      calls.push(buffers.length);
      return writev([all.subarray(0, 7)], position ?? undefined);
    });
    const pieces = parts(40);
    await writePartsAt(file, pieces, 3);
    await file.close();
    const total = pieces.reduce((n, p) => n + p.length, 0);
    expect(calls.length).toBe(Math.ceil(total / 7));
    expect(new Uint8Array(await readFile(path)).subarray(3)).toEqual(concatBytes(pieces));
  });

  it("fails with EIO, rather than spinning, when a call writes nothing", async () => {
    const file = await open(join(dir.path, "g"), "w+");
    vi.spyOn(file, "writev").mockResolvedValue({ bytesWritten: 0, buffers: [] });
    await expect(writePartsAt(file, [new Uint8Array(4)], 0)).rejects.toMatchObject({ code: "EIO" });
    await file.close();
  });
});
