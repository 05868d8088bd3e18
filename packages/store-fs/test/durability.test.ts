// Whole-value writes fsync the new value before renaming it over the old one,
// unless the store is opened with durability "none".
import { open } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
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

/** Counts fsyncs of any file handle while `run` runs. */
async function fsyncsDuring(run: () => Promise<unknown>): Promise<number> {
  const probe = await open(join(dir.path, "probe"), "w");
  const prototype = Object.getPrototypeOf(probe) as { sync(): Promise<void> };
  await probe.close();
  const sync = vi.spyOn(prototype, "sync");
  await run();
  const calls = sync.mock.calls.length;
  sync.mockRestore();
  return calls;
}

describe("durability", () => {
  it('"each-write" (the default) fsyncs every whole-value write; "none" none, with the same values', async () => {
    const value = new Uint8Array([1, 2, 3]);
    for (const [options, fsyncs] of [
      [{}, 3],
      [{ durability: "each-write" as const }, 3],
      [{ durability: "none" as const }, 0],
    ] as const) {
      const store = new FileSystemStore(join(dir.path, `s${fsyncs}${JSON.stringify(options).length}`), options);
      const counted = await fsyncsDuring(async () => {
        for (const key of ["a/zarr.json", "a/c/0", "a/c/1"]) await store.set(key, value);
      });
      expect(counted, JSON.stringify(options)).toBe(fsyncs);
      expect(await store.get("a/c/1")).toEqual(value);
    }
  });

  it("a bad durability is an InvalidOptionError naming the option", () => {
    expect(() => new FileSystemStore(dir.path, { durability: "sometimes" as never })).toThrow(
      expect.objectContaining({ name: "InvalidOptionError", field: "durability" }),
    );
    expect(() => new FileSystemStore(dir.path, { durability: "sometimes" as never })).toThrow(
      /durability must be "each-write" or "none", got "sometimes"/,
    );
  });
});
