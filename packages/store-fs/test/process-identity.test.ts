import { existsSync, readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { tempDir } from "./temp-dir.js";

// Spies on the calls that read this process's identity, to see when they happen.
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  return { ...fs, readFileSync: vi.fn(fs.readFileSync), readlinkSync: vi.fn(fs.readlinkSync) };
});

const IDENTITY_FILES = ["/proc/sys/kernel/random/boot_id", "/proc/self/ns/pid", "/proc/self/stat"];

/** How often each identity file was read since the spies were last cleared. */
function identityReads(): Record<string, number> {
  const calls = [...vi.mocked(readFileSync).mock.calls, ...vi.mocked(readlinkSync).mock.calls];
  const counts: Record<string, number> = {};
  for (const [path] of calls) {
    if (IDENTITY_FILES.includes(String(path))) counts[String(path)] = (counts[String(path)] ?? 0) + 1;
  }
  return counts;
}

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(() => dir.remove());

it.skipIf(!existsSync("/proc/sys/kernel/random/boot_id"))(
  "this process's identity is read at the first lock, once, not when the store is imported",
  async () => {
    vi.mocked(readFileSync).mockClear();
    vi.mocked(readlinkSync).mockClear();
    const { FileSystemStore } = await import("../src/index.js");
    const store = new FileSystemStore(join(dir.path, "store.zarr"));
    expect(await store.get("k")).toBeUndefined(); // reads take no lock
    expect(identityReads()).toEqual({});

    await store.set("k", new Uint8Array([1]));
    await store.append("k", new Uint8Array([2]));
    expect(identityReads()).toEqual(Object.fromEntries(IDENTITY_FILES.map((path) => [path, 1])));

    // What was read is this process as the kernel describes it.
    const { thisProcess } = await import("../src/process-identity.js");
    const stat = readFileSync("/proc/self/stat", "utf8");
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    expect(thisProcess()).toEqual({
      host: hostname(),
      machine: `${boot}/${readlinkSync("/proc/self/ns/pid")}`,
      start: stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19],
    });
  },
);
